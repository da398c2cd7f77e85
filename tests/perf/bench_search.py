"""Per-athlete search on SQLite: the owner-marked index against the whole-database index and a
LIKE scan, all in one run over the same bulk-loaded data (rows inserted directly, not through
the services, so that 200,000 memories load in seconds; the search triggers fill the index)."""

from __future__ import annotations

import os
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from sqlalchemy import Engine, func, insert, select

from domain.enums import MemoryConfidence, MemorySource, MemoryStatus, MemoryType
from domain.memories import MemoryQuery, list_memories
from domain.models import Memory, User
from domain.search import text_match
from domain.types import utcnow
from persistence.engine import make_engine
from persistence.migrate import upgrade
from persistence.uow import unit_of_work
from tests.factories import make_user

ATHLETES = 200
PER_ATHLETE = 1_000
QUERIES = 60
PHRASES = [
    "Left knee pain after long runs",
    "Knee aches on descents",
    "Prefers morning runs before work",
    "Sore calves after intervals",
    "Works night shifts at the hospital",
    "Likes easy runs with the club",
]


def _load(engine: Engine, per_athlete: int) -> list[User]:
    now = utcnow()
    rng = random.Random(7)
    athletes = [make_user(engine, f"search{i}") for i in range(ATHLETES)]
    with engine.begin() as connection:
        for athlete in athletes:
            rows = [
                {
                    "athlete_id": athlete.id,
                    "type": rng.choice(list(MemoryType)),
                    "content": f"{rng.choice(PHRASES)} ({n})" + (" after the marathon" if n % 97 == 0 else ""),
                    "source": MemorySource.MANUAL,
                    "confidence": MemoryConfidence.MEDIUM,
                    "occurrences": 1,
                    "tags": [],
                    "status": MemoryStatus.ACTIVE,
                    "created_at": now,
                    "updated_at": now,
                    "version": 1,
                }
                for n in range(per_athlete)
            ]
            connection.execute(insert(Memory), rows)
    return athletes


def _p95_ms(samples: list[float]) -> float:
    return statistics.quantiles(samples, n=20)[-1] * 1000


def _timed(engine: Engine, athletes: list[User], search: Callable[[object, User], int]) -> float:
    rng = random.Random(11)
    samples = []
    for _ in range(QUERIES):
        athlete = rng.choice(athletes)
        with unit_of_work(engine, read_only=True) as session:
            started = time.perf_counter()
            search(session, athlete)
            samples.append(time.perf_counter() - started)
    return _p95_ms(samples)


def run(quick: bool = False) -> None:
    per_athlete = 100 if quick else PER_ATHLETE
    with tempfile.TemporaryDirectory() as folder:
        engine = make_engine(f"sqlite:///{Path(folder) / 'search.sqlite3'}")
        upgrade(engine)
        athletes = _load(engine, per_athlete)
        print(f"{ATHLETES * per_athlete:,} memories over {ATHLETES} athletes; load average {os.getloadavg()[0]:.2f}")
        for word in ("knee", "marathon"):

            def scoped(session: object, athlete: User, word: str = word) -> int:
                return list_memories(session, athlete, query=MemoryQuery(text=word, limit=10)).total  # type: ignore[arg-type]

            def whole_index(session: object, athlete: User, word: str = word) -> int:
                stmt = select(func.count()).where(Memory.athlete_id == athlete.id, text_match(session, word))  # type: ignore[arg-type]
                return int(session.scalar(stmt) or 0)  # type: ignore[attr-defined]

            def like_scan(session: object, athlete: User, word: str = word) -> int:
                stmt = select(func.count()).where(Memory.athlete_id == athlete.id, Memory.content.ilike(f"%{word}%"))
                return int(session.scalar(stmt) or 0)  # type: ignore[attr-defined]

            figures = {
                name: _timed(engine, athletes, f)
                for name, f in (
                    ("owner-marked index", scoped),
                    ("whole-database index", whole_index),
                    ("LIKE scan", like_scan),
                )
            }
            print(f"search '{word}' p95: " + ", ".join(f"{name} {ms:.1f} ms" for name, ms in figures.items()))
        engine.dispose()


if __name__ == "__main__":
    run()
