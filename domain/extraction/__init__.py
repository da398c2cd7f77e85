"""Turn an activity note or chat message into candidate memories (M13 seed §5.1, improved).

The seed matched its regexes against the whole text, so "no knee pain today" became an
injury and one fact matched by two patterns became two memories. Here the text is cut into
sentences and clauses first (`clauses`); every rule then looks at one clause, and a clause is
skipped when it is a question, about someone else (`subject`), negated, recovered or
hypothetical (`injuries`). Each clause yields at most one candidate per memory type
(`facts`, `rules`), its content tidied into a third-person statement (`tidy`), and equal facts
within one text are merged (`extractor`).

Confidence follows the seed's `_assess_confidence`: explicit statements (I prefer, my job,
history of / chronic, explicit "remember that") are high; preferences and training responses
are medium; everything else (a body part with a symptom, family, other sports, recovery rate)
is low.

Tags come from one vocabulary (domain/vocabulary.py); `suggest(text)` gives the Add dialog a type and
tags from the same rules.

Every pattern and every loop is linear in the length of the text: tests/unit/test_extraction_linear.py.

The rules are compiled on first use, not on import (about a second of CPU): a server or the desktop app imports this
package at start and serves its first page without waiting for them. `prepare()` compiles them ahead, e.g. in a
background thread at start; two threads extracting first at once both wait for the one compile (Python's import lock).
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import TYPE_CHECKING, Any

from domain.content import MAX_CONTENT as MAX_CONTENT_CHARS
from domain.enums import MemorySource, MemoryType
from domain.extraction.candidate import Candidate, Extractor

if TYPE_CHECKING:
    from collections.abc import Iterable

    from domain.extraction.extractor import RuleExtractor

__all__ = [
    "MAX_CONTENT_CHARS",
    "Candidate",
    "Extractor",
    "RuleExtractor",
    "default_extractors",
    "extract_memories",
    "merge_duplicates",
    "prepare",
    "suggest",
]

_RULES = "domain.extraction.extractor"
_SUGGEST = "domain.extraction.suggestions"


def _module(name: str) -> ModuleType:
    """The module `name`, imported (and its rules compiled) on first use; after that sys.modules' copy. A thread
    that asks while another imports it waits for the import to finish (importlib's per-module lock), so nobody
    sees half-compiled rules."""
    return importlib.import_module(name)


def prepare() -> None:
    """Compile the rules now rather than on the first extraction."""
    _module(_RULES)
    _module(_SUGGEST)


def extract_memories(text: str, source: MemorySource, source_reference: str | None = None) -> list[Candidate]:
    """Candidates from every default extractor, one per fact (domain.extraction.extractor)."""
    found: list[Candidate] = _module(_RULES).extract_memories(text, source, source_reference)
    return found


def default_extractors() -> list[Extractor]:
    extractors: list[Extractor] = _module(_RULES).default_extractors()
    return extractors


def merge_duplicates(candidates: Iterable[Candidate]) -> list[Candidate]:
    """One candidate per fact: same type and same tags (or same content when untagged)."""
    merged: list[Candidate] = _module(_RULES).merge_duplicates(candidates)
    return merged


def suggest(text: str) -> tuple[MemoryType | None, tuple[str, ...]]:
    """The memory type and tags the rules read in a memory typed by hand (domain.extraction.suggestions)."""
    suggested: tuple[MemoryType | None, tuple[str, ...]] = _module(_SUGGEST).suggest(text)
    return suggested


def __getattr__(name: str) -> Any:
    if name == "RuleExtractor":
        return _module(_RULES).RuleExtractor
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
