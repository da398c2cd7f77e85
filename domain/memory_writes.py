"""The one write path for memories: every change is a row write plus one audit event.

No bulk update()/delete() statements on memories anywhere: they would bypass the
version check and the audit log.

The row writes of an insert and of a change are single Core statements (the change checks the
version in its WHERE, as the ORM's versioned UPDATE does), and the mapped object is then brought
to the written state without history, so it stays in the session as a loaded object and the
commit's flush has nothing left to do for it. That is the ORM's flush without its per-object
bookkeeping, which cost several times the statements themselves (issue 9).
"""

from __future__ import annotations

from typing import Any, cast

from sqlalchemy import ColumnDefault, Table, bindparam, insert, inspect, select, update
from sqlalchemy.orm import InstanceState, Session, make_transient_to_detached
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.orm.exc import StaleDataError
from sqlalchemy.orm.instrumentation import manager_of_class
from sqlalchemy.orm.util import identity_key

from domain import audit, memory_tags
from domain.actors import Actor
from domain.dedup import HIGH_CONFIDENCE_OCCURRENCES
from domain.dedup_keys import content_key
from domain.enums import AuditAction, AuditTarget, MemoryConfidence, MemoryStatus
from domain.errors import EditConflict
from domain.memory_rows import NEW_MEMORY, RowReader, attached
from domain.models import AuditEvent, Memory, Proposal
from domain.prepared import Prepared, session_connection
from domain.types import utcnow
from domain.visibility import VISIBLE, with_inactive

CONTENT_FIELDS = ("content", "type", "tags", "confidence")
REDACTED_FIELDS = ("content", "tags")
REMOVED_TEXT = "(removed for good)"
CONFLICT_MESSAGE = "This memory changed meanwhile (another tab or device). Nothing was overwritten."


def snapshot(memory: Memory) -> dict[str, Any]:
    return {
        "content": memory.content,
        "type": memory.type.value,
        "tags": list(memory.tags),
        "confidence": memory.confidence.value,
        "occurrences": memory.occurrences,
        "source": memory.source.value,
        "source_reference": memory.source_reference,
        "status": memory.status.value,
        "superseded_by": memory.superseded_by_id,
        "hidden_from_coach": bool(memory.hidden_from_coach),
        "version": memory.version,
    }


_MEMORIES = cast(Table, Memory.__table__)
_INSERT = Prepared(insert(_MEMORIES))  # SQLite: the new id is the cursor's lastrowid
_INSERT_RETURNING = Prepared(insert(_MEMORIES).returning(_MEMORIES.c.id))
# The SET clause is the parameters' own keys (one compiled form per set of keys).
_UPDATE = Prepared(
    update(_MEMORIES).where(_MEMORIES.c.id == bindparam("b_id"), _MEMORIES.c.version == bindparam("b_version"))
)
_COLUMNS = tuple(column.key for column in _MEMORIES.columns if column.key != "id")
_WRITABLE = frozenset(_COLUMNS) - {"version", "content_key"}


def _column_default(key: str) -> tuple[bool, Any]:
    """The column's Python-side default, and whether it is called for each row (none of the
    memory's columns has a SQL expression one)."""
    default = _MEMORIES.c[key].default
    if not isinstance(default, ColumnDefault):
        return False, None
    return default.is_callable, default.arg


_DEFAULTS = {key: _column_default(key) for key in _COLUMNS}


def new_memory(**fields: Any) -> Memory:
    """A new (transient) memory holding `fields`, as `Memory(**fields)` makes it, its dedup key
    following its content, without the constructor's event per attribute (issue 9)."""
    memory = NEW_MEMORY()
    memory.__dict__.update(fields)
    if "content" in fields:
        memory.__dict__["content_key"] = content_key(fields["content"])
    return memory


def flush_versioned(session: Session, conflict: str) -> None:
    """Flush; a versioned row another transaction changed meanwhile is an EditConflict saying `conflict`."""
    try:
        session.flush()
    except StaleDataError:
        raise EditConflict(conflict) from None


def redacted(payload: dict[str, Any] | None) -> dict[str, Any] | None:
    if payload is None:
        return None
    return {**payload, **{field: None for field in REDACTED_FIELDS}, "redacted": True}


def insert_memory(
    session: Session,
    actor: Actor,
    memory: Memory,
    *,
    action: AuditAction = AuditAction.CREATE,
    reason: str | None = None,
) -> Memory:
    if inspect(memory).transient:
        _insert_row(session, memory)
    else:  # already added to a session by the caller: the flush writes it, with what else is pending
        session.add(memory)
        session.flush()
    memory_tags.sync(session, memory, None, memory_tags.tag_state(memory))
    audit.record(
        session,
        actor=actor,
        action=action,
        target_type=AuditTarget.MEMORY,
        target_id=memory.id,
        athlete_id=memory.athlete_id,
        after=snapshot(memory),
        reason=reason,
    )
    return memory


_ROW = RowReader(select(_MEMORIES).where(_MEMORIES.c.id == bindparam("b_id")))


def load_memory(session: Session, memory_id: int, *, any_status: bool = False) -> Memory | None:
    """What `session.get(Memory, memory_id)` gives (any status: with `with_inactive()`), read as one
    plain row and attached as a loaded object: a fraction of the ORM's cost of loading one row."""
    if identity_key(Memory, memory_id) in session.identity_map:  # session.get hands back that object
        return session.get(Memory, memory_id, execution_options=with_inactive() if any_status else {})
    if session.autoflush:
        session.flush()  # as session.get would before it reads
    row = _ROW.one(session_connection(session), {"b_id": memory_id})
    if row is None or (not any_status and row["status"] != VISIBLE):
        return None
    return attached(session, NEW_MEMORY(), row)


_PROPOSALS = cast(Table, Proposal.__table__)
_PROPOSAL_ROW = RowReader(select(_PROPOSALS).where(_PROPOSALS.c.id == bindparam("b_id")))
_NEW_PROPOSAL = manager_of_class(Proposal).new_instance
_UPDATE_PROPOSAL = Prepared(
    update(_PROPOSALS).where(_PROPOSALS.c.id == bindparam("b_id"), _PROPOSALS.c.version == bindparam("b_version"))
)
_PROPOSAL_WRITABLE = frozenset(column.key for column in _PROPOSALS.columns) - {"id", "version"}


def load_proposal(session: Session, proposal_id: int) -> Proposal | None:
    """What `session.get(Proposal, proposal_id)` gives, read as one plain row (as load_memory)."""
    if identity_key(Proposal, proposal_id) in session.identity_map:
        return session.get(Proposal, proposal_id)
    if session.autoflush:
        session.flush()
    row = _PROPOSAL_ROW.one(session_connection(session), {"b_id": proposal_id})
    return None if row is None else attached(session, _NEW_PROPOSAL(), row)


def change_proposal_row(session: Session, proposal: Proposal, fields: dict[str, Any], conflict: str) -> None:
    """Set a proposal's fields and write them version-checked, as the ORM's versioned flush would
    (a stale version is an EditConflict saying `conflict`): one UPDATE of the columns whose value
    differs, for a loaded proposal with nothing else pending; otherwise through the flush."""
    state = inspect(proposal)
    if not (state.persistent and not state.modified and _PROPOSAL_WRITABLE.issuperset(fields)):
        for name, value in fields.items():
            setattr(proposal, name, value)
        flush_versioned(session, conflict)
        return
    values = {name: value for name, value in fields.items() if getattr(proposal, name) != value}
    if not values:
        return
    _write_versioned(session, proposal, _UPDATE_PROPOSAL, values, conflict)


def _write_versioned(
    session: Session, row: Memory | Proposal, update: Prepared, values: dict[str, Any], conflict: str
) -> None:
    """UPDATE the row's changed `values` and its version where the version is still the one loaded
    (else EditConflict), and keep them in the object as loaded values."""
    session.flush()  # what was queued before it is written before it, as a flush would
    version = row.version
    values["version"] = version + 1
    result = update.run(session_connection(session), {**values, "b_id": row.id, "b_version": version})
    if result.rowcount != 1:
        raise EditConflict(conflict)
    state: InstanceState[Any] = inspect(row)
    if state.committed_state or state.expired_attributes or state.callables:
        for name, value in values.items():
            set_committed_value(row, name, value)
    else:  # nothing pending, expired or deferred: the values go in as a load puts them (a 50th of the cost)
        row.__dict__.update(values)


def _insert_row(session: Session, memory: Memory) -> None:
    """INSERT the new memory's row, every column as the ORM's flush would write it (unset ones take
    their defaults, the version starts at 1), and keep the object in the session as a loaded row."""
    session.flush()  # what was queued before it is written before it, as a flush would
    state = memory.__dict__  # written directly: make_transient_to_detached below commits every value
    for key in _COLUMNS:
        if key not in state:
            called, default = _DEFAULTS[key]
            state[key] = default(None) if called else default
    state["version"] = 1
    values = {key: state[key] for key in _COLUMNS}
    if state.get("id") is not None:  # an id given by the caller is written, as the flush wrote it
        values["id"] = state["id"]
    connection = session_connection(session)
    if connection.dialect.name == "sqlite":
        new_id = _INSERT.run(connection, values).lastrowid
    else:
        new_id = _INSERT_RETURNING.run(connection, values).fetchone()[0]
    state["id"] = new_id
    make_transient_to_detached(memory)
    session.add(memory)


def remove_memory(session: Session, actor: Actor, memory: Memory, *, action: AuditAction, reason: str | None) -> None:
    """Delete the row for good, with one audit event that names what it redacted.

    The memory's own audit payloads, and those of the proposals that became it, lose their
    content but keep their digests, so the chain still verifies; so do those proposal rows.
    Memories it superseded are unlinked.
    """
    memory_tags.sync(session, memory, memory_tags.tag_state(memory), None)
    proposals = session.scalars(select(Proposal).where(Proposal.memory_id == memory.id)).all()
    for proposal in proposals:
        proposal.content, proposal.normalized_content, proposal.tags = REMOVED_TEXT, "", []
    targets = [(AuditTarget.MEMORY, memory.id)] + [(AuditTarget.PROPOSAL, p.id) for p in proposals]
    redactions: dict[str, list[str | None]] = {}  # under the removal event's own hash (domain.audit)
    for target_type, target_id in targets:
        for event in session.scalars(
            select(AuditEvent).where(AuditEvent.target_type == target_type, AuditEvent.target_id == target_id)
        ):
            event.before, event.after, event.redacted = redacted(event.before), redacted(event.after), True
            redactions[str(event.seq)] = [audit.digest(event.before), audit.digest(event.after)]
    for linked in session.scalars(
        select(Memory).where(Memory.superseded_by_id == memory.id).execution_options(**with_inactive())
    ):
        linked.superseded_by_id = None
    audit.record(
        session,
        actor=actor,
        action=action,
        target_type=AuditTarget.MEMORY,
        target_id=memory.id,
        athlete_id=memory.athlete_id,
        before=redacted(snapshot(memory)),
        after={audit.REDACTED_PROPOSALS: [p.id for p in proposals], audit.REDACTED_EVENTS: redactions},
        reason=reason,
    )
    session.delete(memory)
    flush_versioned(session, CONFLICT_MESSAGE)


def change_memory(
    session: Session,
    actor: Actor,
    memory: Memory,
    *,
    action: AuditAction,
    changes: dict[str, Any],
    reason: str | None = None,
    expected_version: int | None = None,
    touch: bool = True,
) -> Memory:
    if expected_version is not None and memory.version != expected_version:
        raise EditConflict(CONFLICT_MESSAGE, current_version=memory.version)
    before, tags_before = snapshot(memory), memory_tags.tag_state(memory)
    if touch:
        changes = {**changes, "updated_at": utcnow()}
    if _row_writable(memory, changes):
        _update_row(session, memory, changes)
    else:
        for name, value in changes.items():
            setattr(memory, name, value)
        flush_versioned(session, CONFLICT_MESSAGE)
    memory_tags.sync(session, memory, tags_before, memory_tags.tag_state(memory))
    audit.record(
        session,
        actor=actor,
        action=action,
        target_type=AuditTarget.MEMORY,
        target_id=memory.id,
        athlete_id=memory.athlete_id,
        before=before,
        after=snapshot(memory),
        reason=reason,
    )
    return memory


def _row_writable(memory: Memory, changes: dict[str, Any]) -> bool:
    """A loaded memory with no changes of its own pending, changed in plain columns: one UPDATE.
    Anything else takes the ORM's flush (it writes what is pending along with the change)."""
    state = inspect(memory)
    return state.persistent and not state.modified and _WRITABLE.issuperset(changes)


def _update_row(session: Session, memory: Memory, changes: dict[str, Any]) -> None:
    """What the ORM's versioned flush writes: the columns whose value differs (the dedup key follows
    the content), the version one up, WHERE the version is still the one read; nothing if no value
    differs. The object then holds the written values as loaded ones."""
    values = {name: value for name, value in changes.items() if getattr(memory, name) != value}
    if "content" in values:
        key = content_key(values["content"])
        if key != memory.content_key:
            values["content_key"] = key
    if not values:
        return
    _write_versioned(session, memory, _UPDATE, values, CONFLICT_MESSAGE)


def count_again(session: Session, actor: Actor, memory: Memory, *, reason: str) -> Memory:
    """The same fact seen again: one more occurrence; from the M13 seed's threshold on, high confidence."""
    occurrences = memory.occurrences + 1
    changes: dict[str, Any] = {"occurrences": occurrences}
    if occurrences >= HIGH_CONFIDENCE_OCCURRENCES:
        changes["confidence"] = MemoryConfidence.HIGH
    return change_memory(session, actor, memory, action=AuditAction.COUNT_AGAIN, changes=changes, reason=reason)


def supersede(session: Session, actor: Actor, old: Memory, *, by: Memory) -> None:
    """A newer memory replaces `old`, which is archived and points to it."""
    change_memory(
        session,
        actor,
        old,
        action=AuditAction.SUPERSEDE,
        touch=False,
        changes={"status": MemoryStatus.ARCHIVED, "archived_at": utcnow(), "superseded_by_id": by.id},
        reason=f"Replaced by memory #{by.id}",
    )


def set_hidden_from_coach(
    session: Session, actor: Actor, memory: Memory, *, hidden: bool, expected_version: int | None = None
) -> Memory:
    """Hide a memory from the coach or show it again; it stays the athlete's, unchanged otherwise."""
    return change_memory(
        session,
        actor,
        memory,
        action=AuditAction.HIDE if hidden else AuditAction.UNHIDE,
        changes={"hidden_from_coach": hidden},
        expected_version=expected_version,
        touch=False,
    )
