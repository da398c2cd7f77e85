"""Search and the memory list at scale, on SQLite and PostgreSQL, each beside its naive contrast.

- Per-athlete search over 1,000,000 memories (quick: 50,000): the count and first page of an
  athlete's matches (the service `list_memories`, its count exact), and the Context page's search (its
  read, `memory_view`: every type's count and the first CONTEXT_PAGE memories; on PostgreSQL counted
  up to memory_lists.COUNT_CAP matches, "1,000+" beyond), for common and rare words
  (`list_memories_by_type`, a first page per type, measured here until it left the page); beside it a
  `LIKE '%word%'` scan (ILIKE on PostgreSQL) of the same athlete's content and tags, giving the
  same count and page. Also for the athlete with 20,000 memories (both reads, and the Context page's
  "Show more" after its first page: `list_more`, as the page asks for it).
- The admin's search of deleted memories across all athletes (`list_deleted`), beside a LIKE scan
  of the deleted rows.
- The memory list's server time for athletes with 2,000 and 20,000 memories: the first page of
  every type with counts (newest first, by confidence, filtered), and "Show more" deep in the
  longest type by keyset (`list_more`) beside what it did before: OFFSET paging with a count.

Data: tests/perf/dataset, bulk-loaded (executemany / COPY), not through the services. SQLite uses
the shared cached file (dataset.MILLION; quick: SEARCH_QUICK); PostgreSQL gets the same memories
generated into a fresh schema in this run (no proposals, reads or audit chain: search does not
read them), then VACUUM ANALYZE. Times are wall-clock per call, session included, p95 over RUNS
calls after a warm-up; the load average is printed beside each block (2 shared cores: noisy). On a
PostgreSQL server on this machine, the Context page's search and the admin's also get `*_cpu`: the
p95 of the CPU a call takes, the server's process and the bench's thread together (schedstat), which
the machine's other load moves far less.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, Text, cast, func, or_, select
from sqlalchemy.orm import Session

from domain.admin_deleted import DeletedQuery, list_deleted
from domain.enums import MemoryConfidence, MemorySource, MemoryStatus, MemoryType
from domain.memories import MemoryQuery
from domain.memory_lists import MemoryCursor, list_memories, list_memories_by_type, list_more, memory_view
from domain.models import Memory, User
from domain.visibility import with_inactive
from persistence.engine import make_engine
from persistence.uow import unit_of_work
from tests.perf import dataset
from tests.perf.figures import record

SEARCH_QUICK = dataset.Spec(athletes=100, memories=50_000, heavy=(2_000, 20_000), audit_events=10_000)
RUNS, QUICK_RUNS = 60, 12
WARM_UP = 3
SAMPLED_ATHLETES = 30
PAGE = 10
CONTEXT_PAGE = 20  # the Context page's first page (ui/components/memory_list.py's PAGE_SIZE)
MORE_PAGE = 40  # and each "Show more" (its MORE_SIZE)
WORDS = {"common": dataset.COMMON_WORDS, "rare": dataset.RARE_WORDS}
ALL_TYPES = dict.fromkeys(MemoryType, PAGE)


def run(quick: bool = False) -> None:
    spec = SEARCH_QUICK if quick else dataset.MILLION
    size = "50k" if quick else "1m"
    runs = QUICK_RUNS if quick else RUNS
    path, loaded = dataset.cached(spec)
    engine = make_engine(f"sqlite:///{path}")
    try:
        _measure(engine, loaded, "sqlite", size, runs)
    finally:
        engine.dispose()
    with dataset.postgres_database() as postgres:
        if postgres is None:
            return
        started = time.perf_counter()
        memories_only = replace(
            spec, audit_events=0, rejected_per_memory=0, reads_per_memory=0, pending=0, heavy_pending=0
        )
        pg_loaded = dataset.generate(postgres, memories_only)
        with postgres.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            connection.exec_driver_sql("VACUUM ANALYZE memories")
        print(f"PostgreSQL: {pg_loaded.rows['memories']:,} memories loaded in {time.perf_counter() - started:.0f} s")
        _measure(postgres, pg_loaded, "pg", size, runs)


def _measure(engine: Engine, loaded: dataset.Loaded, db: str, size: str, runs: int) -> None:
    athletes = [a for a in loaded.athlete_ids if a not in loaded.heavy]
    sample = random.Random(11).sample(athletes, min(SAMPLED_ATHLETES, len(athletes)))
    with unit_of_work(engine, read_only=True) as session:
        users = {u.id: u for u in session.scalars(select(User).where(User.id.in_([*sample, *loaded.heavy])))}
        admin = session.get(User, loaded.admin_id)
    assert admin is not None
    print(f"\n{db}: {loaded.rows.get('memories', 0):,} memories; load {_load()}")
    timer = _Timer(engine, runs)
    heavy = users[loaded.heavy[-1]]
    for kind, words in WORDS.items():
        figures: dict[str, list[float]] = {}
        for word in words:
            lines = _searches(timer, word, [users[a] for a in sample], heavy, admin)
            for name, ms in lines.items():
                figures.setdefault(name, []).append(ms)
            print(f"  '{word}' ({kind}) p95: " + ", ".join(f"{n} {ms:.1f} ms" for n, ms in lines.items()))
        for name, values in figures.items():
            scale = "" if "20k" in name else f"_{size}"
            record(f"{name}_p95_ms{scale}_{db}_{kind}", max(values))
        print(f"  load {_load()}")
    for memories, athlete_id in zip(("2k", "20k"), loaded.heavy, strict=False):
        _lists(timer, users[athlete_id], f"{memories}_{db}")


def _searches(timer: _Timer, word: str, sample: list[User], heavy: User, admin: User) -> dict[str, float]:
    athlete_of = _cycle(sample)
    query = MemoryQuery(text=word, limit=PAGE)
    page_query = MemoryQuery(text=word, limit=CONTEXT_PAGE)
    more_query = MemoryQuery(text=word, limit=MORE_PAGE)
    with unit_of_work(timer.engine, read_only=True) as session:
        first = memory_view(session, heavy, query=page_query)
        after = MemoryCursor.after(first.items[-1]) if first.items else None
    return {
        "search": timer.p95(lambda s: list_memories(s, next(athlete_of), query=query)),
        "search_like": timer.p95(lambda s: _like_search(s, next(athlete_of), word)),
        "search_context_page": timer.p95(lambda s: memory_view(s, next(athlete_of), query=page_query)),
        "search_20k_athlete": timer.p95(lambda s: list_memories(s, heavy, query=query)),
        "search_20k_athlete_context_page": timer.p95(lambda s: memory_view(s, heavy, query=page_query)),
        "search_20k_athlete_like": timer.p95(lambda s: _like_search(s, heavy, word)),
        **(
            {
                "search_20k_athlete_context_more": timer.p95(
                    lambda s: list_more(s, heavy, query=more_query, after=after, many=first.capped)
                )
            }
            if after is not None
            else {}
        ),
        "admin_search": timer.p95(lambda s: list_deleted(s, admin, query=DeletedQuery(text=word))),
        "admin_search_like": timer.p95(lambda s: _like_deleted(s, word)),
        **timer.cpu_p95(
            {
                "search_context_page_cpu": lambda s: memory_view(s, next(athlete_of), query=page_query),
                "search_20k_athlete_context_page_cpu": lambda s: memory_view(s, heavy, query=page_query),
                "admin_search_cpu": lambda s: list_deleted(s, admin, query=DeletedQuery(text=word)),
            }
        ),
    }


def _lists(timer: _Timer, athlete: User, label: str) -> None:
    filtered = MemoryQuery(
        sources=frozenset({MemorySource.USER_MESSAGE, MemorySource.ACTIVITY_NOTE}),
        confidences=frozenset({MemoryConfidence.HIGH}),
    )
    pages = {
        "newest": timer.p95(lambda s: list_memories_by_type(s, athlete, query=MemoryQuery(), limits=ALL_TYPES)),
        "confidence": timer.p95(
            lambda s: list_memories_by_type(s, athlete, query=MemoryQuery(sort="confidence"), limits=ALL_TYPES)
        ),
        "filtered": timer.p95(lambda s: list_memories_by_type(s, athlete, query=filtered, limits=ALL_TYPES)),
    }
    with unit_of_work(timer.engine, read_only=True) as session:
        counted = select(Memory.type, func.count()).where(Memory.athlete_id == athlete.id).group_by(Memory.type)
        counts = {row[0]: row[1] for row in session.execute(counted)}
        longest = max(counts, key=lambda t: counts[t])
        depth = counts[longest] - 2 * PAGE
        one_type = MemoryQuery(types=frozenset({longest}), limit=2 * PAGE)
        last = list_memories(session, athlete, query=replace(one_type, limit=1, offset=depth - 1)).items[0]
    cursor = MemoryCursor.after(last)
    more = timer.p95(lambda s: list_more(s, athlete, query=one_type, after=cursor))
    offset = timer.p95(lambda s: list_memories(s, athlete, query=replace(one_type, offset=depth)))
    print(
        f"  list of {label}: first pages p95 "
        + ", ".join(f"{n} {ms:.1f} ms" for n, ms in pages.items())
        + f"; Show more at row {depth:,} of {longest.value}: keyset {more:.1f} ms, OFFSET + count {offset:.1f} ms"
        + f"; load {_load()}"
    )
    record(f"memory_list_p95_ms_{label}", max(pages.values()))
    record(f"memory_list_more_p95_ms_{label}", more)
    record(f"memory_list_offset_p95_ms_{label}", offset)


class _Timer:
    def __init__(self, engine: Engine, runs: int) -> None:
        self.engine = engine
        self.runs = runs

    def p95(self, call: Callable[[Session], Any]) -> float:
        """Nearest-rank p95 of `call` in its own read-only unit of work (rolled back: the admin's
        access events are never kept), after a warm-up."""
        samples = []
        for n in range(WARM_UP + self.runs):
            started = time.perf_counter()
            with unit_of_work(self.engine, read_only=True) as session:
                call(session)
            if n >= WARM_UP:
                samples.append((time.perf_counter() - started) * 1000)
        return _nearest_rank_p95(samples)

    def cpu_p95(self, calls: dict[str, Callable[[Session], Any]]) -> dict[str, float]:
        """PostgreSQL on this machine: nearest-rank p95 of the CPU each call takes, the server's (its
        connection's process, /proc/<pid>/schedstat) and this thread's together, which the load of the
        machine's other work moves far less than wall-clock time. Elsewhere: nothing."""
        if self.engine.dialect.name != "postgresql":
            return {}
        found = {}
        for name, call in calls.items():
            samples = []
            for n in range(WARM_UP + self.runs):
                with unit_of_work(self.engine, read_only=True) as session:
                    pid = session.connection().exec_driver_sql("SELECT pg_backend_pid()").scalar_one()
                    server = Path(f"/proc/{pid}/schedstat")
                    if not server.exists():
                        return {}  # the server runs elsewhere
                    before, mine = int(server.read_text().split()[0]), time.thread_time_ns()
                    call(session)
                    spent = int(server.read_text().split()[0]) - before + time.thread_time_ns() - mine
                if n >= WARM_UP:
                    samples.append(spent / 1e6)
            found[name] = _nearest_rank_p95(samples)
        return found


def _nearest_rank_p95(samples: list[float]) -> float:
    samples = sorted(samples)
    return samples[max(0, -(-len(samples) * 95 // 100) - 1)]


def _like_search(session: Session, athlete: User, word: str) -> tuple[int, list[Memory]]:
    """The naive search: the athlete's active memories whose content or tags contain the word."""
    return _count_and_page(session, [Memory.athlete_id == athlete.id, _contains(session, word)])


def _like_deleted(session: Session, word: str) -> tuple[int, list[Memory]]:
    return _count_and_page(session, [Memory.status == MemoryStatus.DELETED, _contains(session, word)], deleted=True)


def _contains(session: Session, word: str) -> Any:
    pattern = f"%{word}%"
    tags = cast(Memory.tags, Text)
    if session.get_bind().dialect.name == "postgresql":
        return or_(Memory.content.ilike(pattern), tags.ilike(pattern))
    return or_(Memory.content.like(pattern), tags.like(pattern))


def _count_and_page(session: Session, where: list[Any], *, deleted: bool = False) -> tuple[int, list[Memory]]:
    options = with_inactive() if deleted else {}
    stmt = select(Memory).where(*where).execution_options(**options)
    total = session.scalar(select(func.count()).select_from(stmt.subquery()).execution_options(**options)) or 0
    newest = Memory.deleted_at if deleted else Memory.updated_at
    return total, list(session.scalars(stmt.order_by(newest.desc(), Memory.id.desc()).limit(PAGE)))


def _cycle(users: list[User]) -> Any:
    while True:
        yield from users


def _load() -> str:
    return f"{os.getloadavg()[0]:.2f}"


if __name__ == "__main__":
    run()
