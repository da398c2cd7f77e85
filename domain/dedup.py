"""The M13 seed's deduplication, decided before anything is written.

Order: the same normalized content as an active memory → count it again; else the same
type with an overlapping entity tag → the new memory replaces it; else new.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from domain.content import normalize
from domain.enums import MemoryType
from domain.models import Memory

Outcome = Literal["new", "seen_before", "replaces"]
HIGH_CONFIDENCE_OCCURRENCES = 3


@dataclass(frozen=True)
class ConfirmPreview:
    outcome: Outcome
    memory: Memory | None
    occurrences_after: int


class MemoryIndex:
    """An athlete's active memories, indexed once for many previews (no query per proposal)."""

    def __init__(self, memories: Iterable[Memory]) -> None:
        self.by_content: dict[str, Memory] = {}
        self.by_type: dict[MemoryType, list[Memory]] = {}
        for memory in sorted(memories, key=lambda m: m.updated_at, reverse=True):
            self.by_content.setdefault(normalize(memory.content), memory)
            self.by_type.setdefault(memory.type, []).append(memory)

    def add(self, memory: Memory) -> None:
        """A memory just created: the newest of its type."""
        self.by_content.setdefault(normalize(memory.content), memory)
        self.by_type.setdefault(memory.type, []).insert(0, memory)

    def remove(self, memory: Memory) -> None:
        """A memory no longer active (replaced by a newer one)."""
        self.by_type[memory.type] = [m for m in self.by_type.get(memory.type, []) if m.id != memory.id]
        self.by_content = {key: m for key, m in self.by_content.items() if m.id != memory.id}

    def preview(self, content: str, memory_type: MemoryType, tags: Sequence[str]) -> ConfirmPreview:
        same = self.by_content.get(normalize(content))
        if same is not None:
            return ConfirmPreview("seen_before", same, same.occurrences + 1)
        wanted = set(tags)
        for existing in self.by_type.get(memory_type, []):
            if wanted & set(existing.tags):
                return ConfirmPreview("replaces", existing, existing.occurrences + 1)
        return ConfirmPreview("new", None, 1)
