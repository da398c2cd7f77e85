"""domain/prepared.py runs the write path's statements on the driver's cursor: the rows it writes
are the rows Core writes, driver errors arrive as SQLAlchemy's, and listeners see each statement."""

from __future__ import annotations

from typing import Any, cast

import pytest
from sqlalchemy import Engine, Table, event, insert, select
from sqlalchemy.exc import IntegrityError

from domain.enums import AuditAction, AuditTarget
from domain.models import AuditEvent, User
from domain.prepared import Prepared
from domain.types import utcnow

EVENTS = cast(Table, AuditEvent.__table__)
INSERT = Prepared(insert(EVENTS))


def event_row(seq: int, athlete: User) -> dict[str, Any]:
    return {
        "seq": seq,
        "at": utcnow(),
        "actor_id": athlete.id,
        "actor_label": "alex",
        "action": AuditAction.CREATE,
        "athlete_id": athlete.id,
        "target_type": AuditTarget.MEMORY,
        "target_id": 7,
        "before": None,
        "after": {"content": "Früh am Morgen", "tags": ["time:morning"], "n": 1},
        "before_digest": None,
        "after_digest": "d" * 64,
        "redacted": False,
        "reason": None,
        "prev_hash": "0" * 64,
        "hash": "1" * 64,
    }


def test_a_prepared_row_reads_back_as_the_one_core_wrote(engine: Engine, athlete: User) -> None:
    with engine.connect() as connection:
        INSERT.run(connection, event_row(1001, athlete))
        connection.execute(insert(EVENTS), event_row(1002, athlete))
        INSERT.run_many(connection, [event_row(1003, athlete), event_row(1004, athlete)])
        rows = connection.execute(select(EVENTS).where(EVENTS.c.seq > 1000).order_by(EVENTS.c.seq)).all()
        raw = connection.exec_driver_sql(
            "SELECT seq, action, target_type, after, at FROM audit_events WHERE seq > 1000 ORDER BY seq"
        ).all()
        connection.rollback()
    assert [row.seq for row in rows] == [1001, 1002, 1003, 1004]
    for row in rows:
        assert row.after == {"content": "Früh am Morgen", "tags": ["time:morning"], "n": 1}
        assert row.action == AuditAction.CREATE and row.target_type == AuditTarget.MEMORY
        assert row.at.tzinfo is not None
    # stored the same way, byte for byte (JSON text as the engine writes it, enum values, timestamps)
    prepared, core = raw[0], raw[1]
    assert (prepared.action, prepared.target_type, str(prepared.after)) == (
        core.action,
        core.target_type,
        str(core.after),
    )
    assert type(prepared.at) is type(core.at) and len(str(prepared.at)) == len(str(core.at))


def test_a_driver_error_is_sqlalchemys_and_listeners_see_the_statement(engine: Engine, athlete: User) -> None:
    seen: list[str] = []

    def keep(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        seen.append(statement)

    event.listen(engine, "before_cursor_execute", keep)
    try:
        with engine.connect() as connection:
            INSERT.run(connection, event_row(2001, athlete))
            with pytest.raises(IntegrityError):
                INSERT.run(connection, event_row(2001, athlete))  # the same seq again
            connection.rollback()
    finally:
        event.remove(engine, "before_cursor_execute", keep)
    assert sum(statement.startswith("INSERT INTO audit_events") for statement in seen) == 2
