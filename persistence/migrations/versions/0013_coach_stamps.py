"""A change stamp per athlete for the coach index (issue 9): `coach_stamps`, kept by triggers.

The coach API keeps each athlete's memories prepared in memory (domain/coach_index.py) and must
know on every request, in O(1), whether they changed since. Triggers on `memories` raise the
athlete's stamp in the same transaction as every insert, update and delete of one of their
memories, whoever makes it: any service, another app instance, a raw SQL statement, a cascade.
A reader's stamp is the sum of the athlete's rows; it rises with every committed change and
with nothing else, so the same stamp means the same memories.

Each rise is 1 plus a random amount below 2**31: a stamp never comes back, even after the
database is put back to an older copy and written again (an instance's prepared index from
before would otherwise match by chance).

- SQLite: one row per athlete (writers take turns anyway); row triggers; WITHOUT ROWID.
- PostgreSQL: up to 64 rows per athlete, one per `pg_backend_pid() % 64`: two writers of one
  athlete on different connections almost never wait for each other's stamp row (a row lock
  held to their commit). Statement triggers over the transition tables: one rise per athlete
  and statement (a COPY of a million rows is one statement), rows locked in athlete order.

Revision ID: 0013_coach_stamps
Revises: 0012_audit_refused
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013_coach_stamps"
down_revision: str | Sequence[str] | None = "0012_audit_refused"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

SQLITE_RISE = "1 + abs(random() % 2147483648)"
SQLITE_UPSERT = "ON CONFLICT (athlete_id, shard) DO UPDATE SET stamp = stamp + excluded.stamp;"
SQLITE_TRIGGERS = {
    "memories_coach_stamp_insert": (
        "AFTER INSERT ON memories BEGIN "
        f"INSERT INTO coach_stamps (athlete_id, shard, stamp) VALUES (new.athlete_id, 0, {SQLITE_RISE}) "
        f"{SQLITE_UPSERT} END"
    ),
    "memories_coach_stamp_delete": (
        "AFTER DELETE ON memories BEGIN "
        f"INSERT INTO coach_stamps (athlete_id, shard, stamp) VALUES (old.athlete_id, 0, {SQLITE_RISE}) "
        f"{SQLITE_UPSERT} END"
    ),
    "memories_coach_stamp_update": (
        "AFTER UPDATE ON memories BEGIN "
        f"INSERT INTO coach_stamps (athlete_id, shard, stamp) VALUES (new.athlete_id, 0, {SQLITE_RISE}) "
        f"{SQLITE_UPSERT} "
        # a memory moved to another athlete changes the first one's memories too
        f"INSERT INTO coach_stamps (athlete_id, shard, stamp) SELECT old.athlete_id, 0, {SQLITE_RISE} "
        f"WHERE old.athlete_id IS NOT new.athlete_id {SQLITE_UPSERT} END"
    ),
}

PG_FUNCTION = "mr_coach_stamp"
PG_RISE = "SELECT athlete_id, pg_backend_pid() % 64, 1 + floor(random() * 2147483648)::bigint FROM"
PG_UPSERT = (
    "ORDER BY athlete_id ON CONFLICT (athlete_id, shard) DO UPDATE SET stamp = coach_stamps.stamp + excluded.stamp;"
)
PG_FUNCTION_SQL = f"""
CREATE FUNCTION {PG_FUNCTION}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO coach_stamps (athlete_id, shard, stamp)
    {PG_RISE} (SELECT DISTINCT athlete_id FROM new_rows) AS changed {PG_UPSERT}
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO coach_stamps (athlete_id, shard, stamp)
    {PG_RISE} (SELECT DISTINCT athlete_id FROM old_rows) AS changed {PG_UPSERT}
  ELSE
    INSERT INTO coach_stamps (athlete_id, shard, stamp)
    {PG_RISE} (SELECT athlete_id FROM new_rows UNION SELECT athlete_id FROM old_rows) AS changed {PG_UPSERT}
  END IF;
  RETURN NULL;
END
$$
"""
PG_TRIGGERS = {
    "memories_coach_stamp_insert": "AFTER INSERT ON memories REFERENCING NEW TABLE AS new_rows",
    "memories_coach_stamp_delete": "AFTER DELETE ON memories REFERENCING OLD TABLE AS old_rows",
    "memories_coach_stamp_update": "AFTER UPDATE ON memories REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows",
}


def upgrade() -> None:
    sqlite = op.get_bind().dialect.name == "sqlite"
    op.create_table(
        "coach_stamps",
        sa.Column("athlete_id", sa.Integer(), nullable=False),
        sa.Column("shard", sa.Integer(), nullable=False),
        sa.Column("stamp", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("athlete_id", "shard"),
        sqlite_with_rowid=False,
    )
    if sqlite:
        for name, body in SQLITE_TRIGGERS.items():
            op.execute(f"CREATE TRIGGER {name} {body}")
        return
    op.execute(PG_FUNCTION_SQL)
    for name, event in PG_TRIGGERS.items():
        op.execute(f"CREATE TRIGGER {name} {event} FOR EACH STATEMENT EXECUTE FUNCTION {PG_FUNCTION}()")


def downgrade() -> None:
    sqlite = op.get_bind().dialect.name == "sqlite"
    for name in SQLITE_TRIGGERS:
        op.execute(f"DROP TRIGGER IF EXISTS {name}" + ("" if sqlite else " ON memories"))
    if not sqlite:
        op.execute(f"DROP FUNCTION IF EXISTS {PG_FUNCTION}()")
    op.drop_table("coach_stamps")
