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
SEARCH_INDEX = "ix_memories_content_tsv"


def include_object(obj: object, name: str | None, type_: str, reflected: bool, compare_to: object) -> bool:
    if type_ == "table" and name in FTS_TABLES:
        return False
    return not (type_ == "index" and name == SEARCH_INDEX)
