"""Dedup looks candidates up instead of loading every memory: a content key and a tag table.

`memories.content_key` (a digest of the normal form), indexed on (athlete_id, content_key, status,
updated_at, id);
`memory_tags`: one row per tag of each active memory, indexed on (athlete_id, type, tag,
updated_at, memory_id). Existing rows are backfilled here, in batches, on SQLite and PostgreSQL.

Revision ID: 0003_dedup_keys
Revises: 0001
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

from domain.dedup_keys import content_key, tag_rows

revision: str = "0003_dedup_keys"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BATCH = 5000
MEMORY_TYPES = ("injury_history", "preference", "context", "insight", "training_response")

memory_tags = sa.table(
    "memory_tags",
    sa.column("memory_id", sa.Integer),
    sa.column("athlete_id", sa.Integer),
    sa.column("type", sa.String),
    sa.column("tag", sa.Text),
    sa.column("updated_at"),  # copied as stored, untouched by any type processing
)
memories = sa.table("memories", sa.column("id", sa.Integer), sa.column("content_key", sa.String))


def upgrade() -> None:
    # A plain ADD COLUMN with a constant default: batch mode would copy the table on SQLite and
    # lose the full-text triggers made on it.
    op.add_column("memories", sa.Column("content_key", sa.String(length=32), server_default="", nullable=False))
    op.create_table(
        "memory_tags",
        sa.Column("memory_id", sa.Integer(), nullable=False),
        sa.Column("tag", sa.Text(), nullable=False),
        sa.Column("athlete_id", sa.Integer(), nullable=False),
        sa.Column("type", sa.Enum(*MEMORY_TYPES, name="memory_type", native_enum=False, length=24), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["memory_id"], ["memories.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("memory_id", "tag"),
    )
    _backfill(op.get_bind())  # before the indexes: filling them row by row costs more
    op.create_index(
        "ix_memories_dedup_content",
        "memories",
        ["athlete_id", "content_key", "status", "updated_at", "id"],
        unique=False,
    )
    op.create_index(
        "ix_memory_tags_lookup", "memory_tags", ["athlete_id", "type", "tag", "updated_at", "memory_id"], unique=False
    )


def _backfill(connection: sa.Connection) -> None:
    """Every memory gets its key; every active memory its tag rows. Keyset batches by id."""
    select_batch = sa.text(
        "SELECT id, athlete_id, type, content, tags, status, updated_at FROM memories "
        "WHERE id > :last ORDER BY id LIMIT :batch"
    )
    update_key = (
        sa.update(memories).where(memories.c.id == sa.bindparam("memory_id")).values(content_key=sa.bindparam("key"))
    )
    last = 0
    while True:
        rows = connection.execute(select_batch, {"last": last, "batch": BATCH}).all()
        if not rows:
            return
        connection.execute(update_key, [{"memory_id": row.id, "key": content_key(row.content)} for row in rows])
        tags = [tag for row in rows if row.status == "active" for tag in _tag_rows(row)]
        if tags:
            connection.execute(sa.insert(memory_tags), tags)
        last = rows[-1].id


def _tag_rows(row: Any) -> list[dict[str, Any]]:
    tags = json.loads(row.tags) if isinstance(row.tags, str) else (row.tags or [])
    return tag_rows(
        memory_id=row.id, athlete_id=row.athlete_id, memory_type=row.type, tags=tags, updated_at=row.updated_at
    )


def downgrade() -> None:
    op.drop_index("ix_memory_tags_lookup", table_name="memory_tags")
    op.drop_table("memory_tags")
    op.drop_index("ix_memories_dedup_content", table_name="memories")
    op.drop_column("memories", "content_key")
