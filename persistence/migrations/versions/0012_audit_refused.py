"""Waiting audit events chained once, and refused ones set aside (issue 9).

- `audit_events.pending_id`: the random id an event waited under in audit_pending (PostgreSQL),
  unique, and covered by the event's hash (domain.audit): a copy of a waiting row put back after
  it was chained is refused instead of chained a second time, and clearing the column breaks the
  chain. Events chained in their writer's transaction (SQLite, or a free head) have none.
- `audit_refused`: waiting events no writer will chain (a MAC that does not match, or a copy of a
  chained one), moved out of audit_pending by the first writer that reads them, so each is
  checked once and not by every commit after it; `audit verify` and the admin's Audit tab report them.

Downgrading refuses while an event carries a pending_id (0011's code cannot verify its hash) or a
refused event is kept (it is evidence of tampering).

Revision ID: 0012_audit_refused
Revises: 0011_audit_pending
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from domain.audit import forget_current_schema

revision: str = "0012_audit_refused"
down_revision: str | Sequence[str] | None = "0011_audit_pending"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("audit_events", sa.Column("pending_id", sa.BigInteger(), nullable=True))  # in place on SQLite
    op.create_index("ux_audit_pending_id", "audit_events", ["pending_id"], unique=True)
    op.create_table(
        "audit_refused",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("refused_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("problem", sa.Text(), nullable=False),
        sa.Column("chained_as", sa.Integer(), nullable=True),
        sa.Column("pending_id", sa.BigInteger(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("actor_id", sa.Integer(), nullable=True),
        sa.Column("actor_label", sa.String(length=140), nullable=True),
        sa.Column("action", sa.String(length=40), nullable=True),
        sa.Column("athlete_id", sa.Integer(), nullable=True),
        sa.Column("target_type", sa.String(length=20), nullable=True),
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
    connection = op.get_bind()
    chained = connection.execute(sa.text("SELECT count(*) FROM audit_events WHERE pending_id IS NOT NULL")).scalar_one()
    if chained:
        raise RuntimeError(
            f"{chained} audit events were chained from audit_pending and their hashes cover that id: "
            "the code of 0011 cannot verify them, so this database stays at 0012"
        )
    refused = connection.execute(sa.text("SELECT count(*) FROM audit_refused")).scalar_one()
    if refused:
        raise RuntimeError(f"{refused} refused audit events are kept as evidence; export and remove them first")
    op.drop_table("audit_refused")
    op.drop_index("ux_audit_pending_id", table_name="audit_events")
    # In place on both (SQLite 3.35+): a batch copy of audit_events would drop its search triggers.
    op.execute("ALTER TABLE audit_events DROP COLUMN pending_id")
    forget_current_schema(connection)  # this process's engine chains in place again, as before 0011
