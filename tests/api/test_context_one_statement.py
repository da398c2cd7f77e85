"""On its thread's held connection, a context request whose athlete's memories are kept prepared is one
statement to SQLite: the token and the athlete read together, without a BEGIN and a ROLLBACK around it,
and nothing left open after it. A change committed meanwhile is still in the next answer.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from sqlalchemy import Connection, Engine, event

from domain.actors import SYSTEM
from domain.api_tokens import create_token
from domain.coach_context import caller_and_athlete, context_for
from domain.memories import delete_memory
from persistence.uow import unit_of_work
from tests.factories import make_memory, make_user
from ui.api.security import HeldConnections, _reader


def test_a_kept_answer_is_one_statement_and_leaves_no_transaction(sqlite_engine: Engine) -> None:
    ann = make_user(sqlite_engine, "ann")
    knee = make_memory(sqlite_engine, ann, "Knee pain after long runs")
    make_memory(sqlite_engine, ann, "Prefers morning runs")
    with unit_of_work(sqlite_engine) as session:
        secret = create_token(session, SYSTEM, name="coach", scopes=["read"]).secret
    sqlite_engine.dispose()  # every connection from here on is traced
    statements: list[str] = []

    @event.listens_for(sqlite_engine, "connect")
    def _trace(dbapi_connection: sqlite3.Connection, _record: Any) -> None:
        dbapi_connection.set_trace_callback(statements.append)

    held = HeldConnections()

    def ask() -> tuple[str, Connection]:
        session = held.session(_reader(sqlite_engine))
        try:
            _caller, athlete = caller_and_athlete(session, secret, "ann")
            assert athlete is not None
            bound = session.bind
            assert isinstance(bound, Connection)
            return context_for(session, athlete, query="knee").block.text, bound
        finally:
            session.close()

    first, _ = ask()  # prepares ann's memories
    statements.clear()
    again, connection = ask()
    assert again == first and "Knee pain" in again
    assert len(statements) == 1 and statements[0].startswith("SELECT"), statements
    assert not connection.in_transaction() and not connection.connection.dbapi_connection.in_transaction

    with unit_of_work(sqlite_engine) as session:
        delete_memory(session, ann, memory_id=knee.id)
    after, _ = ask()
    assert "Knee pain" not in after and "morning" in after
    held.drop()
