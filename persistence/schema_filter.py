"""Schema objects that migrations create by hand and the models do not describe."""

from __future__ import annotations

FTS_TABLES = frozenset(
    {
        "memories_fts",
        "memories_fts_data",
        "memories_fts_idx",
        "memories_fts_docsize",
        "memories_fts_config",
        "memories_fts_content",
    }
)
SEARCH_INDEX = "ix_memories_owned_tsv"  # PostgreSQL's marked-word index (migration 0007_search_scope_admin)
# The audit log's text search (migration 0004_audit_checkpoints): a contentless FTS5 table, a GIN index.
AUDIT_FTS_TABLES = frozenset({"audit_fts", "audit_fts_data", "audit_fts_idx", "audit_fts_docsize", "audit_fts_config"})
AUDIT_SEARCH_INDEX = "ix_audit_events_search"


def include_object(obj: object, name: str | None, type_: str, reflected: bool, compare_to: object) -> bool:
    if type_ == "table" and (name in FTS_TABLES or name in AUDIT_FTS_TABLES):
        return False
    return not (type_ == "index" and name in (SEARCH_INDEX, AUDIT_SEARCH_INDEX))
