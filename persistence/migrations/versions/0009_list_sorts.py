"""Indexes for the memory list's "newest" and "most seen" sorts: a page of an athlete's memories in
either order is read from the index, not sorted from all of their rows (domain/memory_lists.py).

Revision ID: 0009_list_sorts
Revises: 0008_audit_key
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0009_list_sorts"
down_revision: str | None = "0008_audit_key"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

INDEXES = {
    "ix_memories_athlete_status_created": ["athlete_id", "status", "created_at", "id"],
    "ix_memories_athlete_status_seen": ["athlete_id", "status", "occurrences", "updated_at", "id"],
}


def upgrade() -> None:
    for name, columns in INDEXES.items():
        op.create_index(name, "memories", columns)


def downgrade() -> None:
    for name in INDEXES:
        op.drop_index(name, table_name="memories")
