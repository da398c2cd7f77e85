"""What the coaching system may read of an athlete: active memories not hidden from the coach,
as a list or as the scored `MEMORY:` block (domain.coach_block). The athlete's own preview and
"hide from coach" live here too, so the coach and the athlete see the same rule."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import ColumnElement, String, bindparam, func, select
from sqlalchemy.orm import Session

from domain.actors import require_athlete
from domain.coach_block import DEFAULT_MAX_TOKENS, Block, Candidate, build_block
from domain.coach_index import IndexCache, KnownStamp, stamp_columns, stamp_of
from domain.enums import MemoryStatus, MemoryType, Role
from domain.errors import NotFound
from domain.memory_writes import set_hidden_from_coach
from domain.models import Memory, User
from domain.prepared import Prepared
from domain.search import text_match
from domain.types import utcnow
from domain.users import account_name, find_user
from domain.visibility import with_inactive

MAX_PAGE = 200
UNKNOWN_ATHLETE = "Unknown athlete."
INDEXES = IndexCache()  # per process: each athlete's prepared memories, checked against the database on every use


@dataclass(frozen=True)
class ContextAnswer:
    query: str
    max_tokens: int
    block: Block
    considered: int  # memories the coach may see, before scoring


@dataclass(frozen=True)
class CoachMemoryPage:
    items: list[Memory]
    total: int


def athlete_by_username(session: Session, username: str) -> User:
    """The athlete the coaching system asks about; admins and unknown names are 'not found' alike."""
    user = find_user(session, username)
    if user is None or user.role != Role.ATHLETE:
        raise NotFound(UNKNOWN_ATHLETE)
    return user


@dataclass(frozen=True)
class AthleteRef:
    """An athlete as the coach's context route needs one: id and login name, and the change stamp of
    their memories read with them (domain.coach_index)."""

    id: int
    username: str
    stamp: KnownStamp


_USERNAME = bindparam("username", type_=String)
_ATHLETE = {
    dialect: Prepared(
        select(User.id, User.username, User.role, *stamp_columns(User.id, dialect)).where(User.username == _USERNAME)
    )
    for dialect in ("sqlite", "postgresql")
}


def coach_athlete(session: Session, username: str) -> AthleteRef:
    """`athlete_by_username` for the context route, which runs for every coach request: one fixed
    statement on the driver's cursor (domain.prepared) instead of loading the ORM object, which also
    reads the stamp the athlete's prepared index is checked against (one round trip, not two)."""
    name = account_name(username)
    connection = session.connection()
    row = None if name is None else _ATHLETE[connection.dialect.name].run(connection, {"username": name}).fetchone()
    if row is None or row[2] != Role.ATHLETE.value:
        raise NotFound(UNKNOWN_ATHLETE)
    return AthleteRef(int(row[0]), str(row[1]), KnownStamp(stamp_of(session, row[3:])))


def coach_may_see(athlete_id: int) -> list[ColumnElement[bool]]:
    return [
        Memory.athlete_id == athlete_id,
        Memory.status == MemoryStatus.ACTIVE,
        Memory.hidden_from_coach.is_(False),
    ]


def candidates(session: Session, athlete_id: int) -> list[Candidate]:
    rows = session.execute(
        select(
            Memory.id,
            Memory.type,
            Memory.content,
            Memory.tags,
            Memory.confidence,
            Memory.occurrences,
            Memory.updated_at,
        ).where(*coach_may_see(athlete_id))
    )
    return [
        Candidate(r.id, r.type, r.content, tuple(r.tags or ()), r.confidence, r.occurrences, r.updated_at) for r in rows
    ]


def context_for(
    session: Session,
    athlete: User | AthleteRef,
    *,
    query: str = "",
    max_tokens: int = DEFAULT_MAX_TOKENS,
    now: datetime | None = None,
) -> ContextAnswer:
    """The block for one athlete; not recorded (the API records its reads, see domain.coach_reads)."""
    known = athlete.stamp if isinstance(athlete, AthleteRef) else None
    index = INDEXES.get(session, athlete.id, lambda: candidates(session, athlete.id), known=known)
    block = build_block(index.ranked(query, now or utcnow()), max_tokens, shortest=index.shortest)
    return ContextAnswer(query=query, max_tokens=max_tokens, block=block, considered=len(index.candidates))


def coach_preview(
    session: Session, actor: User | None, *, query: str = "", max_tokens: int = DEFAULT_MAX_TOKENS
) -> ContextAnswer:
    """What my coach sees: exactly the block the API would give for this query, for the athlete."""
    athlete = require_athlete(actor)
    return context_for(session, athlete, query=query, max_tokens=max_tokens)


def coach_memories(
    session: Session,
    athlete: User,
    *,
    types: Collection[MemoryType] = (),
    text: str = "",
    limit: int = 50,
    offset: int = 0,
) -> CoachMemoryPage:
    """Active memories the coach may see, newest update first."""
    stmt = select(Memory).where(*coach_may_see(athlete.id))
    if types:
        stmt = stmt.where(Memory.type.in_(list(types)))
    if text.strip():
        stmt = stmt.where(text_match(session, text, athlete.id))
    total = session.scalar(select(func.count()).select_from(stmt.subquery())) or 0
    page = stmt.order_by(Memory.updated_at.desc(), Memory.id.desc())
    items = list(session.scalars(page.limit(max(1, min(limit, MAX_PAGE))).offset(max(0, offset))))
    return CoachMemoryPage(items=items, total=total)


def set_hidden(
    session: Session, actor: User | None, *, memory_id: int, hidden: bool, expected_version: int | None = None
) -> Memory:
    """Hide one of my memories from the coach, or show it again (audited; the memory stays on my page).

    Setting the state a memory already has changes nothing and records nothing.
    """
    athlete = require_athlete(actor)
    memory = session.get(Memory, memory_id, execution_options=with_inactive())
    if memory is None or memory.athlete_id != athlete.id or memory.status != MemoryStatus.ACTIVE:
        raise NotFound("Memory not found.")
    if memory.hidden_from_coach == hidden:
        return memory
    return set_hidden_from_coach(session, athlete, memory, hidden=hidden, expected_version=expected_version)
