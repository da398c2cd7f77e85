"""Search scoped to the athlete on SQLite: the FTS5 table also indexes owner-marked tokens.

The old table was an external-content index of content and tags; the new one stores its own
columns (content, tags, owned), so its triggers can index tokens computed from the row
(`mr_owned_tokens`, registered on every connection by persistence/engine.py).

Revision ID: 0002_search_scope
Revises: 0001
"""

from __future__ import annotations

from alembic import op

revision: str = "0002_search_scope"
down_revision: str | None = "0001"
branch_labels = None
depends_on = None

OWNED = "mr_owned_tokens(new.athlete_id, new.content, new.tags)"
TRIGGERS = ("memories_fts_insert", "memories_fts_delete", "memories_fts_update")

SCOPED_FTS = [
    "CREATE VIRTUAL TABLE memories_fts USING fts5(content, tags, owned, tokenize='porter unicode61')",
    "INSERT INTO memories_fts(rowid, content, tags, owned) "
    "SELECT id, content, tags, mr_owned_tokens(athlete_id, content, tags) FROM memories",
    "CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories BEGIN "
    f"INSERT INTO memories_fts(rowid, content, tags, owned) VALUES (new.id, new.content, new.tags, {OWNED}); END",
    "CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories BEGIN "
    "DELETE FROM memories_fts WHERE rowid = old.id; END",
    "CREATE TRIGGER memories_fts_update AFTER UPDATE OF content, tags, athlete_id ON memories BEGIN "
    "DELETE FROM memories_fts WHERE rowid = old.id; "
    f"INSERT INTO memories_fts(rowid, content, tags, owned) VALUES (new.id, new.content, new.tags, {OWNED}); END",
]

GLOBAL_FTS = [
    "CREATE VIRTUAL TABLE memories_fts USING fts5("
    "content, tags, content='memories', content_rowid='id', tokenize='porter unicode61')",
    "INSERT INTO memories_fts(memories_fts) VALUES ('rebuild')",
    "CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories BEGIN "
    "INSERT INTO memories_fts(rowid, content, tags) VALUES (new.id, new.content, new.tags); END",
    "CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories BEGIN "
    "INSERT INTO memories_fts(memories_fts, rowid, content, tags) "
    "VALUES ('delete', old.id, old.content, old.tags); END",
    "CREATE TRIGGER memories_fts_update AFTER UPDATE OF content, tags ON memories BEGIN "
    "INSERT INTO memories_fts(memories_fts, rowid, content, tags) "
    "VALUES ('delete', old.id, old.content, old.tags); "
    "INSERT INTO memories_fts(rowid, content, tags) VALUES (new.id, new.content, new.tags); END",
]


def _replace_index(statements: list[str]) -> None:
    if op.get_bind().dialect.name != "sqlite":
        return  # PostgreSQL keeps its tsvector index
    for name in TRIGGERS:
        op.execute(f"DROP TRIGGER IF EXISTS {name}")
    op.execute("DROP TABLE IF EXISTS memories_fts")
    for statement in statements:
        op.execute(statement)


def upgrade() -> None:
    _replace_index(SCOPED_FTS)


def downgrade() -> None:
    _replace_index(GLOBAL_FTS)
