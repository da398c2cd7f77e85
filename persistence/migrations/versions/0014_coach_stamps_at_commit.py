"""PostgreSQL raises the coach's change stamp at commit (issue 9): no writer waits on a stamp row mid-transaction.

Under 0013 a write took the athlete's stamp row (one of 64, by `pg_backend_pid() % 64`) at its first
change of a memory and held it to its commit. Two writers of one athlete that shared a row waited
for each other for their whole transactions; where they also took memory rows in the other order
(a confirm that replaces a memory racing an edit of it), that was a deadlock, and PostgreSQL ended
one of them after `deadlock_timeout`.

Now `memories`' statement triggers only note "this transaction changed athlete X": a row
(transaction id, athlete) in `coach_stamp_pending`, ON CONFLICT DO NOTHING, a key no other
transaction ever writes, so they wait for nobody. A constraint trigger on that table,
DEFERRABLE INITIALLY DEFERRED, runs at commit: its first firing takes every row of the transaction
(later firings find none), raises those athletes' stamps in athlete order (two commits lock them in
the same order) and deletes the rows, all inside the committing transaction, so the stamp and the
change still become visible together. The stamp row is locked last and only for the commit.

What 0013 promised still holds: every committed change of an athlete's memories, by any writer
(raw SQL, a cascade, a COPY: one note per statement and athlete), raises the stamp in its own
transaction; a rolled-back one never does (the note and its firing roll back with it, savepoints
too); each rise is 1 plus a random amount below 2**31. `SET CONSTRAINTS ALL IMMEDIATE` fires the
trigger at the end of each noting statement instead: the stamp rises then (held to commit, as
under 0013), the note is gone, and a later change notes and raises again. No note outlives its
transaction. Writers are READ COMMITTED (a REPEATABLE READ writer of an athlete another commit
raised meanwhile would fail at commit with a serialization failure, for its caller to retry).

The stamp is one row per athlete again (`shard` 0): the upgrade folds each athlete's rows into one
with their sum, so the reader's sum (domain/coach_index.py, unchanged) and every index kept under it
stay valid. SQLite is unchanged (one writer at a time; its row triggers raise at once); the pending
table exists there too, empty, as the models describe it. Downgrading puts 0013's triggers back
(one row per athlete is a valid 0013 state: its reader sums the rows).

Revision ID: 0014_coach_stamps_at_commit
Revises: 0013_coach_stamps
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014_coach_stamps_at_commit"
down_revision: str | Sequence[str] | None = "0013_coach_stamps"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

PENDING = "coach_stamp_pending"
NOTE_FUNCTION = "mr_coach_stamp"  # 0013's function on memories' statement triggers, given a new body
COMMIT_FUNCTION = "mr_coach_stamp_commit"
COMMIT_TRIGGER = "coach_stamp_commit"

XID = "pg_current_xact_id()::text::bigint"
NOTE = f"INSERT INTO {PENDING} (xid, athlete_id) SELECT DISTINCT {XID}, athlete_id FROM"
NOTE_SQL = f"""
CREATE OR REPLACE FUNCTION {NOTE_FUNCTION}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    {NOTE} new_rows ON CONFLICT DO NOTHING;
  ELSIF TG_OP = 'DELETE' THEN
    {NOTE} old_rows ON CONFLICT DO NOTHING;
  ELSE
    {NOTE} (SELECT athlete_id FROM new_rows UNION ALL SELECT athlete_id FROM old_rows) AS changed
      ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END
$$
"""
COMMIT_SQL = f"""
CREATE FUNCTION {COMMIT_FUNCTION}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH noted AS (DELETE FROM {PENDING} WHERE xid = NEW.xid RETURNING athlete_id)
  INSERT INTO coach_stamps (athlete_id, shard, stamp)
  SELECT athlete_id, 0, 1 + floor(random() * 2147483648)::bigint FROM noted ORDER BY athlete_id
  ON CONFLICT (athlete_id, shard) DO UPDATE SET stamp = coach_stamps.stamp + excluded.stamp;
  RETURN NULL;
END
$$
"""
# The shards of one athlete as one row (shard 0) holding their sum: the same stamp to every reader.
FOLD_SQL = """
WITH folded AS (DELETE FROM coach_stamps WHERE shard <> 0 RETURNING athlete_id, stamp)
INSERT INTO coach_stamps (athlete_id, shard, stamp)
SELECT athlete_id, 0, sum(stamp)::bigint FROM folded GROUP BY athlete_id
ON CONFLICT (athlete_id, shard) DO UPDATE SET stamp = coach_stamps.stamp + excluded.stamp
"""

# 0013's body of the note function, for the downgrade
OLD_RISE = "SELECT athlete_id, pg_backend_pid() % 64, 1 + floor(random() * 2147483648)::bigint FROM"
OLD_UPSERT = (
    "ORDER BY athlete_id ON CONFLICT (athlete_id, shard) DO UPDATE SET stamp = coach_stamps.stamp + excluded.stamp;"
)
OLD_NOTE_SQL = f"""
CREATE OR REPLACE FUNCTION {NOTE_FUNCTION}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO coach_stamps (athlete_id, shard, stamp)
    {OLD_RISE} (SELECT DISTINCT athlete_id FROM new_rows) AS changed {OLD_UPSERT}
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO coach_stamps (athlete_id, shard, stamp)
    {OLD_RISE} (SELECT DISTINCT athlete_id FROM old_rows) AS changed {OLD_UPSERT}
  ELSE
    INSERT INTO coach_stamps (athlete_id, shard, stamp)
    {OLD_RISE} (SELECT athlete_id FROM new_rows UNION SELECT athlete_id FROM old_rows) AS changed {OLD_UPSERT}
  END IF;
  RETURN NULL;
END
$$
"""


def upgrade() -> None:
    postgresql = op.get_bind().dialect.name == "postgresql"
    op.create_table(
        PENDING,
        sa.Column("xid", sa.BigInteger(), nullable=False),
        sa.Column("athlete_id", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("xid", "athlete_id"),
        # a note lives only inside its transaction: after a crash there is none to keep
        prefixes=["UNLOGGED"] if postgresql else [],
        sqlite_with_rowid=False,
    )
    if not postgresql:
        return
    # writers of memories finish first (and none begins) while the triggers change and the rows fold
    op.execute("LOCK TABLE memories, coach_stamps IN EXCLUSIVE MODE")
    op.execute(COMMIT_SQL)
    op.execute(
        f"CREATE CONSTRAINT TRIGGER {COMMIT_TRIGGER} AFTER INSERT ON {PENDING} "
        f"DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION {COMMIT_FUNCTION}()"
    )
    op.execute(NOTE_SQL)
    op.execute(FOLD_SQL)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("LOCK TABLE memories, coach_stamps IN EXCLUSIVE MODE")
        op.execute(OLD_NOTE_SQL)
        op.execute(f"DROP TRIGGER IF EXISTS {COMMIT_TRIGGER} ON {PENDING}")
        op.execute(f"DROP FUNCTION IF EXISTS {COMMIT_FUNCTION}()")
    op.drop_table(PENDING)
