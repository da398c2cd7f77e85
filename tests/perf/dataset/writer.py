"""Bulk writes for the generator: multi-row executemany on SQLite, COPY on PostgreSQL.

Rows are dicts; only the columns the database has (as its migrations made it) are written, so
the generator keeps working while other changes add columns with server defaults. Tables are
flushed together in foreign-key order and committed per round, so a long load never holds one
huge transaction and every committed round is a consistent database (the audit head included).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Engine, inspect, text

# Parents before children: a row's foreign keys point at rows of earlier tables or earlier rounds.
ORDER = (
    "users",
    "api_tokens",
    "source_texts",
    "memories",
    "proposals",
    "memory_tags",
    "coach_reads",
    "coach_read_memories",
    "audit_events",
)
ROUND_ROWS = 20_000


def _sqlite_value(value: Any) -> Any:
    if isinstance(value, datetime):  # as SQLAlchemy's SQLite DATETIME stores it (UTC, no zone)
        return f"{value:%Y-%m-%d %H:%M:%S}.{value.microsecond:06d}"
    if isinstance(value, dict | list):
        return json.dumps(value, ensure_ascii=False)  # as persistence.engine serialises JSON
    if isinstance(value, bool):
        return int(value)
    return value


def _postgres_value(value: Any) -> Any:
    if isinstance(value, dict | list):
        return json.dumps(value, ensure_ascii=False)
    return value


class BulkWriter:
    """Buffers rows per table; `flush()` writes every buffer in ORDER and commits."""

    def __init__(self, connection: Connection, on_flush: Callable[[Connection], None] | None = None) -> None:
        self.connection = connection
        self.dialect = connection.dialect.name
        names = inspect(connection).get_table_names()
        self.columns = {t: {c["name"] for c in inspect(connection).get_columns(t)} for t in ORDER if t in names}
        self.buffers: dict[str, list[dict[str, Any]]] = {t: [] for t in ORDER}
        self.pending = 0
        self.written: dict[str, int] = dict.fromkeys(ORDER, 0)
        self.on_flush = on_flush

    def has(self, table: str, column: str | None = None) -> bool:
        return table in self.columns and (column is None or column in self.columns[table])

    def add(self, table: str, row: dict[str, Any]) -> None:
        if table not in self.columns:
            return
        self.buffers[table].append(row)
        self.pending += 1
        if self.pending >= ROUND_ROWS:
            self.flush()

    def flush(self) -> None:
        for table in ORDER:
            rows = self.buffers[table]
            if rows:
                self._write(table, rows)
                self.written[table] += len(rows)
                self.buffers[table] = []
        self.pending = 0
        if self.on_flush is not None:
            self.on_flush(self.connection)
        self.connection.commit()

    def _write(self, table: str, rows: list[dict[str, Any]]) -> None:
        columns = [c for c in rows[0] if c in self.columns[table]]
        names = ", ".join(columns)
        raw = self.connection.connection.dbapi_connection
        assert raw is not None
        if self.dialect == "sqlite":
            marks = ", ".join("?" * len(columns))
            values = [tuple(_sqlite_value(row[c]) for c in columns) for row in rows]
            raw.cursor().executemany(f"INSERT INTO {table} ({names}) VALUES ({marks})", values)
            return
        with raw.cursor() as cursor, cursor.copy(f"COPY {table} ({names}) FROM STDIN") as copy:  # type: ignore[attr-defined]
            for row in rows:
                copy.write_row(tuple(_postgres_value(row[c]) for c in columns))

    def execute_many(self, sql: str, rows: list[dict[str, Any]]) -> None:
        """A statement over many parameter sets (the post-load fix-ups), in the current round."""
        convert = _sqlite_value if self.dialect == "sqlite" else _postgres_value
        for start in range(0, len(rows), ROUND_ROWS):
            batch = rows[start : start + ROUND_ROWS]
            self.connection.execute(text(sql), [{k: convert(v) for k, v in row.items()} for row in batch])
        self.connection.commit()


def next_ids(connection: Connection, tables: tuple[str, ...]) -> dict[str, int]:
    """The first free id of each table (the generator writes explicit ids, so it can link rows)."""
    return {t: int(connection.execute(text(f"SELECT COALESCE(MAX(id), 0) FROM {t}")).scalar_one()) + 1 for t in tables}


def reset_sequences(connection: Connection, tables: tuple[str, ...]) -> None:
    """PostgreSQL's id sequences past the explicit ids (SQLite's AUTOINCREMENT follows by itself)."""
    if connection.dialect.name != "postgresql":
        return
    for table in tables:
        connection.execute(
            text(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), GREATEST((SELECT MAX(id) FROM {table}), 1))")
        )


def tune_for_load(engine: Engine, connection: Connection) -> None:
    """Bulk-load settings for this connection only (the app's own connections keep theirs)."""
    if engine.dialect.name == "sqlite":
        raw = connection.connection.dbapi_connection  # outside any transaction: pysqlite is in autocommit
        assert raw is not None
        raw.execute("PRAGMA synchronous=NORMAL")
        raw.execute("PRAGMA cache_size=-200000")
    else:
        connection.exec_driver_sql("SET synchronous_commit = off")
