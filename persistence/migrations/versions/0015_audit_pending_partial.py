"""The unique index of chained events' waiting ids holds only the events that waited (issue 9).

`ux_audit_pending_id` (0012) gives every chained event an entry, and most have no waiting id: every
event on SQLite (its writers chain in place, nothing waits there) and every PostgreSQL event chained
by the transaction that wrote it. Each such entry was a write to one more b-tree per event: on SQLite
one page of the 31-41 a write puts in the WAL. The index now holds the events chained from
audit_pending only (`WHERE pending_id IS NOT NULL`): unique as before (NULLs never clashed), and
found as before by what looks it up, `pending_id = <a waiting id>`, which implies the condition.

Downgrading puts back the full index.

Revision ID: 0015_audit_pending_partial
Revises: 0014_coach_stamps_at_commit
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015_audit_pending_partial"
down_revision: str | Sequence[str] | None = "0014_coach_stamps_at_commit"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

INDEX = "ux_audit_pending_id"
WAITED = sa.text("pending_id IS NOT NULL")


def upgrade() -> None:
    op.drop_index(INDEX, table_name="audit_events")
    op.create_index(INDEX, "audit_events", ["pending_id"], unique=True, sqlite_where=WAITED, postgresql_where=WAITED)


def downgrade() -> None:
    op.drop_index(INDEX, table_name="audit_events")
    op.create_index(INDEX, "audit_events", ["pending_id"], unique=True)
