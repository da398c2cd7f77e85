"""PostgreSQL plans every text search in one process: `mr_owned_tsquery` (migration 0007) is
PARALLEL UNSAFE.

A search reads its matches through the index of marked words alone (domain/memory_lists.py's
_owner: no index of the athlete beside it). For a common word of an athlete with many memories the
planner then expects a few thousand heap pages and plans two parallel workers, which on a
shared server start slower than the scan takes and take CPU from the other requests; the plans
before were serial. The planner checks a query's functions for parallel safety before it folds
them into constants, so marking the query function is enough; the function itself is unchanged.
SQLite has nothing to change.

Revision ID: 0016_search_serial
Revises: 0015_audit_pending_partial
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0016_search_serial"
down_revision: str | Sequence[str] | None = "0015_audit_pending_partial"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

QUERY_FUNCTION = "mr_owned_tsquery(integer, text[])"


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(f"ALTER FUNCTION {QUERY_FUNCTION} PARALLEL UNSAFE")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(f"ALTER FUNCTION {QUERY_FUNCTION} PARALLEL SAFE")
