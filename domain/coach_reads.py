"""The record of what the coaching system read: every API read of an athlete's memory, with the
token, the query, and which memories it served. The athlete reads it back (the read log, "used
by your coach N times"); retention removes reads older than the access-event period.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Any, Literal

import orjson
from sqlalchemy import (
    BigInteger,
    ColumnElement,
    Connection,
    Integer,
    Text,
    bindparam,
    delete,
    exists,
    func,
    insert,
    select,
)
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import Session
from sqlalchemy.types import TypeEngine

from domain.actors import require_athlete
from domain.api_tokens import Caller, note_use
from domain.memory_rows import RowReader, reading
from domain.models import CoachRead, CoachReadMemory, Memory, User
from domain.prepared import Prepared
from domain.types import UTCDateTime, utcnow

ReadKind = Literal["context", "memories"]
MAX_LOG = 200
MAX_QUERY_STORED = 1000
CHUNK = 500


@dataclass(frozen=True)
class ReadEntry:
    """One read as the athlete sees it; `memory_ids` in the order they were served."""

    id: int
    at: datetime
    token_name: str
    kind: str
    query: str | None
    max_tokens: int | None
    block: str | None
    memory_ids: tuple[int, ...]


@dataclass(frozen=True)
class Usage:
    count: int
    last_at: datetime | None


def record_read(
    session: Session,
    caller: Caller,
    *,
    athlete_id: int,
    kind: ReadKind,
    memory_ids: Sequence[int],
    query: str | None = None,
    max_tokens: int | None = None,
    block: str | None = None,
    at: datetime | None = None,
) -> CoachRead:
    read = CoachRead(
        at=at or utcnow(),
        athlete_id=athlete_id,
        token_id=caller.token_id,
        token_name=caller.name,
        kind=kind,
        query=query[:MAX_QUERY_STORED] if query is not None else None,
        max_tokens=max_tokens,
        block=block,
    )
    session.add(read)
    session.flush()
    if memory_ids:
        rows = [{"read_id": read.id, "memory_id": mid, "position": i} for i, mid in enumerate(memory_ids)]
        session.execute(insert(CoachReadMemory), rows)
    return read


@dataclass(frozen=True)
class PendingRead:
    """A read answered and not yet written (see record_reads)."""

    caller: Caller
    athlete_id: int
    kind: ReadKind
    memory_ids: tuple[int, ...]
    at: datetime
    query: str | None = None
    max_tokens: int | None = None
    block: str | None = None


_INSERT_READ = Prepared(insert(CoachRead).returning(CoachRead.id))
_READ_COLUMNS: dict[str, TypeEngine[Any]] = {
    "at": UTCDateTime(),
    "athlete_id": Integer(),
    "token_id": Integer(),
    "token_name": Text(),
    "kind": Text(),
    "query": Text(),
    "max_tokens": Integer(),
    "block": Text(),
}


def _array(name: str, item: TypeEngine[Any]) -> ColumnElement[Any]:
    return bindparam(name, type_=ARRAY(item))  # psycopg's dialect writes the array's type beside it


def _write_all() -> Prepared:
    """PostgreSQL: a whole batch, reads and memory links, in one statement of arrays (one per column).

    The reads are inserted in their order (ORDER BY their place), so their ids, from the table's
    sequence, rise in that order: the i-th smallest id returned is the i-th read's (SQLAlchemy's own
    insertmanyvalues relies on the same). Each link names its read by place. Before (issue 9), the
    links were one executed INSERT each (11 per read in the bench): 135-150 us of the writer's CPU
    per read."""
    reads = (
        func.unnest(*(_array(name, item) for name, item in _READ_COLUMNS.items()))
        .table_valued(*_READ_COLUMNS, with_ordinality="place", name="read_rows")
        .render_derived()
    )
    new = (
        insert(CoachRead)
        .from_select(list(_READ_COLUMNS), select(*(reads.c[name] for name in _READ_COLUMNS)).order_by(reads.c.place))
        .returning(CoachRead.id)
        .cte("new_reads")
    )
    numbered = select(new.c.id, func.row_number().over(order_by=new.c.id).label("place")).cte("numbered_reads")
    links = (
        func.unnest(
            _array("link_read", BigInteger()), _array("link_memory", Integer()), _array("link_position", Integer())
        )
        .table_valued("place", "memory_id", "position", name="link_rows")
        .render_derived()
    )
    rows = (
        select(numbered.c.id, links.c.memory_id, links.c.position)
        .join_from(links, numbered, numbered.c.place == links.c.place)
        .where(exists().where(Memory.id == links.c.memory_id))
    )
    return Prepared(insert(CoachReadMemory).from_select(["read_id", "memory_id", "position"], rows).add_cte(new))


_WRITE_ALL = _write_all()


def record_reads(session: Session, reads: Sequence[PendingRead]) -> None:
    """Write answered reads in one transaction: on SQLite a fixed INSERT per read and one batch of memory
    links (domain.prepared: in process, the cheapest), on PostgreSQL one statement for all (`_write_all`).
    A memory removed for good since it was served is left out of its read (the read itself stays)."""
    if not reads:
        return
    connection = session.connection()
    if connection.dialect.name == "sqlite":
        _write_each(connection, reads)
    else:
        _WRITE_ALL.run(connection, _as_arrays(reads))
    last_use: dict[int, datetime] = {}
    for read in reads:
        last_use[read.caller.token_id] = max(read.at, last_use.get(read.caller.token_id, read.at))
    for token_id, at in sorted(last_use.items()):
        note_use(session, token_id, now=at)


def _row(read: PendingRead) -> dict[str, Any]:
    return {
        "at": read.at,
        "athlete_id": read.athlete_id,
        "token_id": read.caller.token_id,
        "token_name": read.caller.name,
        "kind": read.kind,
        "query": read.query[:MAX_QUERY_STORED] if read.query is not None else None,
        "max_tokens": read.max_tokens,
        "block": read.block,
    }


def _write_each(connection: Connection, reads: Sequence[PendingRead]) -> None:
    read_ids = [_INSERT_READ.run(connection, _row(read)).fetchone()[0] for read in reads]
    links = [
        (read_id, memory_id, position)
        for read, read_id in zip(reads, read_ids, strict=True)
        for position, memory_id in enumerate(read.memory_ids)
    ]
    if links:
        _INSERT_LINKS.run(connection, {"links": orjson.dumps(links).decode()})


def _insert_links() -> Prepared:
    """SQLite: every memory link of a batch in one statement, from a JSON list of [read id, memory id,
    place]. Executed one row at a time (11 per read in the bench), each row was a call into SQLite that
    gives up the interpreter lock and waits to take it back among the context threads (issue 9)."""
    rows = func.json_each(bindparam("links", type_=Text)).table_valued("value")
    read_id, memory_id, position = (func.json_extract(rows.c.value, f"$[{n}]") for n in range(3))
    return Prepared(
        insert(CoachReadMemory).from_select(
            ["read_id", "memory_id", "position"],
            select(read_id, memory_id, position).where(exists().where(Memory.id == memory_id)),
        )
    )


_INSERT_LINKS = _insert_links()


def _as_arrays(reads: Sequence[PendingRead]) -> dict[str, list[Any]]:
    rows = [_row(read) for read in reads]
    values: dict[str, list[Any]] = {name: [row[name] for row in rows] for name in _READ_COLUMNS}
    values["link_read"], values["link_memory"], values["link_position"] = [], [], []
    for place, read in enumerate(reads, start=1):
        values["link_read"] += [place] * len(read.memory_ids)
        values["link_memory"] += read.memory_ids
        values["link_position"] += range(len(read.memory_ids))
    return values


def coach_reads_for(
    session: Session, actor: User | None, *, limit: int = 20, before_id: int | None = None
) -> list[ReadEntry]:
    """My coach's recent reads of my memory, newest first; `before_id` pages back."""
    athlete = require_athlete(actor)
    stmt = select(CoachRead).where(CoachRead.athlete_id == athlete.id)
    if before_id is not None:
        stmt = stmt.where(CoachRead.id < before_id)
    reads = list(session.scalars(stmt.order_by(CoachRead.id.desc()).limit(max(1, min(limit, MAX_LOG)))))
    served: dict[int, list[int]] = {read.id: [] for read in reads}
    if reads:
        links = session.execute(
            select(CoachReadMemory.read_id, CoachReadMemory.memory_id)
            .where(CoachReadMemory.read_id.in_(list(served)))
            .order_by(CoachReadMemory.read_id, CoachReadMemory.position)
        )
        for read_id, memory_id in links:
            served[read_id].append(memory_id)
    return [
        ReadEntry(r.id, r.at, r.token_name, r.kind, r.query, r.max_tokens, r.block, tuple(served[r.id])) for r in reads
    ]


def usage_counts(session: Session, actor: User | None, memory_ids: Sequence[int]) -> dict[int, Usage]:
    """How often the coach was served each of my memories, and when last; absent ids were never served."""
    athlete = require_athlete(actor)
    usage: dict[int, Usage] = {}
    wanted = sorted(set(memory_ids))
    for start in range(0, len(wanted), CHUNK):
        chunk = wanted[start : start + CHUNK]
        values: dict[str, object] = {f"memory_{n}": memory_id for n, memory_id in enumerate(chunk)}
        values["athlete_id"] = athlete.id
        for memory_id, count, last_at in _usage(len(chunk)).tuples(reading(session), values):
            usage[memory_id] = Usage(count=count, last_at=last_at)
    return usage


@cache
def _usage(memories: int) -> RowReader:
    """The usage statement for a number of ids, built once: the Context page runs it on every open
    (a page of 20 memories), and building it per call cost more than running it (issue 9)."""
    return RowReader(
        select(CoachReadMemory.memory_id, func.count(), func.max(CoachRead.at))
        .join(CoachRead, CoachRead.id == CoachReadMemory.read_id)
        .where(
            CoachReadMemory.memory_id.in_([bindparam(f"memory_{n}", type_=Integer) for n in range(memories)]),
            CoachRead.athlete_id == bindparam("athlete_id", type_=Integer),
        )
        .group_by(CoachReadMemory.memory_id)
    )


def reads_before(session: Session, cutoff: datetime) -> list[int]:
    return list(session.scalars(select(CoachRead.id).where(CoachRead.at < cutoff).order_by(CoachRead.id)))


def purge_reads(session: Session, read_ids: Sequence[int], cutoff: datetime) -> list[int]:
    """Remove the listed reads still older than `cutoff` (their memory links go with them)."""
    removed: list[int] = []
    for start in range(0, len(read_ids), CHUNK):
        chunk = list(read_ids[start : start + CHUNK])
        due = list(session.scalars(select(CoachRead.id).where(CoachRead.id.in_(chunk), CoachRead.at < cutoff)))
        if due:
            session.execute(delete(CoachReadMemory).where(CoachReadMemory.read_id.in_(due)))
            session.execute(delete(CoachRead).where(CoachRead.id.in_(due)))
        removed += due
    return sorted(removed)
