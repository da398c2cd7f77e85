"""Engine factory: SQLite tuned for safe concurrent use, PostgreSQL by URL."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event

from domain.audit import attach_seal
from domain.prepared import WRITER, run_sql
from domain.search import OWNED_TOKENS_FUNCTION, owned_tokens
from persistence.audit_files import beside
from persistence.sqlite_writers import WriterConnection, lock_for

SQLITE_BUSY_TIMEOUT_MS = 10_000
IMMEDIATE = WRITER  # the writers' option: BEGIN IMMEDIATE on SQLite
_LOCK_TIMEOUT_S = SQLITE_BUSY_TIMEOUT_MS / 1000


# Keep "früh" as written, so text search over JSON payloads finds what people typed. The encoder
# json.dumps(value, ensure_ascii=False) builds on every call, built once (each audited write stores
# two or three JSON values: issue 9).
_JSON = json.JSONEncoder(ensure_ascii=False)


def _json_text(value: Any) -> str:
    return _JSON.encode(value)


def make_engine(url: str, **kwargs: Any) -> Engine:
    kwargs.setdefault("json_serializer", _json_text)
    if url.startswith("sqlite"):
        return _sqlite_engine(url, **kwargs)
    return create_engine(url, pool_pre_ping=True, **kwargs)


def _sqlite_engine(url: str, **kwargs: Any) -> Engine:
    if url.startswith("sqlite:///") and url != "sqlite:///:memory:":
        Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
    connect_args = {"check_same_thread": False, "factory": WriterConnection, **kwargs.pop("connect_args", {})}
    engine = create_engine(url, connect_args=connect_args, **kwargs)
    # This process's writers queue on one lock per file rather than in SQLite's busy handler.
    writer_lock = lock_for(engine.url.database)
    if url.startswith("sqlite:///") and url != "sqlite:///:memory:":
        # Any process writing this file keys and anchors the audit chain as the app does.
        attach_seal(engine, beside(Path(url.removeprefix("sqlite:///"))))

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy's "begin" event issue BEGIN itself (pysqlite's own is deferred).
        dbapi_connection.isolation_level = None
        dbapi_connection.writer_lock = writer_lock
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.close()
        # The search index's triggers call it (domain/search.py says why).
        dbapi_connection.create_function(OWNED_TOKENS_FUNCTION, 3, owned_tokens, deterministic=True)

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Any) -> None:
        # Writers take the write lock up front, so a read-then-write transaction never
        # fails half-way with SQLITE_BUSY_SNAPSHOT; readers stay deferred. A writer first queues
        # behind this process's other writers (persistence/sqlite_writers.py), until its COMMIT.
        if not connection.get_execution_options().get(IMMEDIATE, False):
            run_sql(connection, "BEGIN")  # on the cursor: a third of Core's cost
            return
        dbapi_connection = connection.connection.dbapi_connection
        if isinstance(dbapi_connection, WriterConnection):
            dbapi_connection.begin_writing(lambda: run_sql(connection, "BEGIN IMMEDIATE"), _LOCK_TIMEOUT_S)
        else:  # a connection made by a creator of the caller's own
            run_sql(connection, "BEGIN IMMEDIATE")

    return engine
