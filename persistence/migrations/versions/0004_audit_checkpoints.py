"""Audit log at a million events: verify checkpoints, and an index for the log's text search.

`audit_checkpoints` holds each verify run's result (domain/audit_checkpoints.py). The searchable
text of an event is its actor, action, reason and the string values of its before/after payloads
(not the JSON keys); SQLite indexes it in a contentless FTS5 table kept by triggers (the rowid is
the event's seq), PostgreSQL in a GIN index over the same text as a tsvector. Both are filled here
for the events already stored. domain/audit_search.py queries them.

The FTS5 table also holds, in a column of its own, the athlete, the actor and the action as
tokens (`a7 u3 harddelete`, 0 for none), so a text search with those filters is answered inside
the index; PostgreSQL combines its GIN index with the btree indexes instead.

Revision ID: 0004_audit_checkpoints
Revises: 0001
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004_audit_checkpoints"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

SEARCH_INDEX = "ix_audit_events_search"
TRIGGERS = ("audit_fts_insert", "audit_fts_delete", "audit_fts_update")


def _strings(payload: str) -> str:
    return (
        f"CASE WHEN json_valid({payload}) THEN "
        f"(SELECT group_concat(value, ' ') FROM json_tree({payload}) WHERE type = 'text') END"
    )


def _text(row: str) -> str:
    """The searchable text of one event row (`new`, `old` or the table) as an SQLite expression."""
    parts = [f"{row}.{name}" for name in ("actor_label", "action", "reason")]
    parts += [_strings(f"{row}.before"), _strings(f"{row}.after")]
    return " || ' ' || ".join(f"coalesce({part}, '')" for part in parts)


def _meta(row: str) -> str:
    """Athlete, actor and action as one token each (domain/audit_search.py asks for them)."""
    return (
        f"'a' || coalesce({row}.athlete_id, 0) || ' u' || coalesce({row}.actor_id, 0)"
        f" || ' ' || replace({row}.action, '_', '')"
    )


def _add(row: str) -> str:
    return f"INSERT INTO audit_fts(rowid, body, meta) VALUES ({row}.seq, {_text(row)}, {_meta(row)});"


def _remove(row: str) -> str:
    # A contentless table forgets a row only when told the text it indexed for it.
    return (
        f"INSERT INTO audit_fts(audit_fts, rowid, body, meta) VALUES ('delete', {row}.seq, {_text(row)}, {_meta(row)});"
    )


SQLITE_SEARCH = [
    "CREATE VIRTUAL TABLE audit_fts USING fts5(body, meta, content='', tokenize='unicode61')",
    f"INSERT INTO audit_fts(rowid, body, meta) SELECT seq, {_text('audit_events')}, {_meta('audit_events')} "
    "FROM audit_events",
    f"CREATE TRIGGER audit_fts_insert AFTER INSERT ON audit_events BEGIN {_add('new')} END",
    f"CREATE TRIGGER audit_fts_delete AFTER DELETE ON audit_events BEGIN {_remove('old')} END",
    "CREATE TRIGGER audit_fts_update AFTER UPDATE OF seq, actor_id, actor_label, action, athlete_id, reason, "
    f"before, after ON audit_events BEGIN {_remove('old')} {_add('new')} END",
]

# Keep in step with domain/audit_search.py, whose query must repeat it for the index to be used.
PG_SEARCH_VECTOR = (
    "to_tsvector('simple', coalesce(actor_label, '') || ' ' || coalesce(action, '') || ' ' || coalesce(reason, ''))"
    " || coalesce(json_to_tsvector('simple', before, '[\"string\"]'), ''::tsvector)"
    " || coalesce(json_to_tsvector('simple', after, '[\"string\"]'), ''::tsvector)"
)


def upgrade() -> None:
    op.create_table(
        "audit_checkpoints",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("hash", sa.String(length=64), nullable=True),
        sa.Column("from_seq", sa.Integer(), nullable=False),
        sa.Column("events_checked", sa.Integer(), nullable=False),
        sa.Column("ok", sa.Boolean(), nullable=False),
        sa.Column("problem", sa.Text(), nullable=True),
        sa.Column("verified_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_audit_checkpoints_ok_seq", "audit_checkpoints", ["ok", "seq"], unique=False)
    if op.get_bind().dialect.name == "sqlite":
        for statement in SQLITE_SEARCH:
            op.execute(statement)
    else:
        op.execute(f"CREATE INDEX {SEARCH_INDEX} ON audit_events USING gin (({PG_SEARCH_VECTOR}))")


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        for name in TRIGGERS:
            op.execute(f"DROP TRIGGER IF EXISTS {name}")
        op.execute("DROP TABLE IF EXISTS audit_fts")
    else:
        op.execute(f"DROP INDEX IF EXISTS {SEARCH_INDEX}")
    op.drop_index("ix_audit_checkpoints_ok_seq", table_name="audit_checkpoints")
    op.drop_table("audit_checkpoints")
