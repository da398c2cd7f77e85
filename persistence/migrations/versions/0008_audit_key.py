"""Keyed audit chain: `audit_head.keyed_after`, the last event written before the chain was keyed.

Events after it carry an HMAC under the key kept outside the database (persistence/audit_seal.py);
events up to it keep their plain SHA-256 (the legacy part of the chain, still verified as before).
NULL until an app with a key first opens the database, which sets it to the head's seq then.

Revision ID: 0008_audit_key
Revises: 0001
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008_audit_key"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("audit_head", sa.Column("keyed_after", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("audit_head") as batch:
        batch.drop_column("keyed_after")
