"""`audit verify` at 1,000,000 events (quick: 50,000) on SQLite and PostgreSQL: the whole chain
(`--full`, what the Audit tab ran on every open before), then from the last checkpoint after 1,000
new events; and the audit log's text search (p95, a word that matches and one that does not) beside
the LIKE '%…%' scan it replaced.

Data: the generated data set of bench_audit_log (tests/perf/dataset: bulk-loaded, not through the
services, with a valid chain); SQLite works on a copy of the cached file, PostgreSQL on a fresh
schema loaded for this run. The new events are written by domain.audit.record, as the services
write them. Times are wall-clock on 2 shared cores (the load average is printed beside them); the
CPU seconds of this process show how much of a full run is our own work.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, Text, cast, or_, select

from domain import audit
from domain.actors import SYSTEM
from domain.audit_checkpoints import last_check, record, verify
from domain.audit_log import AuditFilter, audit_page
from domain.enums import AuditAction, AuditTarget
from domain.models import AuditEvent, User
from persistence.engine import make_engine
from persistence.uow import unit_of_work
from tests.perf import dataset
from tests.perf.baselines import Timing
from tests.perf.bench_audit_log import NO_MATCH, audit_spec, size_label
from tests.perf.figures import record as figure

NEW_EVENTS = 1_000
ROUNDS = 5
SEARCH_RUNS = 30


def run(quick: bool = False) -> None:
    spec = audit_spec(quick)
    path, loaded = dataset.cached(spec)
    with tempfile.TemporaryDirectory(prefix="bench-audit-", dir=dataset.cache.CACHE.parent) as tmp:
        engine = make_engine(f"sqlite:///{dataset.copy_to(path, Path(tmp) / 'audit.sqlite3')}")
        try:
            _measure(engine, "sqlite", loaded)
        finally:
            engine.dispose()
    with dataset.postgres_database() as pg:
        if pg is not None:
            started = time.perf_counter()
            loaded = dataset.generate(pg, spec)
            print(f"(loaded PostgreSQL in {time.perf_counter() - started:.0f} s)")
            _measure(pg, "postgres", loaded)


def _measure(engine: Engine, slug: str, loaded: dataset.Loaded) -> None:
    size = size_label(loaded.audit_head)
    print(f"{slug}: {loaded.audit_head:,} events; load average {_load()}")
    wall, cpu, report = _full(engine)
    print(f"  full verify                 {wall:8.1f} s   (CPU {cpu:.1f} s; {report.summary()})  load {_load()}")
    figure(f"audit_verify_full_s_{slug}_{size}", round(wall, 2))
    figure(f"audit_verify_full_cpu_s_{slug}_{size}", round(cpu, 2))
    timings, tab = [], []
    for _ in range(ROUNDS):
        _add_events(engine, NEW_EVENTS)
        started = time.perf_counter()
        report = _incremental(engine)
        timings.append((time.perf_counter() - started) * 1000)
        assert report.ok and report.events_checked == NEW_EVENTS, report.summary()
        tab.append(_ms(lambda: _stored(engine)))
    median, worst = statistics.median(timings), max(timings)
    print(
        f"  incremental, {NEW_EVENTS:,} new events  {median:8.1f} ms median, {worst:.1f} ms worst of {ROUNDS}"
        f"  (check + stored result)  load {_load()}"
    )
    print(f"  the tab's stored result      {statistics.median(tab):8.2f} ms (read on open)")
    figure(f"audit_verify_incremental_1k_ms_{slug}_{size}", round(median, 1))
    figure(f"audit_verify_speedup_x_{slug}_{size}", round(wall * 1000 / median, 0))
    _search(engine, slug, size)


def _full(engine: Engine) -> tuple[float, float, audit.ChainReport]:
    started, cpu = time.perf_counter(), time.process_time()
    with unit_of_work(engine, read_only=True) as session:
        report = verify(session, SYSTEM, full=True)
    with unit_of_work(engine) as session:
        record(session, SYSTEM, report)
    assert report.ok, report.summary()
    return time.perf_counter() - started, time.process_time() - cpu, report


def _incremental(engine: Engine) -> audit.ChainReport:
    """As the Audit tab and `audit verify` run it: a read-only check, then its result stored."""
    with unit_of_work(engine, read_only=True) as session:
        report = verify(session, SYSTEM)
    with unit_of_work(engine) as session:
        record(session, SYSTEM, report)
    return report


def _stored(engine: Engine) -> None:
    with unit_of_work(engine, read_only=True) as session:
        last_check(session, SYSTEM)


def _add_events(engine: Engine, count: int, per_transaction: int = 100) -> None:
    for first in range(0, count, per_transaction):
        with unit_of_work(engine) as session:
            for n in range(first, first + per_transaction):
                audit.record(
                    session,
                    actor=SYSTEM,
                    action=AuditAction.INGEST,
                    target_type=AuditTarget.SOURCE_TEXT,
                    target_id=n,
                    athlete_id=None,
                    after={"reference": f"bench-{n}", "text": "Easy run with a sore knee"},
                )


def _search(engine: Engine, slug: str, size: str) -> None:
    with unit_of_work(engine, read_only=True) as session:
        admin = session.scalars(select(User).where(User.role == "admin")).first()
    assert admin is not None
    cases = [
        ("common", dataset.COMMON_WORDS[0]),
        ("two_words", " ".join(dataset.COMMON_WORDS)),
        ("rare", dataset.RARE_WORDS[-1]),
        ("no_match", NO_MATCH),
    ]
    for key, words in cases:
        timing = _timed(engine, lambda s, w=words: len(audit_page(s, admin, filters=AuditFilter(text=w)).rows))
        print(
            f"  text search '{words}'{'':<{18 - len(words)}} p95 {timing.p95_ms:8.2f} ms, p50 {timing.p50_ms:.2f} ms"
            f"  ({timing.rows} rows)  load {_load()}"
        )
        figure(f"audit_search_{key}_p95_ms_{slug}_{size}", round(timing.p95_ms, 2))
    like = _timed(engine, lambda s: len(s.execute(_like_page(NO_MATCH)).all()), runs=3)
    print(f"  for contrast: LIKE scan, no match  {like.p50_ms:8.1f} ms (the search before this change)")
    figure(f"audit_search_like_no_match_ms_{slug}_{size}", round(like.p50_ms, 1))


def _like_page(words: str) -> Any:
    columns = (
        AuditEvent.actor_label,
        AuditEvent.action,
        AuditEvent.reason,
        cast(AuditEvent.before, Text),
        cast(AuditEvent.after, Text),
    )
    match = or_(*(column.icontains(words, autoescape=True) for column in columns))
    return select(AuditEvent.seq).where(match).order_by(AuditEvent.seq.desc()).limit(26)


def _timed(engine: Engine, call: Callable[[Any], int], runs: int = SEARCH_RUNS) -> Timing:
    """Each run in its own transaction, rolled back (the page records the admin's view)."""
    timings: list[float] = []
    rows = 0
    for _ in range(runs):
        with unit_of_work(engine, read_only=True) as session:
            started = time.perf_counter()
            rows = call(session)
            timings.append((time.perf_counter() - started) * 1000)
            session.rollback()
    return Timing(timings, rows)


def _ms(call: Callable[[], None]) -> float:
    started = time.perf_counter()
    call()
    return (time.perf_counter() - started) * 1000


def _load() -> str:
    return f"{os.getloadavg()[0]:.2f}"
