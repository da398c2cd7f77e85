"""Export and import of 2,000 memories: the file written (M13 YAML, PAM JSON), the file read back
as proposals into an empty database (checked and proposed in one transaction), and all of them
confirmed; on SQLite and PostgreSQL."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import TypeVar

from sqlalchemy import Engine, select

from domain import proposals
from domain.actors import SYSTEM
from domain.enums import MemoryConfidence, MemorySource, MemoryStatus, MemoryType, ProposalStatus
from domain.exports import export_memory
from domain.imports import import_file
from domain.memory_writes import insert_memory
from domain.models import Memory, Proposal, User
from domain.types import utcnow
from persistence.engine import make_engine
from persistence.migrate import upgrade
from persistence.uow import unit_of_work
from tests.databases import postgres_engine, postgres_unreachable_reason
from tests.factories import make_user
from tests.perf.figures import record

MEMORIES = 2_000
TYPES = list(MemoryType)
T = TypeVar("T")


def timed(action: Callable[[], T]) -> tuple[T, float]:
    started = time.perf_counter()
    value = action()
    return value, (time.perf_counter() - started) * 1000


def seed(engine: Engine, count: int) -> User:
    athlete = make_user(engine, "bench")
    now = utcnow()
    with unit_of_work(engine) as session:
        for n in range(count):
            insert_memory(
                session,
                SYSTEM,
                Memory(
                    athlete_id=athlete.id,
                    type=TYPES[n % 5],
                    content=f"Stored fact number {n} about long runs and recovery",
                    source=MemorySource.USER_MESSAGE,
                    source_reference=f"msg_{n}",
                    confidence=MemoryConfidence.MEDIUM,
                    occurrences=1 + n % 3,
                    tags=[f"body:part{n}", "time:morning"] if n % 2 else [f"context:item{n}"],
                    status=MemoryStatus.ACTIVE,
                    created_at=now,
                    updated_at=now,
                ),
            )
    return athlete


def confirm_all(engine: Engine, athlete: User) -> None:
    """Every pending proposal confirmed, at most MAX_BULK per transaction, none replacing another."""
    with unit_of_work(engine, read_only=True) as session:
        ids = list(session.scalars(select(Proposal.id).where(Proposal.status == ProposalStatus.PENDING)))
    for start in range(0, len(ids), proposals.MAX_BULK):
        batch = ids[start : start + proposals.MAX_BULK]
        with unit_of_work(engine) as session:
            proposals.confirm_many(session, athlete, proposal_ids=batch, keep_both=batch)


def measure(engines: Callable[[], AbstractContextManager[Engine]], label: str, count: int) -> dict[str, float]:
    figures: dict[str, float] = {}
    with engines() as source:
        athlete = seed(source, count)
        files = {}
        for fmt in ("m13", "pam"):
            with unit_of_work(source, read_only=True) as session:
                exported, ms = timed(lambda: export_memory(session, athlete, athlete=athlete, format=fmt))  # noqa: B023
            files[fmt] = exported.text.encode()
            figures[f"export_{fmt}_ms"] = ms
            figures[f"export_{fmt}_kib"] = len(files[fmt]) / 1024
    for fmt, data in files.items():
        with engines() as target:
            again = make_user(target, "bench")
            with unit_of_work(target) as session:
                result, ms = timed(
                    lambda: import_file(session, again, athlete=again, file_name=f"bench.{fmt}", data=data)  # noqa: B023
                )
            figures[f"import_{fmt}_ms"] = ms
            assert len(result.proposals) == count
            if fmt == "m13":
                _, figures["confirm_imported_ms"] = timed(lambda: confirm_all(target, again))  # noqa: B023
    for name, value in figures.items():
        record(f"{name}_{label}_{count / 1000:g}k", value)
    return figures


def run(quick: bool = False) -> None:
    count = 500 if quick else MEMORIES
    with tempfile.TemporaryDirectory() as tmp:
        serial = iter(range(1000))

        @contextmanager
        def sqlite() -> Engine:  # type: ignore[misc]
            engine = make_engine(f"sqlite:///{Path(tmp) / f'bench{next(serial)}.sqlite3'}")
            upgrade(engine)
            try:
                yield engine
            finally:
                engine.dispose()

        results = {"SQLite": measure(sqlite, "sqlite", count)}
    reason = "quick mode" if quick else postgres_unreachable_reason()
    if reason is None:
        results["PostgreSQL"] = measure(postgres_engine, "postgres", count)
    else:
        print(f"PostgreSQL skipped: {reason}")
    print(f"{count:,} memories; export = read + write the file; import = check the file + propose each (audited)")
    names = list(next(iter(results.values())))
    print(f"{'step':<22}" + "".join(f"{store:>14}" for store in results))
    for name in names:
        print(f"{name:<22}" + "".join(f"{figures[name]:>14,.0f}" for figures in results.values()))


if __name__ == "__main__":
    run()
