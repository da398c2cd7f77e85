"""Events waiting to be chained (issue 9): `audit_pending`.

On PostgreSQL a writer inserts its audit event here, in its own transaction and without taking
the chain's head, so concurrent writers no longer queue on one row for their whole commit; right
after the commit, whoever takes the head next chains every committed waiting event in one
statement, moving it into audit_events (domain.audit). The table is empty between writes, and
on SQLite (one writer at a time) it stays empty: events are chained in the writer's transaction.

Revision ID: 0011_audit_pending
Revises: 0010_write_pages
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011_audit_pending"
down_revision: str | Sequence[str] | None = "0010_write_pages"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "audit_pending",
        sa.Column("id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor_id", sa.Integer(), nullable=True),
        sa.Column("actor_label", sa.String(length=140), nullable=False),
        sa.Column("action", sa.String(length=40), nullable=False),
        sa.Column("athlete_id", sa.Integer(), nullable=True),
        sa.Column("target_type", sa.String(length=20), nullable=False),
        sa.Column("target_id", sa.Integer(), nullable=True),
        sa.Column("before", sa.JSON(), nullable=True),
        sa.Column("after", sa.JSON(), nullable=True),
        sa.Column("before_digest", sa.String(length=64), nullable=True),
        sa.Column("after_digest", sa.String(length=64), nullable=True),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.Column("mac", sa.String(length=64), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )


def downgrade() -> None:
    waiting = op.get_bind().execute(sa.text("SELECT count(*) FROM audit_pending")).scalar_one()
    if waiting:  # committed events: chain them first (any write, or `audit verify`, does)
        raise RuntimeError(f"{waiting} audit events are waiting to be chained; chain them before downgrading")
    op.drop_table("audit_pending")
