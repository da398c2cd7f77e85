"""The keys dedup looks memories up by, computed the one way everywhere.

`content_key` is a digest of the normal form (domain/content.py), not the normal form itself:
a fixed 32 characters keeps the index small, and PostgreSQL's B-tree refuses entries over
about 2,700 bytes, which 2,000 characters of non-ASCII content can exceed. A digest match is
checked against the normal form before it counts (domain/dedup.py).

`tag_rows` are what an active memory contributes to the `memory_tags` table: one row per
distinct tag, carrying the memory's type and `updated_at`, so "the newest active memory of
this type with this tag" is one index probe. Kept by domain/memory_tags.py; a bulk loader
that inserts memories directly fills both with these functions.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from domain.content import normalize

CONTENT_KEY_LENGTH = 32


def content_key(content: str) -> str:
    return hashlib.sha256(normalize(content).encode()).hexdigest()[:CONTENT_KEY_LENGTH]


def distinct_tags(tags: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(tags))


def tag_rows(
    *, memory_id: int, athlete_id: int, memory_type: Any, tags: Iterable[str], updated_at: datetime | str
) -> list[dict[str, Any]]:
    """Rows for an ACTIVE memory (a memory in any other state has none)."""
    return [
        {"memory_id": memory_id, "athlete_id": athlete_id, "type": memory_type, "tag": tag, "updated_at": updated_at}
        for tag in distinct_tags(tags)
    ]
