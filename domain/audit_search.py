"""Text search over the audit log, through an index: FTS5 on SQLite, a tsvector GIN index on PostgreSQL.

An event's searchable text is its actor, action, reason and the string values of its before/after
payloads: the words a person reads, not the JSON keys every event shares. Each word of the query
must begin a word of the event ("knee" finds "knees"; "nee" finds nothing), as in memory search.
The index is made and kept by migration 0004_audit_checkpoints; a redaction updates it.

On SQLite the page is read from the index newest first (its rowid is the event's seq) and stops
at its last row, so pages order and bound by that rowid. The other filters go into the index query
too (athlete, actor and action are tokens of the index's `meta` column; a date range becomes a
range of seq), so "knee" for one athlete reads that athlete's matches, not everyone's. PostgreSQL
combines the GIN index with its btree indexes by itself. The user's words are always a bound
parameter.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import ColumnElement, TableClause, and_, bindparam, column, false, literal_column, select, table, text
from sqlalchemy.orm import Session

from domain.models import AuditEvent
from domain.search import search_terms

FTS_TABLE = table("audit_fts", column("rowid"))
# The expression PostgreSQL's index holds (migration 0004): a query must repeat it to use the index.
PG_SEARCH_VECTOR = (
    "to_tsvector('simple', coalesce(audit_events.actor_label, '') || ' ' || coalesce(audit_events.action, '')"
    " || ' ' || coalesce(audit_events.reason, ''))"
    " || coalesce(json_to_tsvector('simple', audit_events.before, '[\"string\"]'), ''::tsvector)"
    " || coalesce(json_to_tsvector('simple', audit_events.after, '[\"string\"]'), ''::tsvector)"
)
# Events get their time under the chain's lock, so time follows seq; this much clock disagreement
# (another instance's clock, a clock set back) is allowed for when a date range becomes a seq range.
CLOCK_SLACK = timedelta(minutes=5)
_TOKEN = re.compile(r"[a-z0-9]+")


@dataclass(frozen=True)
class Narrowing:
    """The page's other filters, which SQLite's index can apply along with the words."""

    athlete_id: int | None = None
    actor_id: int | None = None
    by_system: bool = False
    action: str | None = None
    starts: datetime | None = None  # at >= starts
    ends: datetime | None = None  # at < ends


@dataclass(frozen=True)
class TextScope:
    """How a text search joins the page query: the condition, the table to start from (SQLite's
    index, or None), and the column pages are ordered and bounded by."""

    condition: ColumnElement[bool]
    start_from: TableClause | None
    key: ColumnElement[int]


def text_scope(session: Session, user_text: str, narrowing: Narrowing) -> TextScope:
    terms = search_terms(user_text)
    seq = AuditEvent.seq.expression
    if not terms:  # only punctuation: no word to look for
        return TextScope(false(), None, seq)
    if session.get_bind().dialect.name != "sqlite":
        ts_query = " & ".join(f"{term}:*" for term in terms)
        # Written out, not built from functions: the index matches this expression only with literal constants.
        vector_match = text(f"({PG_SEARCH_VECTOR}) @@ to_tsquery('simple', :audit_text)")
        return TextScope(and_(vector_match.bindparams(bindparam("audit_text", ts_query))), None, seq)
    query = "body : (" + " ".join(f'"{term}"*' for term in terms) + ")"
    if tokens := _meta_tokens(narrowing):
        query += " AND meta : (" + " ".join(f'"{token}"' for token in tokens) + ")"
    rowid = FTS_TABLE.c.rowid
    parts: list[ColumnElement[bool]] = [literal_column("audit_fts").bool_op("MATCH")(bindparam("audit_text", query))]
    before = _last_seq_before(session, narrowing.starts - CLOCK_SLACK) if narrowing.starts else None
    after = _first_seq_from(session, narrowing.ends + CLOCK_SLACK) if narrowing.ends else None
    if before is not None:
        parts.append(rowid > before)
    if after is not None:
        parts.append(rowid < after)
    return TextScope(and_(*parts), FTS_TABLE, rowid)


@contextmanager
def planned_with(session: Session, **settings: bool) -> Iterator[None]:
    """On PostgreSQL, plan the statements inside with these planner methods on or off
    (`enable_indexscan=False`, …), whatever the planner estimates; the settings last until the
    block ends, inside the transaction. Elsewhere, nothing."""
    if session.get_bind().dialect.name != "postgresql" or not settings:
        yield
        return
    names = list(settings)
    current = ", ".join(f"current_setting('{name}')" for name in names)
    saved = session.execute(text(f"SELECT {current}")).one()
    _set(session, dict(zip(names, ["on" if on else "off" for on in settings.values()], strict=True)))
    try:
        yield
    finally:
        _set(session, dict(zip(names, saved, strict=True)))


def _set(session: Session, values: dict[str, str]) -> None:
    assigned = ", ".join(f"set_config('{name}', :{name}, true)" for name in values)
    session.execute(text(f"SELECT {assigned}"), values)


def _meta_tokens(narrowing: Narrowing) -> list[str]:
    tokens = [f"a{narrowing.athlete_id}"] if narrowing.athlete_id is not None else []
    if narrowing.by_system:
        tokens.append("u0")
    elif narrowing.actor_id is not None:
        tokens.append(f"u{narrowing.actor_id}")
    if narrowing.action:
        tokens.append(str(narrowing.action).replace("_", ""))
    return [token for token in tokens if _TOKEN.fullmatch(token)]  # the exact filters still apply after


# A date range as a seq range, by one probe of the time index per end. An event more than
# CLOCK_SLACK before the range has a lower seq than every event in it, and one more than
# CLOCK_SLACK after the range a higher seq, or time would have run backwards by more than that.


def _last_seq_before(session: Session, at: datetime) -> int | None:
    return session.scalar(select(AuditEvent.seq).where(AuditEvent.at < at).order_by(AuditEvent.at.desc()).limit(1))


def _first_seq_from(session: Session, at: datetime) -> int | None:
    return session.scalar(select(AuditEvent.seq).where(AuditEvent.at >= at).order_by(AuditEvent.at).limit(1))
