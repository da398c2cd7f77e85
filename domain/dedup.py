"""The M13 seed's deduplication, decided before anything is written.

Order: the same normalized content as an active memory → count it again; else the same
type with an overlapping tag of the type's main kind (`MAIN_TAG_KINDS`) → the new memory
replaces it; else new. Among several, the most recently updated one.

Nothing loads all of an athlete's memories: `candidates` looks up, for a batch of proposals,
only the memories that can decide them (by content key, and the newest active memory per
type and tag), in a bounded number of statements; `MemoryIndex` decides over those.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal, cast

from sqlalchemy import BindParameter, Integer, Select, String, Table, bindparam, select, union_all
from sqlalchemy.orm import Session

from domain.content import normalize
from domain.dedup_keys import content_key
from domain.enums import MemoryStatus, MemoryType
from domain.memory_rows import RowReader, load_memories
from domain.models import Memory, MemoryTag

Outcome = Literal["new", "seen_before", "replaces"]
HIGH_CONFIDENCE_OCCURRENCES = 3
PROBES_PER_STATEMENT = 200  # SQLite allows 500 terms in one compound SELECT


@dataclass(frozen=True)
class ConfirmPreview:
    outcome: Outcome
    memory: Memory | None
    occurrences_after: int


@dataclass(frozen=True)
class Wanted:
    """A memory as a proposal would make it: what dedup compares."""

    content: str
    type: MemoryType
    tags: Sequence[str]


# What a memory of each type is about, for "replaces": the body part of an injury or a training response,
# when or how hard for a preference, the kind of context. Other tags describe a memory without making two
# memories one ("Long runs leave me wrecked" does not replace "Long runs make me hungry"); a type without an
# entry (insight) compares every tag.
MAIN_TAG_KINDS: dict[MemoryType, tuple[str, ...]] = {
    MemoryType.INJURY_HISTORY: ("body:",),
    MemoryType.TRAINING_RESPONSE: ("body:",),
    MemoryType.PREFERENCE: ("time:", "intensity:"),
    MemoryType.CONTEXT: ("context:",),
}


def main_tags(memory_type: MemoryType, tags: Iterable[str]) -> set[str]:
    """The tags of `tags` that say what a memory of `memory_type` is about (`MAIN_TAG_KINDS`)."""
    kinds = MAIN_TAG_KINDS.get(memory_type)
    return {tag for tag in tags if kinds is None or tag.startswith(kinds)}


def _newest_first(memory: Memory) -> tuple[object, int]:
    return memory.updated_at, memory.id or 0


class MemoryIndex:
    """Active memories indexed for many previews. Built over `candidates(...)` it decides exactly
    as over all of the athlete's memories: it holds every memory of the same content and, for
    each wanted type and tag, the newest memory carrying them."""

    def __init__(self, memories: Iterable[Memory]) -> None:
        self.by_content: dict[str, Memory] = {}
        self.by_type: dict[MemoryType, list[Memory]] = {}
        for memory in sorted(memories, key=_newest_first, reverse=True):
            self.by_content.setdefault(normalize(memory.content), memory)
            self.by_type.setdefault(memory.type, []).append(memory)

    def preview(self, content: str, memory_type: MemoryType, tags: Sequence[str]) -> ConfirmPreview:
        same = self.by_content.get(normalize(content))
        if same is not None:
            return ConfirmPreview("seen_before", same, same.occurrences + 1)
        wanted = main_tags(memory_type, tags)
        for existing in self.by_type.get(memory_type, []):
            if wanted & set(existing.tags):
                return ConfirmPreview("replaces", existing, existing.occurrences + 1)
        return ConfirmPreview("new", None, 1)


def candidates(session: Session, athlete_id: int, wanted: Sequence[Wanted]) -> MemoryIndex:
    """The athlete's active memories that can decide `wanted`: per content key, and per wanted
    (type, tag of its main kind), the newest active memory that has it. One statement per 200 of these probes (one
    for a single proposal), each probe one index lookup, whatever the athlete has stored."""
    keys = sorted({content_key(w.content) for w in wanted})
    pairs = sorted(
        {(w.type, tag) for w in wanted for tag in main_tags(w.type, w.tags)}, key=lambda pair: (pair[0].value, pair[1])
    )
    probes: list[tuple[str, MemoryType | None, str]] = [("key", None, key) for key in keys]
    probes += [("tag", memory_type, tag) for memory_type, tag in pairs]
    found: list[Memory] = []
    for start in range(0, len(probes), PROBES_PER_STATEMENT):
        chunk = probes[start : start + PROBES_PER_STATEMENT]
        params: dict[str, object] = {"athlete_id": athlete_id}
        for n, (_, memory_type, value) in enumerate(chunk):
            params[f"type_{n}"], params[f"value_{n}"] = memory_type, value
        shape = tuple(kind for kind, _, _ in chunk)
        found += load_memories(session, _lookup(shape.count("key"), shape.count("tag")), params)
    return MemoryIndex(m for m in dict.fromkeys(found) if m.status == MemoryStatus.ACTIVE)


@lru_cache(maxsize=128)
def _lookup(keys: int, pairs: int) -> RowReader:
    """Built and compiled once per shape (memory_rows.RowReader).

    The ids come from one UNION ALL of index probes (ix_memories_dedup_content, ix_memory_tags_lookup),
    and the memories by primary key alone: with a condition on athlete or status beside it, a planner
    short of statistics (PostgreSQL before its first ANALYZE) walks all of the athlete's memories. So
    the caller keeps the active ones. The rows are read as plain rows and attached (load_memories):
    the soft-delete filter, an ORM option, does not apply to them, as it must not here."""
    athlete_id: BindParameter[int] = bindparam("athlete_id", type_=Integer)
    probes = [_same_content(athlete_id, n) for n in range(keys)]
    probes += [_same_tag(athlete_id, n) for n in range(keys, keys + pairs)]
    return RowReader(select(_MEMORIES).where(_MEMORIES.c.id.in_(union_all(*probes))))


_MEMORIES = cast(Table, Memory.__table__)


def _same_content(athlete_id: BindParameter[int], n: int) -> Select[int]:
    newest = (
        select(Memory.id)
        .where(
            Memory.athlete_id == athlete_id,
            Memory.content_key == bindparam(f"value_{n}", type_=String),
            Memory.status == MemoryStatus.ACTIVE,
        )
        .order_by(Memory.updated_at.desc(), Memory.id.desc())
        .limit(1)
        .subquery()
    )
    return select(newest.c.id)


def _same_tag(athlete_id: BindParameter[int], n: int) -> Select[int]:
    newest = (
        select(MemoryTag.memory_id)
        .where(
            MemoryTag.athlete_id == athlete_id,
            MemoryTag.type == bindparam(f"type_{n}"),
            MemoryTag.tag == bindparam(f"value_{n}", type_=String),
        )
        .order_by(MemoryTag.updated_at.desc(), MemoryTag.memory_id.desc())
        .limit(1)
        .subquery()
    )
    return select(newest.c.memory_id)


def preview_one(session: Session, athlete_id: int, wanted: Wanted) -> ConfirmPreview:
    return candidates(session, athlete_id, [wanted]).preview(wanted.content, wanted.type, wanted.tags)
