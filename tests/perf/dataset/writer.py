"""Bulk writes for the generator: multi-row executemany on SQLite, COPY on PostgreSQL.

Rows are dicts; only the columns the database has (as its migrations made it) are written, so
the generator keeps working while other changes add columns with server defaults. Tables are
flushed together in foreign-key order and committed per round, so a long load never holds one
huge transaction and every committed round is a consistent database (the audit head included).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, Boolean, Connection, DateTime, Engine, inspect, text

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
ROUND_ROWS = 50_000


def _sqlite_datetime(value: datetime) -> str:
    """As SQLAlchemy's SQLite DATETIME stores it: UTC, no zone, always microseconds."""
    return value.astimezone(UTC).isoformat(" ", "microseconds")[:26]


def _json(value: Any) -> str:
    if isinstance(value, str):  # serialised already (chain.RawJson)
        return str(value)
    return json.dumps(value, ensure_ascii=False)  # as persistence.engine serialises JSON


def _converters(dialect: str, column_type: Any) -> Callable[[Any], Any] | None:
    """How one column's Python values are handed to the driver (None: as they are)."""
    if isinstance(column_type, JSON):
        return _json
    if dialect == "sqlite" and isinstance(column_type, DateTime):
        return _sqlite_datetime
    if dialect == "sqlite" and isinstance(column_type, Boolean):
        return int
    return None


class BulkWriter:
    """Buffers rows per table; `flush()` writes every buffer in ORDER and commits."""

    def __init__(self, connection: Connection, on_flush: Callable[[Connection], None] | None = None) -> None:
        self.connection = connection
        self.dialect = connection.dialect.name
        names = inspect(connection).get_table_names()
        reflected = {t: inspect(connection).get_columns(t) for t in ORDER if t in names}
        self.columns = {t: {c["name"] for c in columns} for t, columns in reflected.items()}
        self.convert = {
            t: {c["name"]: f for c in columns if (f := _converters(self.dialect, c["type"])) is not None}
            for t, columns in reflected.items()
        }
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
        if not self.connection.in_transaction():
            self.connection.begin()  # the raw cursors below write inside it (pysqlite itself is in autocommit)
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
        values = self._values(table, columns, rows)
        if self.dialect == "sqlite":
            marks = ", ".join("?" * len(columns))
            raw.cursor().executemany(f"INSERT INTO {table} ({names}) VALUES ({marks})", values)
            return
        with raw.cursor() as cursor, cursor.copy(f"COPY {table} ({names}) FROM STDIN") as copy:  # type: ignore[attr-defined]
            for row in values:
                copy.write_row(row)

    def _values(self, table: str, columns: list[str], rows: list[dict[str, Any]]) -> list[list[Any]]:
        special = [(i, f) for i, c in enumerate(columns) if (f := self.convert[table].get(c)) is not None]
        values = []
        for row in rows:
            value = [row[c] for c in columns]
            for i, convert in special:
                if value[i] is not None:
                    value[i] = convert(value[i])
            values.append(value)
        return values

    def execute_many(self, sql: str, table: str, rows: list[dict[str, Any]]) -> None:
        """One statement over many parameter sets of `table`'s columns (the post-load fix-ups)."""
        convert = self.convert[table]
        for start in range(0, len(rows), ROUND_ROWS):
            batch = [
                {k: v if v is None or k not in convert else convert[k](v) for k, v in row.items()}
                for row in rows[start : start + ROUND_ROWS]
            ]
            if batch:
                self.connection.execute(text(sql), batch)
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


def tune_for_load(engine: Engine, connection: Connection, *, durable: bool = True) -> None:
    """Bulk-load settings for this connection only (the app's own connections keep theirs).

    `durable=False` (a fresh file nobody else has open, e.g. a cache build): no journal and no
    fsync, about twice as fast; a crash leaves a broken file, which the caller throws away.
    """
    if engine.dialect.name == "sqlite":
        raw = connection.connection.dbapi_connection  # outside any transaction: pysqlite is in autocommit
        assert raw is not None
        if not durable:
            raw.execute("PRAGMA journal_mode=OFF")
        raw.execute("PRAGMA synchronous=OFF" if not durable else "PRAGMA synchronous=NORMAL")
        raw.execute("PRAGMA cache_size=-500000")
    else:
        connection.exec_driver_sql("SET synchronous_commit = off")
