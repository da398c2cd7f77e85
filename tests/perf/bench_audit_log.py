"""Audit log pages at 1,000,000 events (quick: 50,000): first page, filtered pages, text search,
deep pages by keyset, and OFFSET to the same depth for contrast. SQLite.

Data: the shared generated data set (tests/perf/dataset: bulk-loaded, not through the services,
with a valid hash chain), `audit_spec`, which bench_audit_verify uses too. Each figure is the
median of several runs of the service the admin console calls (domain.audit_log.audit_page); the
access events those calls record are rolled back, so the cached file stays as built.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from sqlalchemy import Engine, select

from domain.audit_log import AuditFilter, audit_page
from domain.enums import AuditAction
from domain.models import AuditEvent, User
from domain.types import utcnow
from persistence.engine import make_engine
from persistence.uow import unit_of_work
from tests.perf import dataset
from tests.perf.baselines import Timing
from tests.perf.figures import record

EVENTS, QUICK_EVENTS = 1_000_000, 50_000  # quick: make bench --quick stays under three minutes
RUNS = 7
NO_MATCH = "zyzzyva"


def audit_spec(quick: bool) -> dataset.Spec:
    """About EVENTS audit events (3 or so per memory) over 200 athletes."""
    events = QUICK_EVENTS if quick else EVENTS
    return dataset.Spec(athletes=200, memories=events // 3, audit_events=events, prefix="audit")


def size_label(events: int) -> str:
    return f"{events // 1_000_000}m" if events >= 1_000_000 else f"{events // 1_000}k"


def run(quick: bool = False) -> None:
    path, loaded = dataset.cached(audit_spec(quick))
    engine = make_engine(f"sqlite:///{path}")
    try:
        _pages(engine, loaded)
    finally:
        engine.dispose()


def _pages(engine: Engine, loaded: dataset.Loaded) -> None:
    total = loaded.audit_head
    with unit_of_work(engine, read_only=True) as session:
        admin = session.get(User, loaded.admin_id)
    assert admin is not None
    athlete_id = loaded.athlete_ids[42]
    common, rare = dataset.COMMON_WORDS[0], dataset.RARE_WORDS[-1]
    day = (utcnow() - timedelta(days=200)).date()
    print(f"{total:,} audit events (SQLite, generated data set); load average {os.getloadavg()[0]:.2f}")
    cases: list[tuple[str, str, dict[str, Any]]] = [
        ("first_page", "first page (newest 25)", {}),
        ("athlete", "filtered: one athlete", {"filters": AuditFilter(athlete_id=athlete_id)}),
        ("action", "filtered: action = delete", {"filters": AuditFilter(action=AuditAction.DELETE)}),
        ("actor", "filtered: actor = admin", {"filters": AuditFilter(actor_id=loaded.admin_id)}),
        ("day", "filtered: one day, 200 days ago", {"filters": AuditFilter(since=day, until=day)}),
        ("text_common", f"text '{common}' (common)", {"filters": AuditFilter(text=common)}),
        ("text_rare", f"text '{rare}' (rare)", {"filters": AuditFilter(text=rare)}),
        ("text_none", "text matching nothing", {"filters": AuditFilter(text=NO_MATCH)}),
        ("text_athlete", f"text '{common}', one athlete", {"filters": AuditFilter(text=common, athlete_id=athlete_id)}),
        ("athlete_action", "athlete + action", {"filters": AuditFilter(athlete_id=athlete_id, action="edit")}),
        ("deep", f"deep page (keyset, {int(total * 0.99):,} back)", {"older_than": total - int(total * 0.99)}),
        ("deep_athlete", "deep page, one athlete (keyset)", {"filters": AuditFilter(athlete_id=athlete_id),
                                                              "older_than": total // 20}),
    ]  # fmt: skip
    size = size_label(total)
    for key, label, kwargs in cases:
        timing = _timed(engine, lambda s, kw=kwargs: len(audit_page(s, admin, **kw).rows))
        print(f"  {label:<40} {timing.p50_ms:8.2f} ms  ({timing.rows} rows)  load {os.getloadavg()[0]:.2f}")
        record(f"audit_page_{key}_ms_sqlite_{size}", round(timing.p50_ms, 2))
    depth = int(total * 0.99)  # the keyset case's depth
    offset = _timed(engine, lambda s: len(s.execute(_offset_query(depth)).all()))
    print(f"  {'for contrast: same depth by OFFSET':<40} {offset.p50_ms:8.2f} ms  (OFFSET {depth:,})")
    record(f"audit_page_deep_offset_ms_sqlite_{size}", round(offset.p50_ms, 2))


def _timed(engine: Engine, call: Callable[[Any], int], runs: int = RUNS) -> Timing:
    timings: list[float] = []
    rows = 0
    for _ in range(runs):
        with unit_of_work(engine, read_only=True) as session:
            started = time.perf_counter()
            rows = call(session)
            timings.append((time.perf_counter() - started) * 1000)
            session.rollback()
    return Timing(timings, rows)


def _offset_query(depth: int) -> Any:
    return select(AuditEvent).order_by(AuditEvent.seq.desc()).limit(25).offset(depth)
