"""Every text search reads only its own part of an index, on SQLite and on PostgreSQL.

An index entry is a word marked with whose it is (domain/search.py): the athlete's mark for
every memory, and the mark of id 0, which is no athlete's, for a deleted memory too. An
athlete's search, and the admin's search of deleted memories, then read only their own
entries, whatever the rest of the database holds.

SQLite: the FTS5 table keeps only the marked words (`owned`); 0002's unmarked content and
tags columns served a search across everyone, which nothing asks for any more. The update
trigger also follows a memory into and out of the deleted state.

PostgreSQL: one GIN index over the same marked words, computed by an immutable function from
the row; it replaces the unmarked tsvector index, whose prefix lookups collected every
athlete's matches of a word before the athlete filter ran.

The memory list gets an index of its own: (athlete, status, type, updated_at, id) leads, so
each type's first page and the next one ("Show more", after the last shown row) are read in
order; confidence, occurrences and source follow, so counts under any filter and the
confidence sort never visit the table.

Revision ID: 0007_search_scope_admin
Revises: 0002_search_scope
"""

from __future__ import annotations

from alembic import op

LIST_INDEX = "ix_memories_athlete_type_updated"
LIST_COLUMNS = ["athlete_id", "status", "type", "updated_at", "id", "confidence", "occurrences", "source"]

revision: str = "0007_search_scope_admin"
down_revision: str | None = "0002_search_scope"
branch_labels = None
depends_on = None

TRIGGERS = ("memories_fts_insert", "memories_fts_delete", "memories_fts_update")


def _owned(row: str) -> str:
    return (
        f"mr_owned_tokens({row}.athlete_id, {row}.content, {row}.tags) || CASE WHEN {row}.status = 'deleted' "
        f"THEN ' ' || mr_owned_tokens(0, {row}.content, {row}.tags) ELSE '' END"
    )


SQLITE_MARKED = [
    "CREATE VIRTUAL TABLE memories_fts USING fts5(owned, tokenize='porter unicode61')",
    f"INSERT INTO memories_fts(rowid, owned) SELECT id, {_owned('memories')} FROM memories",
    "CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories BEGIN "
    f"INSERT INTO memories_fts(rowid, owned) VALUES (new.id, {_owned('new')}); END",
    "CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories BEGIN "
    "DELETE FROM memories_fts WHERE rowid = old.id; END",
    "CREATE TRIGGER memories_fts_update AFTER UPDATE OF content, tags, athlete_id, status ON memories "
    "WHEN old.content IS NOT new.content OR old.tags IS NOT new.tags OR old.athlete_id IS NOT new.athlete_id "
    "OR (old.status = 'deleted') IS NOT (new.status = 'deleted') BEGIN "
    "DELETE FROM memories_fts WHERE rowid = old.id; "
    f"INSERT INTO memories_fts(rowid, owned) VALUES (new.id, {_owned('new')}); END",
]

# 0002's table, for the downgrade.
SQLITE_0002 = "mr_owned_tokens(new.athlete_id, new.content, new.tags)"
SQLITE_UNMARKED_AND_MARKED = [
    "CREATE VIRTUAL TABLE memories_fts USING fts5(content, tags, owned, tokenize='porter unicode61')",
    "INSERT INTO memories_fts(rowid, content, tags, owned) "
    "SELECT id, content, tags, mr_owned_tokens(athlete_id, content, tags) FROM memories",
    "CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories BEGIN "
    f"INSERT INTO memories_fts(rowid, content, tags, owned) VALUES (new.id, new.content, new.tags, {SQLITE_0002}); END",
    "CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories BEGIN "
    "DELETE FROM memories_fts WHERE rowid = old.id; END",
    "CREATE TRIGGER memories_fts_update AFTER UPDATE OF content, tags, athlete_id ON memories BEGIN "
    "DELETE FROM memories_fts WHERE rowid = old.id; "
    f"INSERT INTO memories_fts(rowid, content, tags, owned) VALUES (new.id, new.content, new.tags, {SQLITE_0002}); "
    "END",
]

# The mark is the owner's id in ten consonants (digits 0-9 -> b..m): stemming treats it as a
# word's leading consonants, and no word a person types starts with ten of them.
PG_MARK = "translate(lpad(athlete::text, 10, '0'), '0123456789', 'bcdfghjklm')"
PG_FUNCTIONS = [
    "CREATE FUNCTION mr_owned_tsvector(athlete integer, status text, content text, tags json) "
    "RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE COST 1000 AS $$ "
    "SELECT array_to_tsvector(coalesce(array_agg(mark || lexeme), '{}')) "
    "FROM unnest(tsvector_to_array(to_tsvector('english'::regconfig, content || ' ' || tags::text))) AS lexeme, "
    f"unnest(CASE WHEN status = 'deleted' THEN ARRAY[{PG_MARK}, 'bbbbbbbbbb'] ELSE ARRAY[{PG_MARK}] END) AS mark $$",
    "CREATE FUNCTION mr_owned_tsquery(athlete integer, words text[]) "
    "RETURNS tsquery LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ "
    f"SELECT coalesce(string_agg(quote_literal({PG_MARK} || lexeme) || ':*', ' & '), '')::tsquery "
    "FROM unnest(words) AS word, unnest(tsvector_to_array(to_tsvector('english'::regconfig, word))) AS lexeme $$",
]
PG_INDEX = "ix_memories_owned_tsv"
PG_OLD_INDEX = "ix_memories_content_tsv"


def upgrade() -> None:
    # A plain CREATE INDEX: batch mode would copy the table on SQLite and lose its triggers.
    op.create_index(LIST_INDEX, "memories", LIST_COLUMNS, unique=False)
    if op.get_bind().dialect.name == "sqlite":
        _replace_sqlite_index(SQLITE_MARKED)
        return
    for statement in PG_FUNCTIONS:
        op.execute(statement)
    op.execute(f"CREATE INDEX {PG_INDEX} ON memories USING gin (mr_owned_tsvector(athlete_id, status, content, tags))")
    op.execute(f"DROP INDEX IF EXISTS {PG_OLD_INDEX}")


def downgrade() -> None:
    op.drop_index(LIST_INDEX, table_name="memories")
    if op.get_bind().dialect.name == "sqlite":
        _replace_sqlite_index(SQLITE_UNMARKED_AND_MARKED)
        return
    op.execute(f"CREATE INDEX {PG_OLD_INDEX} ON memories USING gin (to_tsvector('english', content))")
    op.execute(f"DROP INDEX IF EXISTS {PG_INDEX}")
    op.execute("DROP FUNCTION IF EXISTS mr_owned_tsquery(integer, text[])")
    op.execute("DROP FUNCTION IF EXISTS mr_owned_tsvector(integer, text, text, json)")


def _replace_sqlite_index(statements: list[str]) -> None:
    for name in TRIGGERS:
        op.execute(f"DROP TRIGGER IF EXISTS {name}")
    op.execute("DROP TABLE IF EXISTS memories_fts")
    for statement in statements:
        op.execute(statement)
