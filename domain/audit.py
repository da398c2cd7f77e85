"""The audit log: one hash-chained event per change, written in the caller's transaction.

Each event's hash covers digests of its before/after payloads rather than the payloads,
so a hard delete can redact content from the payloads and the chain still verifies; the removal
event lists each event it redacted with the digests of its redacted payloads, under its own hash.

Keyed chain: with a seal attached to the engine (persistence/audit_seal.py) each hash is an
HMAC-SHA256 under a key kept outside the database, so whoever can write the database cannot
recompute a valid chain after changing it; and the seal keeps an anchor outside the database
(the newest committed event's seq and hash), so cutting events off the end and rewinding the head,
or emptying the tables, is caught. Events up to `audit_head.keyed_after` (those written before
the key existed) keep the plain SHA-256 of earlier versions: the legacy part of the chain.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import logging
import secrets
from collections.abc import Container, Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol, cast
from weakref import WeakKeyDictionary

from sqlalchemy import (
    ClauseElement,
    Connection,
    Engine,
    Integer,
    Select,
    String,
    Table,
    TextClause,
    bindparam,
    exists,
    func,
    insert,
    select,
    text,
    type_coerce,
    update,
)
from sqlalchemy import event as orm_event
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import ORMExecuteState, Session, SessionTransaction, SessionTransactionOrigin
from sqlalchemy.pool import Pool
from sqlalchemy.sql.util import find_tables

from domain.actors import Actor, actor_identity
from domain.audit_refused import COPIED, NOT_SIGNED, Refusal, refuse, refused_problem
from domain.enums import REMOVAL_ACTIONS, AuditAction, AuditTarget
from domain.models import GENESIS_HASH, AuditEvent, AuditHead, AuditPending, AuditRefused
from domain.prepared import WRITER, Prepared, session_connection
from domain.types import utcnow

REDACTED_PROPOSALS = "redacted_proposals"  # a removal event's list of proposals it redacted
REDACTED_EVENTS = "redacted_events"  # a removal event's {seq: [before digest, after digest]} of what it redacted


# What json.dumps builds on each call with these arguments, built once (a fifth of its cost per payload).
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def canonical_json(value: Any) -> str:
    return _CANONICAL.encode(value)


def digest(payload: dict[str, Any] | None) -> str | None:
    if payload is None:
        return None
    return hashlib.sha256(canonical_json(payload).encode()).hexdigest()


def _timestamp(at: datetime) -> str:
    return at.isoformat(timespec="microseconds")


def event_hash(event: ChainedEvent, prev_hash: str, key: bytes | None = None) -> str:
    """SHA-256 of the previous hash and the event's fields; an HMAC under `key` on a keyed chain."""
    body = {
        "seq": event.seq,
        "at": _timestamp(event.at),
        "actor_id": event.actor_id,
        "actor_label": event.actor_label,
        "action": event.action,
        "athlete_id": event.athlete_id,
        "target_type": event.target_type,
        "target_id": event.target_id,
        "before_digest": event.before_digest,
        "after_digest": event.after_digest,
        "reason": event.reason,
    }
    pending_id = getattr(event, "pending_id", None)  # chained from audit_pending: its waiting id too
    if pending_id is not None:
        body["pending_id"] = pending_id
    message = (prev_hash + canonical_json(body)).encode()
    if key is None:
        return hashlib.sha256(message).hexdigest()
    return hmac.digest(key, message, "sha256").hex()  # OpenSSL's one-shot HMAC: the same as hmac.new's


@dataclass(frozen=True)
class Anchor:
    """The chain's head as last committed by this installation, kept outside the database."""

    seq: int
    hash: str
    keyed_after: int  # events up to this seq were written before the key (the legacy part)


class Seal(Protocol):
    """What the chain keeps outside the database: its key, and the anchor (persistence/audit_seal.py)."""

    @property
    def key(self) -> bytes: ...

    def anchor(self) -> Anchor | None: ...

    def advance(self, seq: int, hash_: str, keyed_after: int) -> None:
        """Called after each commit that wrote events; the anchor only ever moves forward."""


_SEALS: WeakKeyDictionary[Pool, Seal] = WeakKeyDictionary()


_ENGINE_SEALS: WeakKeyDictionary[Engine, Seal] = WeakKeyDictionary()


def attach_seal(engine: Engine, seal: Seal) -> None:
    """Key every event this engine writes and anchor its head (every session on the engine), also
    after `engine.dispose()` (a forked writer's first step), which gives the engine a new pool."""
    _SEALS[engine.pool] = _ENGINE_SEALS[engine] = seal
    if not orm_event.contains(engine, "engine_disposed", _seal_new_pool):
        orm_event.listen(engine, "engine_disposed", _seal_new_pool)


def _seal_new_pool(engine: Engine) -> None:
    seal = _ENGINE_SEALS.get(engine)
    if seal is not None:
        _SEALS[engine.pool] = seal


def seal_of(session: Session) -> Seal | None:
    bind = session.get_bind()
    return _SEALS.get(bind.pool) if isinstance(bind, Engine) else None


class AnchorUnreadable(RuntimeError):
    """The anchor's file exists but does not hold an anchor."""


class MissingAuditKey(RuntimeError):
    def __init__(self) -> None:
        super().__init__(
            "The audit log is keyed, and this process has no key: start it with the same "
            "MEMORY_REVIEW_AUDIT_KEY or data folder as the others."
        )


def key_for(seq: int, keyed_after: int | None, seal: Seal | None) -> bytes | None:
    """The HMAC key of event `seq`, or None where the chain is plain SHA-256."""
    if keyed_after is None or seq <= keyed_after:
        return None
    if seal is None:
        raise MissingAuditKey()
    return seal.key


def record(
    session: Session,
    *,
    actor: Actor,
    action: AuditAction,
    target_type: AuditTarget,
    target_id: int | None,
    athlete_id: int | None,
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
    reason: str | None = None,
) -> None:
    """Queue one event of this transaction; `write_pending` chains and writes it at commit."""
    actor_id, actor_label = actor_identity(actor)
    event = {
        "actor_id": actor_id,
        "actor_label": actor_label,
        "action": action,
        "athlete_id": athlete_id,
        "target_type": target_type,
        "target_id": target_id,
        "before": before,
        "after": after,
        "before_digest": digest(before),
        "after_digest": digest(after),
        "redacted": False,
        "reason": reason,
    }
    session.info.setdefault(_PENDING_KEY, []).append(event)


_PENDING_KEY = "memory_review_audit_pending"
_EVENTS = cast(Table, AuditEvent.__table__)
_HEADS = cast(Table, AuditHead.__table__)
_INSERT_EVENTS = Prepared(insert(_EVENTS))
_LOCK_HEAD = select(_HEADS.c.seq, _HEADS.c.hash, _HEADS.c.keyed_after).where(_HEADS.c.id == 1).with_for_update()
_COMMITTED_KEY = "memory_review_audit_committed"
_MOVE_HEAD = update(_HEADS).where(_HEADS.c.id == 1).values(seq=bindparam("new_seq"), hash=bindparam("new_hash"))
# The head moves only if it is still the one this process last committed: the same seq, hash and
# keyed part, so the chain computed on it is exactly the one a fresh read of the head would give.
_MOVE_KNOWN_HEAD = Prepared(
    _MOVE_HEAD.where(
        _HEADS.c.seq == bindparam("old_seq"),
        _HEADS.c.hash == bindparam("old_hash"),
        _HEADS.c.keyed_after.is_not_distinct_from(bindparam("old_keyed_after", type_=Integer)),
    )
)
_HEAD_KEY = "memory_review_audit_head"


@dataclass(frozen=True)
class _Head:
    seq: int
    hash: str
    keyed_after: int | None


# Per engine (its pool): the head as this process's last commit that wrote events left it.
_KNOWN_HEADS: WeakKeyDictionary[Pool, _Head] = WeakKeyDictionary()


class _Columns:
    """An event's columns as attributes, for event_hash (a mapped instance costs more to build)."""

    def __init__(self, values: dict[str, Any]) -> None:
        self.__dict__.update(values)


def _chain(events: list[dict[str, Any]], head: _Head, seal: Seal | None) -> _Head:
    """Number and hash the events onto `head`; the head after them."""
    seq, prev_hash, at = head.seq, head.hash, utcnow()
    for event in events:
        seq += 1
        event.update(seq=seq, at=at, prev_hash=prev_hash)
        key = key_for(seq, head.keyed_after, seal)
        event["hash"] = prev_hash = event_hash(cast(AuditEvent, _Columns(event)), prev_hash, key)
    return _Head(seq, prev_hash, head.keyed_after)


def _pool(session: Session) -> Pool | None:
    bind = session.get_bind()
    return bind.pool if isinstance(bind, Engine) else None


def _insert_and_move() -> TextClause:
    """PostgreSQL: one event and the head's move in one statement (the move a data-modifying CTE).
    A text statement with typed parameters: Core's form of it (an UPDATE CTE) is not cacheable,
    and compiling it each time costs more than the round trip it saves."""
    columns = [column for column in _EVENTS.columns if column.key != "pending_id"]  # chained in place: none
    names = ", ".join(f'"{column.name}"' for column in columns)
    values = ", ".join(f":{column.key}" for column in columns)
    return text(
        "WITH moved_head AS (UPDATE audit_head SET seq = :new_seq, hash = :new_hash WHERE id = 1) "
        f"INSERT INTO audit_events ({names}) VALUES ({values})"
    ).bindparams(
        *(bindparam(column.key, type_=column.type) for column in columns),
        bindparam("new_seq", type_=_HEADS.c.seq.type),
        bindparam("new_hash", type_=_HEADS.c.hash.type),
    )


_INSERT_AND_MOVE = Prepared(_insert_and_move())
_MOVE = Prepared(_MOVE_HEAD)


def _insert_events(connection: Connection, events: list[dict[str, Any]]) -> None:
    if len(events) == 1:
        _INSERT_EVENTS.run(connection, events[0])
    else:
        _INSERT_EVENTS.run_many(connection, events)


def _write_locked(connection: Connection, events: list[dict[str, Any]], seal: Seal | None) -> _Head:
    """Lock and read the head, chain the events onto it, write them and move the head."""
    return _write_on(connection, events, _lock_head(connection), seal)


def _write_on(connection: Connection, events: list[dict[str, Any]], held: _Head, seal: Seal | None) -> _Head:
    """Chain the events onto the head this transaction holds, write them and move the head."""
    head = _chain(events, held, seal)
    if connection.dialect.name == "postgresql":  # one round trip for the events and the head
        moves = {"new_seq": head.seq, "new_hash": head.hash}
        if len(events) == 1:
            _INSERT_AND_MOVE.run(connection, {**events[0], **moves})
        else:  # psycopg pipelines an executemany: each row moves the head to the same last event
            _INSERT_AND_MOVE.run_many(connection, [{**event, **moves} for event in events])
    else:
        _insert_events(connection, events)
        _MOVE.run(connection, {"new_seq": head.seq, "new_hash": head.hash})
    return head


def write_pending(session: Session) -> None:
    """Write the transaction's queued events, chained onto the head, or (PostgreSQL, when another
    transaction holds the head) waiting to be chained right after the commit.

    SQLite (one writer at a time, so the head seldom moves behind a process's back): the head moves
    on the condition that it is still the one this process last committed (seq, hash and keyed part),
    the events chained onto that, and one more statement writes them. If another process moved it
    meanwhile (or nothing is known yet), that update changes nothing, and the head is locked and
    read, the events chained onto it and written, and the head moved.

    PostgreSQL: if no one holds the head, this transaction takes it (the statement that locks it also
    says whether events are waiting), chains what is waiting and then its own events, and holds it to
    its commit, as every write did before. If another transaction holds it, this one does not queue
    for it: its events go to audit_pending, in this transaction, so they commit with the change or not
    at all, and the next transaction to take the head chains them, with every other event waiting by
    then, in one statement. So writers that find the head taken commit side by side, and one holder
    chains a batch. A transaction that reads the audit log has what is waiting chained first
    (`_write_before_reading`), as do `audit verify` and the start of the app (`chain_waiting_now`).

    The head is the LAST lock a writing transaction takes: its row writes are flushed first, and
    this runs at commit (or just before the transaction reads the audit log itself), so there is one
    lock order for every write path (rows, then the head; no deadlock).
    """
    events: list[dict[str, Any]] | None = session.info.pop(_PENDING_KEY, None)
    if not events:
        return
    session.flush()
    connection = session_connection(session)
    seal = seal_of(session)
    if connection.dialect.name == "sqlite":
        _write_sqlite(session, connection, events, seal)
        return
    if _HOLDS_HEAD_KEY not in session.info and _schema_current(connection):
        taken = _take_head_or_defer(connection, events, seal)
        if taken is None:  # another transaction holds the head: the events wait in audit_pending
            return
        session.info[_HOLDS_HEAD_KEY] = True
        head, waiting = taken
        if waiting:
            head = _chain_waiting_locked(connection, head, seal)
        head = _write_on(connection, events, head, seal)
    else:
        head = _write_locked(connection, events, seal)
    _note_committed(session, head, seal)


def _write_sqlite(session: Session, connection: Connection, events: list[dict[str, Any]], seal: Seal | None) -> None:
    pool = _pool(session)
    # This transaction's own head if it wrote events already (before reading the log), else the last commit's.
    known = session.info.get(_HEAD_KEY) or (_KNOWN_HEADS.get(pool) if pool is not None else None)
    head = None
    if known is not None:
        head = _chain(events, known, seal)
        moved = _MOVE_KNOWN_HEAD.run(
            connection,
            {
                "new_seq": head.seq,
                "new_hash": head.hash,
                "old_seq": known.seq,
                "old_hash": known.hash,
                "old_keyed_after": known.keyed_after,
            },
        )
        if moved.rowcount == 1:
            _insert_events(connection, events)
        else:
            head = None
    if head is None:
        head = _write_locked(connection, events, seal)
    if pool is not None:  # the head this process leaves, to move on the condition it is still there
        session.info[_HEAD_KEY] = head
    _note_committed(session, head, seal)


def _note_committed(session: Session, head: _Head, seal: Seal | None) -> None:
    """The anchor moves to `head` once this transaction has committed."""
    if seal is not None and head.keyed_after is not None:
        session.info[_COMMITTED_KEY] = (head.seq, head.hash, head.keyed_after)


# --- PostgreSQL: events wait in audit_pending from their change's commit until they are chained ---

_WAITING = cast(Table, AuditPending.__table__)
_INSERT_WAITING = Prepared(insert(_WAITING))
_CHAINED_FOR_READING_KEY = "memory_review_audit_chained_for_reading"  # done once per transaction
_HOLDS_HEAD_KEY = "memory_review_audit_holds_head"  # this transaction locked the head: it chains in place
_TEXT_FIELDS = frozenset({"action", "target_type"})
_MAC_FIELDS = (
    "id",
    "at",
    "actor_id",
    "actor_label",
    "action",
    "athlete_id",
    "target_type",
    "target_id",
    "before_digest",
    "after_digest",
    "reason",
)
_CHAINED = _EVENTS.alias("chained")
# Each waiting event, its action and target as written (a forged one may hold any text: read as an
# enum it would fail every writer), and the seq of a chained event that waited under the same id.
_READ_WAITING = select(
    *(type_coerce(_WAITING.c[name], String) if name in _TEXT_FIELDS else _WAITING.c[name] for name in _MAC_FIELDS),
    _WAITING.c.mac,
    select(_CHAINED.c.seq).where(_CHAINED.c.pending_id == _WAITING.c.id).scalar_subquery().label("chained_as"),
).order_by(_WAITING.c.at, _WAITING.c.id)
# Per engine (its pool) without a seal: the chain was found plain (not keyed), so waiting events need no MAC.
_PLAIN_CHAINS: WeakKeyDictionary[Pool, bool] = WeakKeyDictionary()
_log = logging.getLogger(__name__)


def waiting_mac(event: Mapping[str, Any], key: bytes) -> str:
    """A waiting event's HMAC under the chain's key: whoever can write the database cannot add an
    event for the next writer to chain, nor change a waiting one, nor copy one (its id is covered)."""
    body = {name: event[name] for name in _MAC_FIELDS}
    body["at"] = _timestamp(body["at"])
    return hmac.digest(key, b"audit-waiting\x00" + canonical_json(body).encode(), "sha256").hex()


# Per engine (its pool): its schema is at 0012_audit_refused or later (audit_refused, and the chained
# events' pending_id). Found once; until then looked up on each use, since a database being migrated
# in this process gets there (an older one chains in place, as before 0011, and verify reads no pending_id).
_CURRENT_SCHEMAS: WeakKeyDictionary[Pool, bool] = WeakKeyDictionary()


def _schema_current(connection: Connection) -> bool:
    pool = connection.engine.pool
    if pool in _CURRENT_SCHEMAS:
        return True
    found = connection.dialect.has_table(connection, cast(Table, AuditRefused.__table__).name)
    if found:
        _CURRENT_SCHEMAS[pool] = True
    return found


def forget_current_schema(connection: Connection) -> None:
    """A migration took the schema below 0012 (its downgrade): look it up again."""
    _CURRENT_SCHEMAS.pop(connection.engine.pool, None)


def _waiting_key(connection: Connection, seal: Seal | None) -> bytes | None:
    """The key to sign waiting events with; None on a plain chain. A keyed chain and no key: refused,
    as a chained write would be (read once per engine: a chain, once keyed, stays keyed)."""
    if seal is not None:
        return seal.key
    pool = connection.engine.pool
    if pool not in _PLAIN_CHAINS:
        if connection.execute(select(_HEADS.c.keyed_after).where(_HEADS.c.id == 1)).scalar() is not None:
            raise MissingAuditKey()
        _PLAIN_CHAINS[pool] = True
    return None


def _waiting_rows(connection: Connection, events: list[dict[str, Any]], seal: Seal | None) -> list[dict[str, Any]]:
    """The events as audit_pending rows, signed."""
    key = _waiting_key(connection, seal)
    # One time for the transaction's events, and ids that follow on from a random one: chained in
    # the order they were recorded (by time, then id), and two transactions' ids never meet.
    at, first = utcnow(), secrets.randbits(62)
    rows = []
    for number, event in enumerate(events):
        row = {name: event[name] for name in _WAITING_COLUMNS if name in event}
        row.update(id=first + number, at=at)
        row["mac"] = waiting_mac(row, key) if key is not None else None
        rows.append(row)
    return rows


def _defer(connection: Connection, events: list[dict[str, Any]], seal: Seal | None) -> None:
    rows = _waiting_rows(connection, events, seal)
    if len(rows) == 1:
        _INSERT_WAITING.run(connection, rows[0])
    else:
        _INSERT_WAITING.run_many(connection, rows)


def _take_or_defer_statement() -> TextClause:
    """The head if no one holds it, locked (as _TRY_HEAD); if someone does, the one event goes to
    audit_pending in the same statement. A text statement with typed parameters (as _insert_and_move)."""
    columns = list(_WAITING.columns)
    names = ", ".join(f'"{column.name}"' for column in columns)
    values = ", ".join(f":{column.key}" for column in columns)
    return text(
        "WITH head AS (SELECT seq, hash, keyed_after, EXISTS (SELECT 1 FROM audit_pending) AS waiting "
        "FROM audit_head WHERE id = 1 FOR UPDATE SKIP LOCKED), "
        f"deferred AS (INSERT INTO audit_pending ({names}) SELECT {values} WHERE NOT EXISTS (SELECT 1 FROM head)) "
        "SELECT seq, hash, keyed_after, waiting FROM head"
    ).bindparams(*(bindparam(column.key, type_=column.type) for column in columns))


_TAKE_OR_DEFER = Prepared(_take_or_defer_statement())
# Per engine (its pool): this process's last writer found the head held by another transaction.
_CONTENDED: WeakKeyDictionary[Pool, bool] = WeakKeyDictionary()


def _take_head_or_defer(
    connection: Connection, events: list[dict[str, Any]], seal: Seal | None
) -> tuple[_Head, bool] | None:
    """The head, locked for this transaction, and whether events wait in audit_pending; or None, when
    another transaction holds it and the events were written to audit_pending instead.

    While this process's writers keep finding the head held (several instances or processes writing:
    issue 9, 84-86 % of the events of 8 writer processes waited), a transaction of one event asks for
    the head and writes its event to audit_pending in one statement, one round trip fewer; the event's
    row and MAC are then made even when the head turns out free. Otherwise the head is asked for alone
    (_TRY_HEAD), and the events written to audit_pending after it if it is held."""
    pool = connection.engine.pool
    if len(events) == 1 and _CONTENDED.get(pool, False):
        (waiting_row,) = _waiting_rows(connection, events, seal)
        row = _TAKE_OR_DEFER.run(connection, waiting_row).fetchone()
    else:
        row = connection.execute(_TRY_HEAD).first()
        if row is None:
            _defer(connection, events, seal)
    _CONTENDED[pool] = row is None
    if row is None:
        return None
    seq, hash_, keyed_after, waiting = row
    return _Head(seq, hash_, keyed_after), bool(waiting)


_WAITING_COLUMNS = tuple(column.key for column in _WAITING.columns)


def _lock_head(connection: Connection) -> _Head:
    seq, hash_, keyed_after = connection.execute(_LOCK_HEAD).one()
    return _Head(seq, hash_, keyed_after)


def _chain_statement() -> TextClause:
    """Every chained waiting event moved into audit_events and the head moved, in one statement."""
    columns = [column.name for column in _EVENTS.columns]
    taken = {"seq": "c.seq", "prev_hash": "c.prev_hash", "hash": "c.hash", "redacted": "false", "pending_id": "p.id"}
    names = ", ".join(f'"{name}"' for name in columns)
    values = ", ".join(taken.get(name, f'p."{name}"') for name in columns)
    return text(
        "WITH c AS (SELECT * FROM unnest(CAST(:ids AS bigint[]), CAST(:seqs AS integer[]), "
        "CAST(:prev_hashes AS varchar[]), CAST(:hashes AS varchar[])) AS c(id, seq, prev_hash, hash)), "
        "moved_head AS (UPDATE audit_head SET seq = :new_seq, hash = :new_hash WHERE id = 1), "
        f"moved AS (DELETE FROM audit_pending AS p USING c WHERE p.id = c.id RETURNING {values}) "
        f"INSERT INTO audit_events ({names}) SELECT * FROM moved"
    )


_CHAIN_WAITING = _chain_statement()


def _chain_waiting_locked(connection: Connection, head: _Head, seal: Seal | None) -> _Head:
    """Chain every committed waiting event onto `head`, which this transaction has locked: read after
    the lock, so an event a writer before us chained is no longer there. A waiting event whose MAC
    does not match (keyed chain), or a copy of one chained already, is moved to audit_refused instead
    (domain.audit_refused): read and refused once, for `audit verify` and the admin to report."""
    return _chain_and_refuse(connection, head, seal)[0]


def _chain_and_refuse(connection: Connection, head: _Head, seal: Seal | None) -> tuple[_Head, int]:
    """`_chain_waiting_locked`, and how many waiting events it refused."""
    if connection.dialect.name != "postgresql" or not _schema_current(connection):
        return head, 0  # SQLite chains each event in its writer's transaction: nothing waits there
    rows = [dict(row) for row in connection.execute(_READ_WAITING).mappings()]
    if not rows:
        return head, 0
    key = seal.key if head.keyed_after is not None and seal is not None else None
    if head.keyed_after is not None and key is None:
        raise MissingAuditKey()
    ids, seqs, prev_hashes, hashes = [], [], [], []
    refusals: list[Refusal] = []
    seq, prev_hash = head.seq, head.hash
    for row in rows:
        if row["chained_as"] is not None:
            refusals.append(Refusal(row["id"], COPIED.format(seq=row["chained_as"]), row["chained_as"]))
            continue
        if key is not None and not hmac.compare_digest(row["mac"] or "", waiting_mac(row, key)):
            refusals.append(Refusal(row["id"], NOT_SIGNED))
            continue
        seq += 1
        event = cast(ChainedEvent, _Columns({**row, "seq": seq, "pending_id": row["id"]}))
        prev_hash, previous = event_hash(event, prev_hash, key), prev_hash
        ids.append(row["id"])
        seqs.append(seq)
        prev_hashes.append(previous)
        hashes.append(prev_hash)
    if refusals:
        for refusal in refusals:
            _log.warning("audit event waiting as #%s refused and set aside: %s", refusal.pending_id, refusal.problem)
        refuse(connection, refusals)
    if not ids:
        return head, len(refusals)
    parameters = {"ids": ids, "seqs": seqs, "prev_hashes": prev_hashes, "hashes": hashes}
    moved = connection.execute(_CHAIN_WAITING, {**parameters, "new_seq": seq, "new_hash": prev_hash})
    if moved.rowcount != len(ids):  # cannot happen while we hold the head: never chain with a gap
        raise RuntimeError(f"chained {moved.rowcount} of {len(ids)} waiting audit events; rolled back")
    return _Head(seq, prev_hash, head.keyed_after), len(refusals)


def chain_waiting(connection: Connection, seal: Seal | None) -> int | None:
    """Lock the head and chain every committed waiting event onto it, in the connection's transaction
    (the caller commits); the head's seq after them, None if none was waiting."""
    head = _lock_head(connection)
    moved = _chain_waiting_locked(connection, head, seal)
    return moved.seq if moved != head else None


# The head if no one holds it, locked, and whether any event was waiting at the statement's start:
# the events committed later are chained by the next transaction to take the head.
_TRY_HEAD = (
    select(_HEADS.c.seq, _HEADS.c.hash, _HEADS.c.keyed_after, exists(select(_WAITING.c.id)).label("waiting"))
    .where(_HEADS.c.id == 1)
    .with_for_update(skip_locked=True)
)


def _advance(seal: Seal | None, head: _Head) -> None:
    if seal is not None and head.keyed_after is not None:
        seal.advance(head.seq, head.hash, head.keyed_after)


def chain_waiting_now(bind: Engine | Connection) -> None:
    """Queue for the head and chain every committed waiting event, in a transaction of its own: before
    a verify run, at start (the events of a process killed between its commit and their chaining)."""
    if bind.dialect.name != "postgresql":
        return
    seal = _SEALS.get(bind.engine.pool)
    with bind.connect() if isinstance(bind, Engine) else contextlib.nullcontext(bind) as connection:
        with connection.begin() as transaction:
            head = _lock_head(connection)
            moved, refused = _chain_and_refuse(connection, head, seal)
            if moved == head and not refused:
                transaction.rollback()
                return
        _advance(seal, moved)


def _hold_head(session: Session) -> None:
    """PostgreSQL: this writing transaction reads the audit log, so it locks the head now and chains
    what is waiting first; it sees every event committed before it, and chains its own in place."""
    connection = session.connection()
    seal = seal_of(session)
    head = _lock_head(connection)
    moved = _chain_waiting_locked(connection, head, seal)
    session.info[_HOLDS_HEAD_KEY] = True
    if moved != head:
        _note_committed(session, moved, seal)


def _writes(bind: Engine | Connection) -> bool:
    return isinstance(bind, Engine) and bool(bind.get_execution_options().get(WRITER, False))


@orm_event.listens_for(Session, "before_commit")
def _write_at_commit(session: Session) -> None:
    write_pending(session)


@orm_event.listens_for(Session, "do_orm_execute")
def _write_before_reading(state: ORMExecuteState) -> None:
    """A transaction that reads the audit log sees its own events (e.g. a hard delete redacting the
    events of a memory made in the same transaction), and on PostgreSQL every event committed before
    it: a writing one takes the head and chains what is waiting (so a hard delete redacts an edit
    committed just before it too), a reading one has what is waiting chained first."""
    if not state.is_select:
        return
    session = state.session
    queued = bool(session.info.get(_PENDING_KEY))
    # PostgreSQL, once per transaction: a statement about the chain's own rows (its entity, cheap to
    # tell; every reader of the log selects events or the head)
    chain = (
        state.bind_mapper in _CHAIN_MAPPERS
        and _HOLDS_HEAD_KEY not in session.info
        and _CHAINED_FOR_READING_KEY not in session.info
    )
    if chain:
        chain_before_reading(session)
    if queued and _CHAIN_TABLES & set(find_tables(cast(ClauseElement, state.statement))):
        write_pending(session)


_CHAIN_TABLES = {_EVENTS, _HEADS, _WAITING}
_CHAIN_MAPPERS = {AuditEvent.__mapper__, AuditHead.__mapper__, AuditPending.__mapper__, AuditRefused.__mapper__}


def chain_before_reading(session: Session) -> None:
    """PostgreSQL: have every event committed so far chained before this transaction reads the log.

    A writing transaction takes the head and chains what waits in place (`_hold_head`). A reading
    one does it on its own connection, never on a second one from the pool (N readers holding the
    pool's N connections, each waiting for another, would wait for the pool's timeout): if it has
    written nothing and reads committed data (each statement sees what was committed before it
    anyway), its transaction ends there, one of its own chains what waits (bounded by
    READER_LOCK_TIMEOUT_MS for the head), and its next statement begins a new one. A reader that
    cannot (a transaction begun explicitly, unflushed changes, another isolation level) chains on
    a second connection as before."""
    bind = session.get_bind()
    if bind.dialect.name != "postgresql":
        return
    if _writes(bind):
        if _HOLDS_HEAD_KEY not in session.info:
            _hold_head(session)
        return
    session.info[_CHAINED_FOR_READING_KEY] = True
    connection = session.connection()
    if not _schema_current(connection):
        return
    state = connection.execute(_READER_STATE).one()
    if not state.waiting or not isinstance(bind, Engine):
        return
    transaction = session.get_transaction()
    if (
        state.wrote_nothing
        and state.read_committed
        and transaction is not None
        and transaction.origin is SessionTransactionOrigin.AUTOBEGIN
        and not session.in_nested_transaction()
        and not (session.new or session.dirty or session.deleted or session.info.get(_PENDING_KEY))
    ):
        _chain_in_a_turn_of_its_own(session)
        session.info[_CHAINED_FOR_READING_KEY] = True
    else:
        chain_waiting_now(bind)  # its own transaction: this one's next statement sees them


READER_LOCK_TIMEOUT_MS = 5000  # a reader waits this long for the head at most, then reads without chaining
_READER_STATE = text(
    "SELECT EXISTS (SELECT 1 FROM audit_pending) AS waiting, "
    "pg_current_xact_id_if_assigned() IS NULL AS wrote_nothing, "
    "current_setting('transaction_isolation') = 'read committed' AS read_committed"
)
_LOCK_NOT_AVAILABLE = "55P03"


def _chain_in_a_turn_of_its_own(session: Session) -> None:
    """End the reader's transaction (it wrote nothing: committing it changes no data), chain what
    waits in a transaction of its own on the same connection, and commit that. Loaded objects stay
    loaded (nothing is expired, as after a rollback or an expiring commit)."""
    expire_on_commit, session.expire_on_commit = session.expire_on_commit, False
    try:
        session.commit()
        connection = session.connection()
        connection.exec_driver_sql(f"SET LOCAL lock_timeout = {int(READER_LOCK_TIMEOUT_MS)}")
        seal = seal_of(session)
        try:
            with session.begin_nested():  # a lock timeout undoes only this part
                head = _lock_head(connection)
                moved, _ = _chain_and_refuse(connection, head, seal)
        except DBAPIError as error:
            if getattr(error.orig, "sqlstate", None) != _LOCK_NOT_AVAILABLE:
                raise
            _log.warning("the audit chain's head was held over %s ms: read without chaining", READER_LOCK_TIMEOUT_MS)
        else:
            if moved != head:
                _note_committed(session, moved, seal)
        session.commit()
    finally:
        session.expire_on_commit = expire_on_commit


@orm_event.listens_for(Session, "after_commit")
def _anchor_at_commit(session: Session) -> None:
    head: _Head | None = session.info.pop(_HEAD_KEY, None)
    if head is not None and (pool := _pool(session)) is not None:
        _KNOWN_HEADS[pool] = head
    committed = session.info.pop(_COMMITTED_KEY, None)
    seal = seal_of(session) if committed else None  # most commits wrote no event: no lookup for them
    if seal is not None:
        seal.advance(*committed)


_TRANSACTION_KEYS = (_PENDING_KEY, _COMMITTED_KEY, _HEAD_KEY, _HOLDS_HEAD_KEY, _CHAINED_FOR_READING_KEY)
_SAVEPOINTS_KEY = "memory_review_audit_savepoints"  # per open savepoint: the audit state at its start


@orm_event.listens_for(Session, "after_transaction_create")
def _mark_savepoint(session: Session, transaction: SessionTransaction) -> None:
    """A savepoint rolled back undoes the rows written in it, events and the head's move included, and
    (PostgreSQL) the head's lock if it took it there: what this transaction knows of its audit state
    then goes back to what it was when the savepoint began (`_undo_savepoint`)."""
    if transaction.nested:
        state = {key: session.info[key] for key in _TRANSACTION_KEYS if key in session.info}
        if _PENDING_KEY in state:
            state[_PENDING_KEY] = list(state[_PENDING_KEY])  # queued events written in the savepoint come back
        session.info.setdefault(_SAVEPOINTS_KEY, {})[transaction] = state


@orm_event.listens_for(Session, "after_soft_rollback")
def _undo_savepoint(session: Session, previous_transaction: SessionTransaction) -> None:
    state = session.info.get(_SAVEPOINTS_KEY, {}).pop(previous_transaction, None)
    if state is None:
        return
    for key in _TRANSACTION_KEYS:
        if key in state:
            session.info[key] = state[key]
        else:
            session.info.pop(key, None)


@orm_event.listens_for(Session, "after_transaction_end")
def _forget_pending(session: Session, transaction: SessionTransaction) -> None:
    if transaction.parent is None:  # a savepoint's mark stays to here (its rollback is told after its end)
        for key in (*_TRANSACTION_KEYS, _SAVEPOINTS_KEY):
            session.info.pop(key, None)


class ChainedEvent(Protocol):
    """An event as the chain covers it: a mapped AuditEvent, or a row of its columns (verify reads rows)."""

    seq: int
    at: datetime
    actor_id: int | None
    actor_label: str
    action: AuditAction
    athlete_id: int | None
    target_type: AuditTarget
    target_id: int | None
    before: dict[str, Any] | None
    after: dict[str, Any] | None
    before_digest: str | None
    after_digest: str | None
    redacted: bool
    reason: str | None
    prev_hash: str
    hash: str
    pending_id: int | None


@dataclass(frozen=True)
class Checkpoint:
    """A point of the chain found whole: event `seq` has `hash` (seq 0 is the genesis)."""

    seq: int
    hash: str


GENESIS = Checkpoint(0, GENESIS_HASH)


@dataclass(frozen=True)
class ChainReport:
    ok: bool
    events_checked: int
    first_bad_seq: int | None = None
    problem: str | None = None
    verified: Checkpoint = GENESIS  # the last event found whole: the chain's head when ok
    start_seq: int = 0  # the checkpoint the run started from; 0: the first event

    def summary(self) -> str:
        if not self.ok:
            return f"Audit chain broken at event {self.first_bad_seq}: {self.problem}"
        if self.start_seq == 0:
            return f"Audit chain verified: {self.events_checked:,} events"
        return (
            f"Audit chain verified up to event #{self.verified.seq:,} "
            f"({self.events_checked:,} new since the checkpoint at #{self.start_seq:,})"
        )


def verify_chain(
    session: Session,
    *,
    start: Checkpoint | None = None,
    known: Mapping[int, str] | None = None,
    batch_size: int = 5000,
) -> ChainReport:
    """Recompute the chain from the first event, or from `start`: a checkpoint, whose event is
    checked again (still there, same hash, unchanged) and only the events after it are read.

    `known` (seq → hash, from earlier checkpoints) are events that must still exist with those
    hashes: so cutting events off the end of the chain and rewinding the head is caught too.
    Events are read up to the head as it was first read, so writers may go on meanwhile.
    With a seal (a keyed chain) the anchor outside the database must be in the chain as well.
    """
    seal = seal_of(session)
    try:
        anchor = seal.anchor() if seal is not None else None  # first: the head read next is at least as new
    except AnchorUnreadable as error:
        return ChainReport(False, 0, 0, str(error), GENESIS, start.seq if start is not None else 0)
    head = session.execute(
        select(AuditHead.seq, AuditHead.hash, AuditHead.keyed_after).where(AuditHead.id == 1)
    ).first()
    start_seq = start.seq if start is not None else 0
    verified = start or GENESIS
    checked = 0

    def broken(seq: int, problem: str) -> ChainReport:
        return ChainReport(False, checked, seq, problem, verified, start_seq)

    keyed_after = head.keyed_after if head is not None else None
    if anchor is not None:
        if keyed_after != anchor.keyed_after:
            return broken(min(anchor.keyed_after, keyed_after or 0) + 1, _BOUNDARY_MOVED)
        if head is None or head.seq < anchor.seq:
            return broken((head.seq if head else 0) + 1, _CUT_OFF.format(anchor=anchor.seq))
    keys = _Keys(keyed_after, seal)
    removed = _RemovedTargets(session, keys.legacy_up_to)
    if start is not None and (problem := _recheck(session, start, removed, keys)):
        return broken(start.seq, problem)
    known = {seq: hash_ for seq, hash_ in (known or {}).items() if seq > verified.seq}
    if anchor is not None and anchor.seq > 0:
        if anchor.seq > verified.seq:
            known[anchor.seq] = anchor.hash
        elif (problem := _anchored(session, anchor)) is not None:
            return broken(anchor.seq, problem)
    try:
        for event in _events_after(session, verified.seq, head.seq if head else None, batch_size):
            problem = _check(event, verified.seq + 1, verified.hash, removed, keys.of(event.seq))
            if problem is None and known.get(event.seq, event.hash) != event.hash:
                problem = "its hash differs from the one a checkpoint (or the anchor) recorded"
            if problem:
                return broken(event.seq, problem)
            verified = Checkpoint(event.seq, event.hash)
            checked += 1
    except MissingAuditKey as error:
        return broken(verified.seq + 1, str(error))
    if head is not None and (head.seq != verified.seq or head.hash != verified.hash):
        return broken(verified.seq + 1, "events after this point are missing")
    if problem := _beyond_head(session, verified, known):
        return broken(verified.seq + 1, problem)
    if problem := _forged_waiting(session, keys):
        return broken(verified.seq + 1, problem)
    return ChainReport(True, checked, verified=verified, start_seq=start_seq)


def _forged_waiting(session: Session, keys: _Keys) -> str | None:
    """Events waiting to be chained are not part of the chain yet. One refused by a writer (set aside
    in audit_refused), a copy of one chained already, or (keyed chain) one without its writer's MAC
    was put there or changed by someone else, and no writer will chain it."""
    if not _schema_current(session.connection()):
        return None  # a database between migrations, before 0012: nothing waits (its writers chain in place)
    if problem := refused_problem(session):
        return problem
    rows = session.execute(_READ_WAITING).mappings().all()
    if not rows:
        return None
    for row in rows:
        if row["chained_as"] is not None:
            return f"an event waiting to be chained (#{row['id']}) is {COPIED.format(seq=row['chained_as'])}"
    if keys.keyed_after is None:
        return None
    try:
        key = keys.of(keys.keyed_after + 1)
    except MissingAuditKey as error:
        return str(error)
    for row in rows:
        if key is not None and not hmac.compare_digest(row["mac"] or "", waiting_mac(dict(row), key)):
            return f"an event waiting to be chained (#{row['id']}) was {NOT_SIGNED}"
    return None


_BOUNDARY_MOVED = "where the keyed chain starts differs from the anchor outside the database"
_CUT_OFF = "the anchor outside the database says event {anchor} was written; the chain ends before it"


class _Keys:
    """Which events are keyed: those after `keyed_after` (None: none are)."""

    def __init__(self, keyed_after: int | None, seal: Seal | None) -> None:
        self.keyed_after, self.seal = keyed_after, seal
        # Without a key, or before it, redactions are checked the old way (only their targets).
        self.legacy_up_to = keyed_after if keyed_after is not None else _NO_KEY

    def of(self, seq: int) -> bytes | None:
        return key_for(seq, self.keyed_after, self.seal)


_NO_KEY = 2**62  # an unkeyed chain: every event is legacy


def _anchored(session: Session, anchor: Anchor) -> str | None:
    """The anchored event, at or below the checkpoint a run starts from: still there, same hash."""
    found = session.scalar(select(AuditEvent.hash).where(AuditEvent.seq == anchor.seq))
    if found != anchor.hash:
        return "the anchor outside the database recorded this event with another hash (or it is gone)"
    return None


def _columns(session: Session) -> Select[Any]:
    """Rows of the event's columns, not mapped objects: half the work per event of a full run
    (without pending_id on a database not migrated to 0012 yet: no event there has one)."""
    if _schema_current(session.connection()):
        return select(*_EVENTS.columns)
    return select(*(column for column in _EVENTS.columns if column.key != "pending_id"))


def _events_after(session: Session, after: int, up_to: int | None, batch_size: int) -> Iterator[ChainedEvent]:
    last = after
    while True:
        stmt = _columns(session).where(AuditEvent.seq > last)
        if up_to is not None:
            stmt = stmt.where(AuditEvent.seq <= up_to)
        batch: list[ChainedEvent] = list(session.execute(stmt.order_by(AuditEvent.seq).limit(batch_size)))
        if not batch:
            return
        yield from batch
        last = batch[-1].seq


def _recheck(session: Session, start: Checkpoint, removed: _RemovedTargets, keys: _Keys) -> str | None:
    """The checkpoint's own event: its hash covers its link to the event before it."""
    event: ChainedEvent | None = session.execute(_columns(session).where(AuditEvent.seq == start.seq)).first()
    if event is None:
        return "this event was verified at a checkpoint and is now missing"
    if event.hash != start.hash:
        return "its hash differs from the one the checkpoint recorded"
    try:
        return _check(event, start.seq, event.prev_hash, removed, keys.of(start.seq))
    except MissingAuditKey as error:
        return str(error)


def _beyond_head(session: Session, verified: Checkpoint, known: Mapping[int, str]) -> str | None:
    """Events past the head that is read again now: an event written meanwhile moved the head with it
    (one transaction), so an event still past it, or a checkpoint's event gone, means tampering."""
    newest = session.scalar(select(func.max(AuditEvent.seq)))  # first: the head then is at least as new
    head_seq = session.scalar(select(AuditHead.seq).where(AuditHead.id == 1))
    if head_seq is not None and newest is not None and newest > head_seq:
        return f"event {newest} is past the head of the chain"
    later = {seq: hash_ for seq, hash_ in known.items() if seq > verified.seq}
    if not later:
        return None
    rows = session.execute(select(AuditEvent.seq, AuditEvent.hash).where(AuditEvent.seq.in_(later)))
    found = {seq: hash_ for seq, hash_ in rows}
    for seq in sorted(later):
        if found.get(seq) != later[seq]:
            return f"event {seq} was verified at a checkpoint and is now missing or changed"
    return None


@dataclass(frozen=True)
class _Redaction:
    by: int  # the removal event's seq
    before_digest: str | None
    after_digest: str | None


class _RemovedTargets:
    """What removal events (hard delete, retention purge) redacted: only these may be redacted.

    A removal event lists each event it redacted with the digests of the redacted payloads, under
    its own hash: so a redacted event is checked field by field. Removal events of the legacy part
    of the chain (written before the key) name only their targets, and are checked the old way.
    Read when first asked, so a run over events that carry no redaction never reads them."""

    def __init__(self, session: Session, legacy_up_to: int) -> None:
        self._session = session
        self.legacy_up_to = legacy_up_to
        self._targets: set[tuple[AuditTarget, int | None]] | None = None
        self._events: dict[int, _Redaction] = {}

    def __contains__(self, target: object) -> bool:
        if self._targets is not None and target in self._targets:
            return True
        self._load()  # first use, or a removal committed since
        return target in (self._targets or set())

    def redaction(self, seq: int) -> _Redaction | None:
        if seq not in self._events:
            self._load()
        return self._events.get(seq)

    def _load(self) -> None:
        targets: set[tuple[AuditTarget, int | None]] = set()
        events: dict[int, _Redaction] = {}
        for removal_seq, target_id, after in self._session.execute(
            select(AuditEvent.seq, AuditEvent.target_id, AuditEvent.after).where(AuditEvent.action.in_(REMOVAL_ACTIONS))
        ):
            after = after or {}
            for seq, digests in (after.get(REDACTED_EVENTS) or {}).items():
                if isinstance(digests, list) and len(digests) == 2:
                    events[int(seq)] = _Redaction(removal_seq, digests[0], digests[1])
            if removal_seq <= self.legacy_up_to and REDACTED_EVENTS not in after:
                targets.add((AuditTarget.MEMORY, target_id))
                targets.update((AuditTarget.PROPOSAL, pid) for pid in after.get(REDACTED_PROPOSALS, []))
        self._targets, self._events = targets, events


def _properly_redacted(event: ChainedEvent, removed: Container[tuple[AuditTarget, int | None]]) -> bool:
    if event.action in REMOVAL_ACTIONS:  # a removal event is never redacted: it vouches for the others
        return False
    payloads = [p for p in (event.before, event.after) if p is not None]
    if not all(p.get("redacted") is True and p.get("content") is None and p.get("tags") is None for p in payloads):
        return False
    if isinstance(removed, _RemovedTargets) and (redaction := removed.redaction(event.seq)) is not None:
        # The removal event came later and recorded exactly these redacted payloads.
        return (
            redaction.by > event.seq
            and digest(event.before) == redaction.before_digest
            and digest(event.after) == redaction.after_digest
        )
    return (event.target_type, event.target_id) in removed


def _check(
    event: ChainedEvent,
    expected_seq: int,
    prev_hash: str,
    removed: Container[tuple[AuditTarget, int | None]],
    key: bytes | None = None,
) -> str | None:
    if event.seq != expected_seq:
        return f"expected event {expected_seq} here; an event is missing or out of order"
    if event.prev_hash != prev_hash:
        return "it does not follow the event before it"
    payload_changed = digest(event.before) != event.before_digest or digest(event.after) != event.after_digest
    if payload_changed and not (event.redacted and _properly_redacted(event, removed)):
        return "its before/after payload was changed"
    if event_hash(event, prev_hash, key) != event.hash:
        return "its recorded fields were changed"
    return None
