"""Fewer pages per audited write (issue 9): each add, edit or soft delete commits ~39 pages on
SQLite (measured from the WAL's frame headers, mapped to their b-trees with dbstat); this takes
out those that no query needs.

- The coach index's fingerprint (count, sum of versions, newest id of one athlete's memories,
  domain/coach_index.py) is read from the memory list's index, which gets `version` as its last
  column, instead of an index of its own (ix_memories_athlete_id_version): one b-tree fewer to
  write on every add, edit and delete (the list index changes on each of them anyway: updated_at,
  status). SQLite and PostgreSQL.
- SQLite, both FTS5 tables without the per-row size table (`columnsize=0`): it serves only bm25()
  and the auxiliary functions' column sizes, which no search asks for (matches, never ranks);
  one b-tree fewer per table and commit. The tables are rebuilt with the same rows and text
  (memories_fts from its own stored text; audit_fts, which stores none, from the events as 0004
  indexed them); their triggers are put back unchanged.
- SQLite, `memory_tags` WITHOUT ROWID: its primary key (memory_id, tag) is the table, not a
  rowid table plus an index on that key; one b-tree fewer per tag added or removed.

Revision ID: 0010_write_pages
Revises: 0003_dedup_keys, 0004_audit_checkpoints, 0006_coach_api, 0007_search_scope_admin, 0009_list_sorts
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0010_write_pages"
# It changes what each of these made, so it comes after all of them (and joins their branches).
down_revision: str | Sequence[str] | None = (
    "0003_dedup_keys",
    "0004_audit_checkpoints",
    "0006_coach_api",
    "0007_search_scope_admin",
    "0009_list_sorts",
)
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

LIST_INDEX = "ix_memories_athlete_type_updated"
LIST_COLUMNS = ["athlete_id", "status", "type", "updated_at", "id", "confidence", "occurrences", "source"]
FINGERPRINT_INDEX = "ix_memories_athlete_id_version"
FINGERPRINT_COLUMNS = ["athlete_id", "id", "version"]

MEMORIES_FTS = "CREATE VIRTUAL TABLE memories_fts USING fts5(owned, tokenize='porter unicode61'{options})"
AUDIT_FTS = "CREATE VIRTUAL TABLE audit_fts USING fts5(body, meta, content='', tokenize='unicode61'{options})"
NO_SIZES = ", columnsize=0"


def _strings(payload: str) -> str:
    return (
        f"CASE WHEN json_valid({payload}) THEN "
        f"(SELECT group_concat(value, ' ') FROM json_tree({payload}) WHERE type = 'text') END"
    )


def _audit_text() -> str:
    """An event's searchable text, exactly as migration 0004 (and its triggers) index it."""
    parts = [f"audit_events.{name}" for name in ("actor_label", "action", "reason")]
    parts += [_strings("audit_events.before"), _strings("audit_events.after")]
    return " || ' ' || ".join(f"coalesce({part}, '')" for part in parts)


AUDIT_META = (
    "'a' || coalesce(audit_events.athlete_id, 0) || ' u' || coalesce(audit_events.actor_id, 0)"
    " || ' ' || replace(audit_events.action, '_', '')"
)


def upgrade() -> None:
    # Plain CREATE/DROP INDEX: batch mode would copy the table on SQLite and lose its triggers.
    op.drop_index(LIST_INDEX, table_name="memories")
    op.create_index(LIST_INDEX, "memories", [*LIST_COLUMNS, "version"])
    op.drop_index(FINGERPRINT_INDEX, table_name="memories")
    if op.get_bind().dialect.name == "sqlite":
        _rebuild_search_tables(NO_SIZES)
        _rebuild_memory_tags(without_rowid=True)


def downgrade() -> None:
    op.create_index(FINGERPRINT_INDEX, "memories", FINGERPRINT_COLUMNS)
    op.drop_index(LIST_INDEX, table_name="memories")
    op.create_index(LIST_INDEX, "memories", LIST_COLUMNS)
    if op.get_bind().dialect.name == "sqlite":
        _rebuild_search_tables("")
        _rebuild_memory_tags(without_rowid=False)


def _rebuild_search_tables(options: str) -> None:
    """Both FTS5 tables made again with `options`, holding the same rows and text as before. Their
    triggers are set aside meanwhile and put back as they were (a rename checks every trigger that
    names the table, and would rewrite them to follow it)."""
    connection = op.get_bind()
    triggers = connection.exec_driver_sql(
        "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name IN ('memories', 'audit_events') "
        "AND (sql LIKE '%memories_fts%' OR sql LIKE '%audit_fts%') ORDER BY name"
    ).all()
    for name, _sql in triggers:
        op.execute(f"DROP TRIGGER {name}")
    op.execute(MEMORIES_FTS.format(options=options).replace("memories_fts", "memories_fts_new", 1))
    op.execute("INSERT INTO memories_fts_new(rowid, owned) SELECT rowid, owned FROM memories_fts")
    op.execute("DROP TABLE memories_fts")
    op.execute("ALTER TABLE memories_fts_new RENAME TO memories_fts")
    op.execute("DROP TABLE audit_fts")
    op.execute(AUDIT_FTS.format(options=options))
    op.execute(f"INSERT INTO audit_fts(rowid, body, meta) SELECT seq, {_audit_text()}, {AUDIT_META} FROM audit_events")
    for _name, sql in triggers:
        op.execute(sql)


def _rebuild_memory_tags(*, without_rowid: bool) -> None:
    """The same table, columns, rows and index, stored WITHOUT ROWID (or back to a rowid table)."""
    columns = "memory_id, tag, athlete_id, type, updated_at"
    op.execute(
        "CREATE TABLE memory_tags_new (memory_id INTEGER NOT NULL, tag TEXT NOT NULL, athlete_id INTEGER NOT NULL, "
        "type VARCHAR(24) NOT NULL, updated_at DATETIME NOT NULL, PRIMARY KEY (memory_id, tag), "
        "FOREIGN KEY(memory_id) REFERENCES memories (id) ON DELETE CASCADE)"
        + (" WITHOUT ROWID" if without_rowid else "")
    )
    op.execute(f"INSERT INTO memory_tags_new ({columns}) SELECT {columns} FROM memory_tags")
    op.execute("DROP TABLE memory_tags")
    op.execute("ALTER TABLE memory_tags_new RENAME TO memory_tags")
    op.execute("CREATE INDEX ix_memory_tags_lookup ON memory_tags (athlete_id, type, tag, updated_at, memory_id)")
