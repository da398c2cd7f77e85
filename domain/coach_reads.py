"""The record of what the coaching system read: every API read of an athlete's memory, with the
token, the query, and which memories it served. The athlete reads it back (the read log, "used
by your coach N times"); retention removes reads older than the access-event period.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Literal

from sqlalchemy import Integer, bindparam, delete, exists, func, insert, select
from sqlalchemy.orm import Session

from domain.actors import require_athlete
from domain.api_tokens import Caller, note_use
from domain.memory_rows import RowReader, reading
from domain.models import CoachRead, CoachReadMemory, Memory, User
from domain.prepared import Prepared
from domain.types import utcnow

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
# PostgreSQL: every read of a batch in one statement (a round trip per read was up to 500 per batch)
_INSERT_READS = insert(CoachRead).returning(CoachRead.id, sort_by_parameter_order=True)
_MEMORY_ID = bindparam("memory_id", type_=Integer)
# A memory removed for good since it was served is left out of its read (the read itself stays).
_INSERT_LINK = Prepared(
    insert(CoachReadMemory).from_select(
        ["read_id", "memory_id", "position"],
        select(bindparam("read_id", type_=Integer), _MEMORY_ID, bindparam("position", type_=Integer)).where(
            exists().where(Memory.id == _MEMORY_ID)
        ),
    )
)


def record_reads(session: Session, reads: Sequence[PendingRead]) -> None:
    """Write answered reads in one transaction: a fixed INSERT per read on SQLite (one statement for all
    on PostgreSQL) and one batch of memory links
    (domain.prepared: the ORM's bulk insert cost several times SQLite's own work). A memory removed
    for good since it was served is left out of its read (the read itself stays)."""
    connection = session.connection()
    rows = [
        {
            "at": read.at,
            "athlete_id": read.athlete_id,
            "token_id": read.caller.token_id,
            "token_name": read.caller.name,
            "kind": read.kind,
            "query": read.query[:MAX_QUERY_STORED] if read.query is not None else None,
            "max_tokens": read.max_tokens,
            "block": read.block,
        }
        for read in reads
    ]
    if not rows:
        return
    if connection.dialect.name == "sqlite":  # in process: a fixed INSERT per read is the cheapest
        read_ids = [_INSERT_READ.run(connection, row).fetchone()[0] for row in rows]
    else:
        read_ids = list(connection.execute(_INSERT_READS, rows).scalars())
    links: list[dict[str, int]] = []
    last_use: dict[int, datetime] = {}
    for read, read_id in zip(reads, read_ids, strict=True):
        links += [{"read_id": read_id, "memory_id": m, "position": i} for i, m in enumerate(read.memory_ids)]
        last_use[read.caller.token_id] = max(read.at, last_use.get(read.caller.token_id, read.at))
    if links:
        _INSERT_LINK.run_many(connection, links)
    for token_id, at in sorted(last_use.items()):
        note_use(session, token_id, now=at)


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
