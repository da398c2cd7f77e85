"""Coach API: token bookkeeping, "hide from coach" on memories, and the record of coach reads.

Revision ID: 0006_coach_api
Revises: 0001
Create Date: 2026-11-22 10:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006_coach_api"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ACTIVE = sa.text("revoked_at IS NULL")


def upgrade() -> None:
    with op.batch_alter_table("api_tokens", schema=None) as batch_op:
        batch_op.add_column(sa.Column("created_by", sa.String(length=140), nullable=True))
        batch_op.add_column(sa.Column("last_used_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.create_index(
            "ux_api_tokens_active_name", ["name"], unique=True, sqlite_where=ACTIVE, postgresql_where=ACTIVE
        )
    # A plain ADD COLUMN with a constant default: batch mode would copy the table on SQLite and
    # lose the full-text triggers that 0001 made on it.
    op.add_column("memories", sa.Column("hidden_from_coach", sa.Boolean(), server_default="0", nullable=False))
    # Covers the coach index's fingerprint (count, sum of versions, highest id of an athlete's rows).
    op.create_index("ix_memories_athlete_id_version", "memories", ["athlete_id", "id", "version"], unique=False)
    op.create_table(
        "coach_reads",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("athlete_id", sa.Integer(), nullable=False),
        sa.Column("token_id", sa.Integer(), nullable=True),
        sa.Column("token_name", sa.String(length=120), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("query", sa.Text(), nullable=True),
        sa.Column("max_tokens", sa.Integer(), nullable=True),
        sa.Column("block", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(["athlete_id"], ["users.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["token_id"], ["api_tokens.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("coach_reads", schema=None) as batch_op:
        batch_op.create_index("ix_coach_reads_athlete_at", ["athlete_id", "at"], unique=False)
        batch_op.create_index("ix_coach_reads_at", ["at"], unique=False)
    op.create_table(
        "coach_read_memories",
        sa.Column("read_id", sa.Integer(), nullable=False),
        sa.Column("memory_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["memory_id"], ["memories.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["read_id"], ["coach_reads.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("read_id", "memory_id"),
    )
    with op.batch_alter_table("coach_read_memories", schema=None) as batch_op:
        batch_op.create_index("ix_coach_read_memories_memory", ["memory_id", "read_id"], unique=False)


def downgrade() -> None:
    op.drop_table("coach_read_memories")
    op.drop_table("coach_reads")
    op.drop_index("ix_memories_athlete_id_version", table_name="memories")
    op.drop_column("memories", "hidden_from_coach")
    with op.batch_alter_table("api_tokens", schema=None) as batch_op:
        batch_op.drop_index("ux_api_tokens_active_name")
        batch_op.drop_column("last_used_at")
        batch_op.drop_column("created_by")
