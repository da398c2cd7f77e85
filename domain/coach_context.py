"""What the coaching system may read of an athlete: active memories not hidden from the coach,
as a list or as the scored `MEMORY:` block (domain.coach_block). The athlete's own preview and
"hide from coach" live here too, so the coach and the athlete see the same rule."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, Connection, String, bindparam, func, literal, select
from sqlalchemy.orm import Session

from domain.actors import require_athlete
from domain.api_tokens import TOKEN_COLUMNS, Caller, caller_of, secret_to_look_up
from domain.coach_block import DEFAULT_MAX_TOKENS, Block, Candidate
from domain.coach_index import IndexCache, KnownStamp, stamp_columns, stamp_of
from domain.enums import MemoryStatus, MemoryType, Role
from domain.errors import NotFound
from domain.memory_writes import set_hidden_from_coach
from domain.models import ApiToken, Memory, User
from domain.prepared import Prepared
from domain.search import owner_column, reads_marked_index, text_match
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
# The token and the athlete, each by its unique key, side by side in one row (either part NULL when absent).
_ONE = select(literal(1).label("one")).subquery("one")
_CALLER_AND_ATHLETE = {
    dialect: Prepared(
        select(*TOKEN_COLUMNS, User.id, User.username, User.role, *stamp_columns(User.id, dialect)).select_from(
            _ONE.outerjoin(ApiToken, ApiToken.token_hash == bindparam("token_hash", type_=String)).outerjoin(
                User, User.username == _USERNAME
            )
        )
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
    athlete = _athlete_of(connection, row)
    if athlete is None:
        raise NotFound(UNKNOWN_ATHLETE)
    return athlete


def caller_and_athlete(session: Session, secret: str, username: str) -> tuple[Caller, AthleteRef | None]:
    """`authenticate` and `coach_athlete` in one statement (one round trip, where they were two: issue 9).
    The token decides first, as when they ran one after the other: AuthenticationFailed for a bad one,
    whatever the name; the athlete is None when no athlete has that name (the caller says 'not found'
    once it has admitted the token: its rate limit and scope)."""
    wanted = secret_to_look_up(secret)
    connection = _one_statement(session)
    values = {"token_hash": wanted, "username": account_name(username)}
    # fetchall: SQLite's statement runs to its end, which ends its read (the one row: unique keys)
    (row,) = _CALLER_AND_ATHLETE[connection.dialect.name].run(connection, values).fetchall()
    token = len(TOKEN_COLUMNS)
    return caller_of(row[:token], wanted), _athlete_of(connection, row[token:])


def _one_statement(session: Session) -> Connection:
    """Where `caller_and_athlete` runs its statement: on the connection the session is bound to (the context
    route's held one) as it is, when the session has not begun: the statement is then a read of its own,
    without a BEGIN and a ROLLBACK around it (on SQLite two more calls, each giving up the interpreter lock
    and waiting to take it back among the other threads: py-spy, 20 clients, a quarter of the context
    threads' time; PostgreSQL's reader is in autocommit anyway). Else in the session's transaction. Its
    own snapshot is enough: a stamp says which memories to expect, and any read after it (the memories,
    when the kept index is older) sees them or newer (domain.coach_index.stamp)."""
    bind = session.bind
    if isinstance(bind, Connection) and not session.in_transaction() and not bind.in_transaction():
        return bind
    return session.connection()


def _athlete_of(connection: Connection, values: Sequence[Any] | None) -> AthleteRef | None:
    """An athlete from the values of `_ATHLETE`'s columns; None for no user, or one who is not an athlete."""
    if values is None or values[2] != Role.ATHLETE.value:
        return None
    return AthleteRef(int(values[0]), str(values[1]), KnownStamp(stamp_of(connection, values[3:])))


def coach_may_see(athlete_id: int, *, searched: bool = False) -> list[ColumnElement[bool]]:
    """`searched`: the list reads PostgreSQL's index of marked words, which holds the athlete's entries alone
    (domain.search.owner_column)."""
    return [
        owner_column(searched=searched) == athlete_id,
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
    block = index.block(query, now or utcnow(), max_tokens)
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
    stmt = select(Memory).where(*coach_may_see(athlete.id, searched=reads_marked_index(session, text) and not types))
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
