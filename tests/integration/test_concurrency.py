"""Twenty people at once on one athlete's memories: confirm, edit and delete in parallel threads.

Nothing acknowledged is lost, no deadlock reaches anyone, no memory is made twice, and the audit
chain stays whole. `make test` runs each database for a few seconds (MEMORY_REVIEW_CONCURRENCY_SECONDS,
default 3); `make bench` runs the same load for a full minute (tests/perf/bench_reliability.py).
Every memory is compared with its log at the end (`audit verify --deep`).
"""

from __future__ import annotations

import os
import random
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import Engine, func, select, text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from domain import memories, proposals
from domain.actors import SYSTEM
from domain.audit import verify_chain
from domain.audit_deep import compare_memories
from domain.content import normalize
from domain.enums import AuditAction, MemoryConfidence, MemorySource, MemoryStatus, MemoryType, ProposalStatus
from domain.errors import DomainError
from domain.models import AuditEvent, Memory, Proposal, User
from domain.schemas import MemoryEdit
from domain.visibility import with_inactive
from persistence.audit_seal import seal_engine
from persistence.settings import Settings
from persistence.uow import in_transaction, unit_of_work
from tests.factories import make_memory, make_user

THREADS = 20
BODY_PARTS = ("knee", "ankle", "hip", "calf", "shin", "back", "hamstring", "achilles")


def seconds() -> float:
    return float(os.environ.get("MEMORY_REVIEW_CONCURRENCY_SECONDS", "3"))


@dataclass
class Tally:
    """What the threads were told: every acknowledged change, and every error by kind."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    outcomes: Counter[str] = field(default_factory=Counter)
    acknowledged: dict[int, list[tuple[int, str]]] = field(default_factory=dict)  # memory → (version, content)
    unexpected: list[str] = field(default_factory=list)

    def add(self, outcome: str) -> None:
        with self.lock:
            self.outcomes[outcome] += 1

    def edited(self, memory_id: int, version: int, content: str) -> None:
        with self.lock:
            self.acknowledged.setdefault(memory_id, []).append((version, content))
            self.outcomes["edit"] += 1


def seed(engine: Engine, proposals_count: int = 200) -> User:
    """One athlete with a memory per body part and many pending proposals: some say the same again,
    some replace a memory (same type, same body part), some are new."""
    athlete = make_user(engine, "alex")
    for part in BODY_PARTS:
        make_memory(
            engine, athlete, f"Sore {part} after long runs", type=MemoryType.INJURY_HISTORY, tags=[f"body:{part}"]
        )
    rng = random.Random(14)
    with unit_of_work(engine) as session:
        for n in range(proposals_count):
            propose(session, athlete, rng, n)
    return athlete


def propose(session: Session, athlete: User, rng: random.Random, n: int) -> None:
    part = rng.choice(BODY_PARTS)
    kind = rng.choice(("again", "replaces", "new"))
    content = {
        "again": f"Sore {part} after long runs",
        "replaces": f"Sharp {part} pain on hills, week {n}",
        "new": f"Likes route number {n % 40}",
    }[kind]
    proposals.add_proposal(
        session,
        Proposal(
            athlete_id=athlete.id,
            type=MemoryType.INJURY_HISTORY if kind != "new" else MemoryType.PREFERENCE,
            content=content,
            normalized_content=normalize(content),
            source=MemorySource.USER_MESSAGE,
            confidence=MemoryConfidence.MEDIUM,
            tags=[f"body:{part}"] if kind != "new" else [],
            extractor="test",
        ),
        actor=SYSTEM,
    )


def _one_operation(engine: Engine, athlete: User, rng: random.Random, tally: Tally, retry: bool) -> None:
    op = rng.choices(("confirm", "edit", "delete"), weights=(4, 5, 1))[0]
    run = in_transaction if retry else _once

    def pick(kind: type[Memory] | type[Proposal], status: object) -> int | None:
        def query(session):  # type: ignore[no-untyped-def]
            ids = session.scalars(select(kind.id).where(kind.athlete_id == athlete.id, kind.status == status)).all()
            return rng.choice(ids) if ids else None

        return run(engine, query, read_only=True)

    try:
        if op == "confirm":
            proposal_id = pick(Proposal, ProposalStatus.PENDING)
            if proposal_id is None:  # the coaching system sends more
                run(engine, lambda s: propose(s, athlete, rng, rng.randrange(10_000)))
            else:
                run(engine, lambda s: proposals.confirm(s, athlete, proposal_id=proposal_id))
                tally.add("confirm")
        else:
            memory_id = pick(Memory, MemoryStatus.ACTIVE)
            if memory_id is None:
                return
            version = run(
                engine, lambda s: memories.get_memory(s, athlete, memory_id=memory_id).version, read_only=True
            )
            if op == "edit":
                content = f"Edited by {threading.current_thread().name} at {time.monotonic_ns()}"
                edited = run(
                    engine,
                    lambda s: (
                        memories.edit_memory(
                            s,
                            athlete,
                            memory_id=memory_id,
                            expected_version=version,
                            changes=MemoryEdit(content=content),
                        ).version
                    ),
                )
                tally.edited(memory_id, edited, content)
            else:
                run(engine, lambda s: memories.delete_memory(s, athlete, memory_id=memory_id, expected_version=version))
                tally.add("delete")
    except DomainError as error:  # a conflict, or the memory went meanwhile: shown to the athlete as such
        tally.add(f"refused: {type(error).__name__}")
    except DBAPIError as error:
        state = getattr(error.orig, "sqlstate", None)
        tally.add("deadlock" if state == "40P01" else f"database error {state}")
        with tally.lock:
            tally.unexpected.append(f"{op}: {type(error.orig).__name__}: {str(error.orig).splitlines()[0]}")
    except Exception as error:
        with tally.lock:
            tally.unexpected.append(f"{op}: {type(error).__name__}: {error}")


def _once(engine, work, *, read_only=False):  # type: ignore[no-untyped-def]
    with unit_of_work(engine, read_only=read_only) as session:
        return work(session)


def hammer(engine: Engine, athlete: User, duration: float, *, retry: bool) -> Tally:
    tally = Tally()
    stop = time.monotonic() + duration

    def worker(n: int) -> None:
        rng = random.Random(n)
        while time.monotonic() < stop:
            _one_operation(engine, athlete, rng, tally, retry)

    threads = [threading.Thread(target=worker, args=(n,), name=f"t{n}") for n in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return tally


def check_nothing_lost(engine: Engine, athlete: User, tally: Tally) -> None:
    with unit_of_work(engine, read_only=True) as session:
        chain = verify_chain(session)  # against the anchor too, when the engine is sealed
        assert chain.ok, chain.summary()
        deep = compare_memories(session, SYSTEM)
        assert deep.ok, deep.summary()
        for memory_id, acknowledged in tally.acknowledged.items():
            versions = [version for version, _ in acknowledged]
            assert len(versions) == len(set(versions)), f"two edits of memory {memory_id} both saved one version"
            memory = session.get(Memory, memory_id, execution_options=with_inactive())
            assert memory is not None
            newest_version, newest_content = max(acknowledged)
            if memory.version == newest_version:
                assert memory.content == newest_content, f"memory {memory_id} lost its last acknowledged edit"
            else:  # changed after the last edit (counted again, deleted, replaced), never before it
                assert memory.version > newest_version
        edits = session.scalar(select(func.count()).where(AuditEvent.action == AuditAction.EDIT))
        assert edits == tally.outcomes["edit"]
        duplicates = session.execute(
            select(Memory.content_key, func.count())
            .where(Memory.athlete_id == athlete.id, Memory.status == MemoryStatus.ACTIVE)
            .group_by(Memory.content_key)
            .having(func.count() > 1)
        ).all()
        assert duplicates == []


def sealed(engine: Engine, directory: Path) -> Engine:
    """Keyed and anchored as the app runs it: 20 threads move one anchor file too."""
    seal_engine(engine, Settings(database_url=f"sqlite:///{directory / 'seal.sqlite3'}", data_dir=directory))
    return engine


def test_twenty_threads_confirm_edit_and_delete_without_losing_anything(engine: Engine, tmp_path: Path) -> None:
    athlete = seed(sealed(engine, tmp_path))
    tally = hammer(engine, athlete, seconds(), retry=True)
    assert tally.unexpected == []
    assert tally.outcomes["confirm"] > 0 and tally.outcomes["edit"] > 0
    check_nothing_lost(engine, athlete, tally)


def test_confirm_and_edit_take_locks_in_one_order_on_postgresql(postgres: Engine) -> None:
    """No retry here: a deadlock between the write paths would be counted, not hidden."""
    athlete = seed(postgres)
    tally = hammer(postgres, athlete, seconds(), retry=False)
    assert tally.outcomes["deadlock"] == 0
    assert tally.unexpected == []
    check_nothing_lost(postgres, athlete, tally)


def test_a_deadlock_victim_runs_again_and_both_writers_succeed(postgres: Engine) -> None:
    """Two transactions lock two users in opposite orders: PostgreSQL cancels one; it runs again."""
    first, second = make_user(postgres, "first"), make_user(postgres, "second")
    both_locked_one = threading.Barrier(2, timeout=10)
    runs: Counter[str] = Counter()

    def lock_in_order(name: str, a: int, b: int) -> str:
        def work(session):  # type: ignore[no-untyped-def]
            runs[name] += 1
            lock = text("SELECT id FROM users WHERE id = :id FOR UPDATE")
            session.execute(lock, {"id": a})
            if runs[name] == 1:
                both_locked_one.wait()
            session.execute(lock, {"id": b})
            return name

        return in_transaction(postgres, work)

    results: list[str] = []
    threads = [
        threading.Thread(target=lambda: results.append(lock_in_order("one", first.id, second.id))),
        threading.Thread(target=lambda: results.append(lock_in_order("two", second.id, first.id))),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == ["one", "two"]
    assert sorted(runs.values()) == [1, 2]  # the deadlock's victim ran once more
