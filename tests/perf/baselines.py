"""What each figure is compared with, measured in the same run on the same disk and data:

- writes: the raw single-row INSERT + COMMIT rate (SQLite with the app's PRAGMAs, PostgreSQL),
  the ceiling any audited write can approach;
- search: a `LIKE '%word%'` scan (ILIKE on PostgreSQL), what a search without an index costs;
- lists: OFFSET paging to the same depth, what a list without keyset paging costs.

Call these beside the figure they put in perspective and print both; `Timing.p95_ms` etc.
"""

from __future__ import annotations

import statistics
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, text

from persistence.engine import make_engine

PAGE = 50


@dataclass(frozen=True)
class Timing:
    runs: list[float]  # milliseconds, in the order run
    rows: int  # rows the last run returned

    @property
    def p50_ms(self) -> float:
        return statistics.median(self.runs)

    @property
    def p95_ms(self) -> float:
        return percentile(self.runs, 95)


def percentile(values: list[float], pct: float) -> float:
    """Nearest-rank percentile (no interpolation: with 20 runs, p95 is the 19th fastest)."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * pct // 100))
    return ordered[int(rank) - 1]


def timed(engine: Engine, sql: str, params: list[dict[str, Any]], *, runs: int) -> Timing:
    """Run `sql` `runs` times (cycling through `params`), each in its own read, timed in ms."""
    timings = []
    rows = 0
    with engine.connect() as connection:
        for n in range(runs):
            started = time.perf_counter()
            rows = len(connection.execute(text(sql), params[n % len(params)]).all())
            timings.append((time.perf_counter() - started) * 1000)
            connection.rollback()
    return Timing(timings, rows)


# -- writes -------------------------------------------------------------------------------------


def sqlite_commit_rate(folder: Path, count: int = 1000) -> float:
    """Single-row INSERT + COMMIT per second in a SQLite file in `folder` (the app's engine and
    PRAGMAs: WAL, synchronous=FULL; BEGIN IMMEDIATE as its writers do), on the raw connection."""
    engine = make_engine(f"sqlite:///{folder / f'raw-commit-{uuid.uuid4().hex[:8]}.sqlite3'}")
    try:
        with engine.connect() as connection:
            raw = connection.connection.dbapi_connection
            assert raw is not None
            raw.execute("CREATE TABLE raw_commit (id INTEGER PRIMARY KEY, body TEXT NOT NULL)")
            return _rate(count, lambda n: _sqlite_insert(raw, n))
    finally:
        engine.dispose()


def _sqlite_insert(raw: Any, n: int) -> None:
    raw.execute("BEGIN IMMEDIATE")
    raw.execute("INSERT INTO raw_commit (body) VALUES (?)", (f"row {n}: left knee sore after the long run",))
    raw.execute("COMMIT")


def postgres_commit_rate(engine: Engine, count: int = 1000) -> float:
    """Single-row INSERT + COMMIT per second into a logged table of `engine`'s schema (dropped after)."""
    table = f"raw_commit_{uuid.uuid4().hex[:8]}"
    with engine.connect() as connection:
        connection.execute(text(f"CREATE TABLE {table} (id serial PRIMARY KEY, body text NOT NULL)"))
        connection.commit()
        raw = connection.connection.dbapi_connection
        assert raw is not None
        try:

            def insert(n: int) -> None:
                cursor = raw.cursor()
                cursor.execute(
                    f"INSERT INTO {table} (body) VALUES (%s)", (f"row {n}: left knee sore after the long run",)
                )
                cursor.close()
                raw.commit()

            return _rate(count, insert)
        finally:
            connection.execute(text(f"DROP TABLE {table}"))
            connection.commit()


def _rate(count: int, action: Callable[[int], None]) -> float:
    started = time.perf_counter()
    for n in range(count):
        action(n)
    return count / (time.perf_counter() - started)


# -- search -------------------------------------------------------------------------------------


def like_search(engine: Engine, word: str, *, athlete_id: int | None, runs: int = 20) -> Timing:
    """The newest PAGE active memories whose content or tags contain `word`, by a LIKE scan;
    one athlete's, or everyone's when `athlete_id` is None (the admin's view)."""
    like = "ILIKE" if engine.dialect.name == "postgresql" else "LIKE"
    scope = "athlete_id = :athlete AND " if athlete_id is not None else ""
    sql = (
        f"SELECT id, content FROM memories WHERE {scope}status = 'active' "
        f"AND (content {like} :pattern OR CAST(tags AS TEXT) {like} :pattern) "
        f"ORDER BY updated_at DESC LIMIT {PAGE}"
    )
    return timed(engine, sql, [{"athlete": athlete_id, "pattern": f"%{word}%"}], runs=runs)


# -- lists --------------------------------------------------------------------------------------


def offset_page(engine: Engine, athlete_id: int, depth: int, *, runs: int = 20) -> Timing:
    """One page of an athlete's active memories, newest first, `depth` rows down by OFFSET."""
    sql = (
        "SELECT id, type, content, tags, confidence, updated_at FROM memories "
        "WHERE athlete_id = :athlete AND status = 'active' ORDER BY updated_at DESC, id DESC "
        f"LIMIT {PAGE} OFFSET :depth"
    )
    return timed(engine, sql, [{"athlete": athlete_id, "depth": depth}], runs=runs)


def keyset_page(engine: Engine, athlete_id: int, depth: int, *, runs: int = 20) -> Timing:
    """The same page reached by keyset (the row before it known), for the contrast's other side."""
    with engine.connect() as connection:
        before = connection.execute(
            text(
                "SELECT updated_at, id FROM memories WHERE athlete_id = :athlete AND status = 'active' "
                "ORDER BY updated_at DESC, id DESC LIMIT 1 OFFSET :skip"
            ),
            {"athlete": athlete_id, "skip": max(depth - 1, 0)},
        ).first()
    if before is None:
        return Timing([0.0], 0)
    sql = (
        "SELECT id, type, content, tags, confidence, updated_at FROM memories "
        "WHERE athlete_id = :athlete AND status = 'active' AND (updated_at, id) < (:at, :id) "
        f"ORDER BY updated_at DESC, id DESC LIMIT {PAGE}"
    )
    return timed(engine, sql, [{"athlete": athlete_id, "at": before[0], "id": before[1]}], runs=runs)
