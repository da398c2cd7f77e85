"""Text search over the audit log, through an index: FTS5 on SQLite, a tsvector GIN index on PostgreSQL.

An event's searchable text is its actor, action, reason and the string values of its before/after
payloads: the words a person reads, not the JSON keys every event shares. Each word of the query
must begin a word of the event ("knee" finds "knees"; "nee" finds nothing), as in memory search.
The index is made and kept by migration 0004_audit_checkpoints; a redaction updates it.

On SQLite the page is read from the index newest first (its rowid is the event's seq), so a page
stops at its last row instead of collecting every match; pages order and bound by that rowid.
The user's words are always a bound parameter.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import ColumnElement, TableClause, and_, bindparam, column, false, literal_column, table, text
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


@dataclass(frozen=True)
class TextScope:
    """How a text search joins the page query: the condition, the table to start from (SQLite's
    index, or None), and the column pages are ordered and bounded by."""

    condition: ColumnElement[bool]
    start_from: TableClause | None
    key: ColumnElement[int]


def text_scope(session: Session, user_text: str) -> TextScope:
    terms = search_terms(user_text)
    seq = AuditEvent.seq.expression
    if not terms:  # only punctuation: no word to look for
        return TextScope(false(), None, seq)
    if session.get_bind().dialect.name == "sqlite":
        query = " ".join(f'"{term}"*' for term in terms)
        match = literal_column("audit_fts").bool_op("MATCH")(bindparam("audit_text", query))
        return TextScope(match, FTS_TABLE, FTS_TABLE.c.rowid)
    ts_query = " & ".join(f"{term}:*" for term in terms)
    # Written out, not built from functions: the index matches this expression only with literal constants.
    vector_match = text(f"({PG_SEARCH_VECTOR}) @@ to_tsquery('simple', :audit_text)")
    return TextScope(and_(vector_match.bindparams(bindparam("audit_text", ts_query))), None, seq)
