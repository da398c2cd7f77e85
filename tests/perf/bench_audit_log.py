"""Audit log pages with 1,000,000 events: first page, filtered pages, a deep page (keyset).

The events are bench data, bulk-inserted with SQLAlchemy Core and a correct hash chain into
a SQLite file under /tmp that later runs reuse. Each figure is the median of several runs of
the same service the admin console calls (domain.audit_log.audit_page); the access events
those calls record are rolled back, so the file stays as built.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from sqlalchemy import Engine, func, insert, select, text, update

from domain.audit import digest, event_hash
from domain.audit_log import AuditFilter, audit_page
from domain.enums import Role
from domain.models import GENESIS_HASH, AuditEvent, AuditHead, User
from domain.types import utcnow
from persistence.engine import make_engine
from persistence.migrate import upgrade
from persistence.uow import unit_of_work

EVENTS = int(os.environ.get("BENCH_AUDIT_EVENTS", "1000000"))
DATA_VERSION = 2  # bump when _event() changes, so an old file is not reused
DATABASE = Path(os.environ.get("BENCH_AUDIT_DB", f"/tmp/memory-review-bench-audit-v{DATA_VERSION}-{EVENTS}.sqlite3"))
ATHLETES = 200
BATCH = 20_000
RUNS = 7
ACTIONS = ("create", "edit", "edit", "propose", "proposal_confirm", "delete", "restore", "edit", "create", "revert")


def run() -> None:
    engine = _database()
    with unit_of_work(engine, read_only=True) as session:
        admin = session.scalar(select(User).where(User.role == Role.ADMIN))
        athlete_id = session.scalar(select(User.id).where(User.username == "athlete-042"))
        total = session.scalar(select(AuditHead.seq))
    assert admin is not None and athlete_id is not None
    print(f"{total:,} audit events in {DATABASE}")
    day = (utcnow() - timedelta(days=200)).date()
    cases: list[tuple[str, dict[str, Any]]] = [
        ("first page (newest 25)", {}),
        ("filtered: one athlete", {"filters": AuditFilter(athlete_id=athlete_id)}),
        ("filtered: action = delete", {"filters": AuditFilter(action="delete")}),
        ("filtered: actor = admin", {"filters": AuditFilter(actor_id=admin.id)}),
        ("filtered: one day, 200 days ago", {"filters": AuditFilter(since=day, until=day)}),
        ("filtered: text 'tempo' (1 in 50)", {"filters": AuditFilter(text="tempo")}),
        ("filtered: text matching nothing", {"filters": AuditFilter(text="no such words")}),
        ("filtered: athlete + action", {"filters": AuditFilter(athlete_id=athlete_id, action="restore")}),
        ("deep page (keyset, 990,000 back)", {"older_than": total - 990_000 if total > 990_000 else 26}),
        ("deep page, one athlete (keyset)", {"filters": AuditFilter(athlete_id=athlete_id), "older_than": 50_000}),
    ]
    for label, kwargs in cases:
        rows, ms = _timed(engine, lambda s, kw=kwargs: len(audit_page(s, admin, **kw).rows))
        print(f"  {label:<36} {ms:8.2f} ms  ({rows} rows)")
    depth = max(0, total - 26 - 10_000) if total > 20_000 else 0
    _, ms = _timed(engine, lambda s: len(s.execute(_offset_query(depth)).all()))
    print(f"  {'for contrast: same depth by OFFSET':<36} {ms:8.2f} ms  (OFFSET {depth:,})")


def _timed(engine: Engine, call: Callable[[Any], int]) -> tuple[int, float]:
    timings: list[float] = []
    rows = 0
    for _ in range(RUNS):
        with unit_of_work(engine, read_only=True) as session:
            started = time.perf_counter()
            rows = call(session)
            timings.append((time.perf_counter() - started) * 1000)
            session.rollback()
    return rows, statistics.median(timings)


def _offset_query(depth: int) -> Any:
    return select(AuditEvent).order_by(AuditEvent.seq.desc()).limit(25).offset(depth)


def _database() -> Engine:
    engine = make_engine(f"sqlite:///{DATABASE}")
    if DATABASE.exists():
        with engine.connect() as connection:
            ready = connection.execute(text("SELECT seq FROM audit_head WHERE id = 1")).scalar()
        if ready == EVENTS:
            print("(reusing the bench database)")
            return engine
        engine.dispose()
        for suffix in ("", "-wal", "-shm"):
            Path(f"{DATABASE}{suffix}").unlink(missing_ok=True)
        engine = make_engine(f"sqlite:///{DATABASE}")
    started = time.perf_counter()
    upgrade(engine)
    _fill(engine)
    print(f"(built the bench database in {time.perf_counter() - started:.0f} s)")
    return engine


def _fill(engine: Engine) -> None:
    now = utcnow()
    with engine.begin() as connection:
        users = [
            {
                "username": f"athlete-{n:03d}",
                "display_name": f"Athlete {n}",
                "role": Role.ATHLETE,
                "password_hash": "!",
                "disabled": False,
                "session_epoch": 0,
                "created_at": now,
            }
            for n in range(ATHLETES)
        ]
        users.append({**users[0], "username": "admin", "display_name": "Admin", "role": Role.ADMIN})
        connection.execute(insert(User), users)
        admin_id = connection.execute(select(User.id).where(User.username == "admin")).scalar_one()
        start = now - timedelta(days=730)
        step = timedelta(days=730) / EVENTS
        prev = GENESIS_HASH
        for first in range(1, EVENTS + 1, BATCH):
            rows = []
            for seq in range(first, min(first + BATCH, EVENTS + 1)):
                row = _event(seq, start + step * seq, admin_id)
                row["prev_hash"] = prev
                row["hash"] = prev = event_hash(SimpleNamespace(**row), prev)  # type: ignore[arg-type]
                rows.append(row)
            connection.execute(insert(AuditEvent), rows)
        connection.execute(update(AuditHead).where(AuditHead.id == 1).values(seq=EVENTS, hash=prev))
        connection.execute(text("ANALYZE"))
    with engine.connect() as connection:
        connection.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
        assert connection.execute(select(func.count()).select_from(AuditEvent)).scalar() == EVENTS


def _event(seq: int, at: Any, admin_id: int) -> dict[str, Any]:
    action = ACTIONS[(seq // ATHLETES) % len(ACTIONS)]  # every athlete gets every kind of action
    athlete = 1 + (seq * 7919) % ATHLETES
    memory = seq // 3
    by_admin = action == "restore"
    content = f"Memory {memory}: {'tempo runs' if seq % 50 == 0 else 'easy miles'} felt good"
    after = {"content": content, "type": "preference", "tags": [], "confidence": "medium", "status": "active"}
    before = None if action in ("create", "propose") else {**after, "content": f"Memory {memory}: before"}
    return {
        "seq": seq,
        "at": at,
        "actor_id": admin_id if by_admin else (None if action == "propose" else athlete),
        "actor_label": "admin" if by_admin else ("system" if action == "propose" else f"athlete-{athlete - 1:03d}"),
        "action": action,
        "athlete_id": athlete,
        "target_type": "proposal" if action == "propose" else "memory",
        "target_id": memory,
        "before": before,
        "after": after,
        "before_digest": digest(before),
        "after_digest": digest(after),
        "redacted": False,
        "reason": "Deleted by mistake" if by_admin else None,
    }
