"""Reading the audit log: filtered, keyset-paginated pages and one event's diff, as data.

Pages move by `seq` (the chain's own order), never by OFFSET: the millionth event costs
what the first does. Every page is one query plus one existence probe, whatever its size.
A text filter goes through the search index (domain/audit_search.py), never a scan of the log.
The words people read (action labels, summary lines) are the UI's: ui/components/labels.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any, TypeVarTuple

from sqlalchemy import ColumnElement, Select, TableClause, and_, false, select
from sqlalchemy.orm import Session, aliased

from domain import audit_checkpoints
from domain.access_log import record_admin_view
from domain.actors import require_admin
from domain.admin_deleted import day_start
from domain.audit import ChainReport
from domain.audit_search import Narrowing, planned_with, text_scope
from domain.enums import REMOVAL_ACTIONS, AccessKind, AuditAction
from domain.errors import NotFound
from domain.models import AuditEvent, User

MAX_PAGE_SIZE = 200
RECENT_EVENTS = 250  # a PostgreSQL text search tests these events' words, then reads the rest through its index
ALONG_ORDER = {"enable_bitmapscan": False}  # the recent events, each tested for the words
THROUGH_INDEX = {"enable_indexscan": False, "enable_seqscan": False}  # the rest: the text index's matches
MAX_TEXT = 200
STATUS_ACTIONS = frozenset({AuditAction.DELETE, AuditAction.RESTORE, AuditAction.UNDO_DELETE})

Ts = TypeVarTuple("Ts")

FIELD_ORDER = ("content", "type", "tags", "confidence", "occurrences", "status", "source", "source_reference")


@dataclass(frozen=True)
class AuditFilter:
    actor_id: int | None = None
    by_system: bool = False  # events with no user behind them (system, demo, API tokens)
    athlete_id: int | None = None
    action: AuditAction | None = None
    since: date | None = None  # inclusive, UTC day
    until: date | None = None  # inclusive, UTC day
    text: str = ""


@dataclass(frozen=True)
class Summary:
    """What one event did, as data for a one-line summary."""

    action: AuditAction
    subject: str | None = None  # the content, username or reference the event is about
    hidden: bool = False  # the subject's content was removed for good: say so, never show it
    changed: tuple[str, ...] = ()  # for a change: the fields it changed, in reading order


@dataclass(frozen=True)
class AuditRow:
    seq: int
    at: datetime
    actor: str
    action: AuditAction
    athlete: str | None
    athlete_id: int | None
    target: str
    summary: Summary
    reason: str | None
    redacted: bool
    before: dict[str, Any] | None
    after: dict[str, Any] | None


@dataclass(frozen=True)
class AuditPage:
    rows: list[AuditRow]
    has_newer: bool
    has_older: bool

    @property
    def newest_seq(self) -> int | None:
        return self.rows[0].seq if self.rows else None

    @property
    def oldest_seq(self) -> int | None:
        return self.rows[-1].seq if self.rows else None


@dataclass(frozen=True)
class FieldChange:
    field: str
    before: Any  # None when the field did not exist before (a created record)
    after: Any  # None when it does not exist after (a removed record)


def audit_page(
    session: Session,
    actor: User | None,
    *,
    filters: AuditFilter | None = None,
    older_than: int | None = None,
    newer_than: int | None = None,
    page_size: int = 25,
) -> AuditPage:
    """Newest first. `older_than`/`newer_than` are the seq of the row the page continues from."""
    admin = require_admin(actor)
    filters = filters or AuditFilter()
    size = max(1, min(page_size, MAX_PAGE_SIZE))
    scope = _scope(session, filters)
    if newer_than is not None:
        rows = _fetch(session, scope, after=newer_than, ascending=True, limit=size + 1)
        has_newer = len(rows) > size
        rows = list(reversed(rows[:size]))
        has_older = _exists(session, scope, before=newer_than + 1, ascending=False)
    else:
        rows = _fetch(session, scope, before=older_than, ascending=False, limit=size + 1)
        has_older = len(rows) > size
        rows = rows[:size]
        has_newer = older_than is not None and _exists(session, scope, after=older_than - 1, ascending=True)
    record_admin_view(
        session,
        admin,
        kind=AccessKind.ADMIN_VIEW_AUDIT,
        athlete_ids=[row.athlete_id for row in rows],
        detail=f"events {rows[-1].seq}–{rows[0].seq}" if rows else "no events",
    )
    return AuditPage(rows=rows, has_newer=has_newer, has_older=has_older)


def audit_event(session: Session, actor: User | None, *, seq: int) -> tuple[AuditRow, list[FieldChange]]:
    """One event with its before/after as a field-by-field diff; the view is recorded."""
    admin = require_admin(actor)
    rows = _fetch(session, _Scope(None), after=seq - 1, before=seq + 1, ascending=False, limit=1)
    if not rows:
        raise NotFound("Audit event not found.")
    row = rows[0]
    record_admin_view(
        session, admin, kind=AccessKind.ADMIN_VIEW_AUDIT_EVENT, athlete_ids=[row.athlete_id], detail=f"event {seq}"
    )
    return row, diff(row.before, row.after)


def chain_status(session: Session, actor: User | None, *, full: bool = False) -> ChainReport:
    """From the last checkpoint (domain.audit_checkpoints), or the whole chain when `full`."""
    return audit_checkpoints.verify(session, require_admin(actor), full=full)


@dataclass(frozen=True)
class _Scope:
    """The events a filter selects: a condition, the table a text search starts from (SQLite's
    index), the column pages are ordered and bounded by (the event's seq, or that index's rowid),
    and whether pages must be read recent-first then through the text index (PostgreSQL's text
    search: see `_fetch`)."""

    condition: ColumnElement[bool] | None
    start_from: TableClause | None = None
    key: ColumnElement[int] = field(default_factory=lambda: AuditEvent.seq.expression)
    index_after_recent: bool = False
    other_filters: ColumnElement[bool] | None = None  # the filters but the text's


def _scope(session: Session, filters: AuditFilter) -> _Scope:
    other_filters = condition = filter_condition(filters)
    text = filters.text.strip()[:MAX_TEXT]
    if not text:
        return _Scope(condition)
    until = day_start(filters.until + timedelta(days=1)) if filters.until is not None else None
    narrowing = Narrowing(
        athlete_id=filters.athlete_id,
        actor_id=filters.actor_id,
        by_system=filters.by_system,
        action=filters.action,
        starts=day_start(filters.since) if filters.since is not None else None,
        ends=until,
    )
    search = text_scope(session, text, narrowing)
    condition = search.condition if condition is None else and_(condition, search.condition)
    index_after_recent = search.start_from is None
    return _Scope(condition, search.start_from, search.key, index_after_recent, other_filters)


def filter_condition(filters: AuditFilter) -> ColumnElement[bool] | None:
    """Every filter but the text, which needs the index (`_scope`)."""
    parts: list[ColumnElement[bool]] = []
    if filters.by_system:
        parts.append(AuditEvent.actor_id.is_(None))
    elif filters.actor_id is not None:
        parts.append(AuditEvent.actor_id == filters.actor_id)
    if filters.athlete_id is not None:
        parts.append(AuditEvent.athlete_id == filters.athlete_id)
    if filters.action:
        parts.append(AuditEvent.action == filters.action)
    if filters.since is not None:
        parts.append(AuditEvent.at >= day_start(filters.since))
    if filters.until is not None:
        parts.append(AuditEvent.at < day_start(filters.until + timedelta(days=1)))
    return and_(*parts) if parts else None


def _from(stmt: Select[*Ts], scope: _Scope) -> Select[*Ts]:
    if scope.start_from is not None:
        stmt = stmt.select_from(scope.start_from).join(AuditEvent, AuditEvent.seq == scope.key)
    return stmt.where(scope.condition) if scope.condition is not None else stmt


def _fetch(
    session: Session,
    scope: _Scope,
    *,
    after: int | None = None,
    before: int | None = None,
    ascending: bool,
    limit: int,
) -> list[AuditRow]:
    """Up to `limit` events with after < key < before, nearest the starting end first.

    PostgreSQL's planner may read a text search along seq (or along the athlete's events) and test
    each event's words until it has a page: quick for a word in many recent events, but a word in
    none, or none recent, then reads the whole log computing every event's words (12 s at 1,000,000
    events), and the planner picks that plan whenever its estimate of the word's frequency is off
    (no statistics yet after a bulk load, or a word common only long ago). So such a page is read
    in two bounded steps: the RECENT_EVENTS nearest events the other filters select, each tested for
    the words (a word in many of them fills the page at once), then the rest through the text index
    only (its cost follows the word's matches, never the log's size)."""
    if not scope.index_after_recent:
        return _fetch_between(session, scope, after, before, ascending=ascending, limit=limit)
    recent, rest = _recent(session, scope, after, before, ascending=ascending)
    with planned_with(session, **ALONG_ORDER):
        rows = _fetch_between(session, recent, None, None, ascending=ascending, limit=limit)
    if len(rows) < limit and rest is not None:
        with planned_with(session, **THROUGH_INDEX):
            keys = _keys_between(
                session, scope, *rest, ascending=ascending, limit=limit - len(rows), through_index=True
            )
        if keys:
            rows += _fetch_between(
                session, _Scope(AuditEvent.seq.in_(keys)), None, None, ascending=ascending, limit=limit
            )
    return rows


def _exists(session: Session, scope: _Scope, *, after: int | None = None, before: int | None = None,
            ascending: bool) -> bool:  # fmt: skip
    if not scope.index_after_recent:
        return bool(_keys_between(session, scope, after, before, ascending=ascending, limit=1))
    recent, rest = _recent(session, scope, after, before, ascending=ascending)
    with planned_with(session, **ALONG_ORDER):
        if _keys_between(session, recent, None, None, ascending=ascending, limit=1):
            return True
    if rest is None:
        return False
    with planned_with(session, **THROUGH_INDEX):
        return bool(_keys_between(session, scope, *rest, ascending=ascending, limit=1, through_index=True))


Bounds = tuple[int | None, int | None]  # (after, before), both exclusive


def _recent(
    session: Session, scope: _Scope, after: int | None, before: int | None, *, ascending: bool
) -> tuple[_Scope, Bounds | None]:
    """(the text search within the RECENT_EVENTS events nearest the starting end that the other
    filters select, the bounds of the events beyond them or None when there are none)."""
    nearest = select(AuditEvent.seq).where(*_between(_Scope(None), after, before))
    if scope.other_filters is not None:
        nearest = nearest.where(scope.other_filters)
    order = AuditEvent.seq.asc() if ascending else AuditEvent.seq.desc()
    keys = list(session.scalars(nearest.order_by(order).limit(RECENT_EVENTS)))
    recent = _Scope(
        and_(scope.condition, AuditEvent.seq.in_(keys)) if keys and scope.condition is not None else false()
    )
    if len(keys) < RECENT_EVENTS:
        return recent, None
    return recent, ((keys[-1], before) if ascending else (after, keys[-1]))


def _between(
    scope: _Scope, after: int | None, before: int | None, *, through_index: bool = False
) -> list[ColumnElement[bool]]:
    """The key's bounds; `through_index`: as a test of each row the text index finds (`key + 0`
    is no index's expression), so no index scan of a range of seq joins in."""
    key = scope.key + 0 if through_index else scope.key
    return [c for c in (key > after if after is not None else None,
                        key < before if before is not None else None) if c is not None]  # fmt: skip


def _fetch_between(
    session: Session, scope: _Scope, after: int | None, before: int | None, *, ascending: bool, limit: int
) -> list[AuditRow]:
    athlete = aliased(User)
    stmt = _from(select(AuditEvent, athlete.username), scope).outerjoin(athlete, athlete.id == AuditEvent.athlete_id)
    stmt = stmt.where(*_between(scope, after, before))
    stmt = stmt.order_by(scope.key.asc() if ascending else scope.key.desc()).limit(limit)
    return [to_row(event, username) for event, username in session.execute(stmt)]


def _keys_between(
    session: Session,
    scope: _Scope,
    after: int | None,
    before: int | None,
    *,
    ascending: bool,
    limit: int,
    through_index: bool = False,
) -> list[int]:
    stmt = _from(select(scope.key), scope).where(*_between(scope, after, before, through_index=through_index))
    stmt = stmt.order_by(scope.key.asc() if ascending else scope.key.desc()).limit(limit)
    return list(session.scalars(stmt))


def iter_rows(session: Session, filters: AuditFilter, *, batch_size: int = 1000) -> Iterator[AuditRow]:
    """Every matching event, newest first, in keyset batches (used by the CSV export)."""
    scope = _scope(session, filters)
    older_than: int | None = None
    while True:
        batch = _fetch(session, scope, before=older_than, ascending=False, limit=batch_size)
        yield from batch
        if len(batch) < batch_size:
            return
        older_than = batch[-1].seq
        session.expunge_all()


def to_row(event: AuditEvent, athlete_username: str | None) -> AuditRow:
    return AuditRow(
        seq=event.seq,
        at=event.at,
        actor=event.actor_label,
        action=event.action,
        athlete=athlete_username,
        athlete_id=event.athlete_id,
        target=f"{event.target_type} #{event.target_id}" if event.target_id is not None else event.target_type,
        summary=summarize(event.action, event.before, event.after, redacted=event.redacted),
        reason=event.reason,
        redacted=event.redacted,
        before=event.before,
        after=event.after,
    )


def summarize(
    action: AuditAction, before: dict[str, Any] | None, after: dict[str, Any] | None, *, redacted: bool
) -> Summary:
    """What happened, to what; for a change, which fields changed."""
    # A removal's `after` only lists what it redacted; the record it removed is in `before`.
    payload = (before if action in REMOVAL_ACTIONS else after or before) or {}
    subject = payload.get("content") or payload.get("username") or payload.get("reference")
    hidden = redacted or bool(payload.get("redacted"))
    changed: tuple[str, ...] = ()
    if before and after and action not in STATUS_ACTIONS and action not in REMOVAL_ACTIONS:
        changed = tuple(name for name, _, _ in _changed_fields(before, after) if name != "version")
    return Summary(action, None if hidden or not subject else str(subject), hidden, changed)


def diff(before: dict[str, Any] | None, after: dict[str, Any] | None) -> list[FieldChange]:
    """Changed fields, in a reading order; a created or removed record shows every field."""
    return [FieldChange(name, old, new) for name, old, new in _changed_fields(before or {}, after or {})]


def _changed_fields(before: dict[str, Any], after: dict[str, Any]) -> list[tuple[str, Any, Any]]:
    names = [n for n in FIELD_ORDER if n in before or n in after]
    names += sorted((set(before) | set(after)) - set(names) - {"redacted"})
    return [(n, before.get(n), after.get(n)) for n in names if before.get(n) != after.get(n)]
