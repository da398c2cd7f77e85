"""What the coach reads: relevance scoring (M13 seed §5.5) and the compact `MEMORY:` block of the
Josi seed, under a token budget. Pure functions: no database, `now` passed in.

Scoring, per memory, as §5.5: +2 per word shared by the query and the content; +5 per tag whose
entity (the part after the last ':') occurs in the lower-cased query; +3 for high confidence,
+1 for medium; +2 if updated less than 7 days ago, else +1 if less than 30. Only a score above 0
counts. One deviation: words are compared without the punctuation around them ("runs." = "runs").

Ranking (the order "highest value first"): score, then confidence, occurrences, newest update,
lowest id, so identical data always gives the identical block.

Categories: Facts are what is true of the athlete (injury history, preferences, context);
Patterns are what pattern analysis found across memories (insights); Notes are how the athlete
responds to training (training responses), the seed's "coaching notes". Caps 15 / 5 / 5.

Tokens are counted as ceil(characters / 4) of the whole block, characters being Unicode code
points: a documented, deterministic approximation of a sub-word tokenizer. The block is built
greedily in rank order; an item that would pass the budget or its category's cap is left out and
the next one is tried. No items: an empty block (no `MEMORY:` line at all).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from functools import cached_property
from typing import NamedTuple

from domain.enums import CONFIDENCE_RANK, MemoryConfidence, MemoryType

DEFAULT_MAX_TOKENS = 174
CHARS_PER_TOKEN = 4
HEADER = "MEMORY:"
SEPARATOR = " | "
PUNCTUATION = "\"'.,;:!?()[]{}<>«»“”‘’…-–—/\\*_`~"


class Category(StrEnum):
    FACTS = "facts"
    PATTERNS = "patterns"
    NOTES = "notes"


CATEGORY_OF: dict[MemoryType, Category] = {
    MemoryType.INJURY_HISTORY: Category.FACTS,
    MemoryType.PREFERENCE: Category.FACTS,
    MemoryType.CONTEXT: Category.FACTS,
    MemoryType.INSIGHT: Category.PATTERNS,
    MemoryType.TRAINING_RESPONSE: Category.NOTES,
}
CAPS: dict[Category, int] = {Category.FACTS: 15, Category.PATTERNS: 5, Category.NOTES: 5}
LINE_PREFIX: dict[Category, str] = {
    Category.FACTS: "\n- Facts: ",
    Category.PATTERNS: "\n- Patterns: ",
    Category.NOTES: "\n- Notes: ",
}
CONFIDENCE_POINTS: dict[MemoryConfidence, int] = {
    MemoryConfidence.HIGH: 3,
    MemoryConfidence.MEDIUM: 1,
    MemoryConfidence.LOW: 0,
}


def count_tokens(text: str) -> int:
    return math.ceil(len(text) / CHARS_PER_TOKEN)


def words(text: str) -> frozenset[str]:
    stripped = (word.strip(PUNCTUATION) for word in text.lower().split())
    return frozenset(word for word in stripped if word)


def block_text(content: str) -> str:
    """A memory as one block item: one line, and no '|' that would read as a separator."""
    return " ".join(content.split()).replace("|", "/")


@dataclass(frozen=True)
class Candidate:
    """What scoring needs to know of a memory the coach may see."""

    id: int
    type: MemoryType
    content: str
    tags: tuple[str, ...]
    confidence: MemoryConfidence
    occurrences: int
    updated_at: datetime

    # Worked out once per memory, not on every request that reads it (the index keeps its candidates).
    @cached_property
    def text(self) -> str:
        """The memory as a block item (`block_text`)."""
        return block_text(self.content)

    @cached_property
    def category(self) -> Category:
        return CATEGORY_OF[self.type]


class Scored(NamedTuple):
    """A memory with its score (a named tuple: a context request makes a hundred of them, and a frozen
    dataclass costs several times as much to make)."""

    candidate: Candidate
    score: int

    @property
    def category(self) -> Category:
        return self.candidate.category


@dataclass(frozen=True)
class Block:
    text: str
    items: tuple[Scored, ...]  # in block order: Facts, Patterns, Notes, each highest value first

    @property
    def tokens(self) -> int:
        return count_tokens(self.text)


def recency_points(updated_at: datetime, now: datetime) -> int:
    days_old = (now - updated_at).days
    if days_old < 7:
        return 2
    return 1 if days_old < 30 else 0


def score(candidate: Candidate, query_words: frozenset[str], query_lower: str, now: datetime) -> int:
    points = 2 * len(words(candidate.content) & query_words)
    points += sum(5 for tag in candidate.tags if tag.split(":")[-1] in query_lower)
    points += CONFIDENCE_POINTS[candidate.confidence]
    return points + recency_points(candidate.updated_at, now)


def rank_key(item: Scored) -> tuple[int, int, int, float, int]:
    c = item.candidate
    return (-item.score, -CONFIDENCE_RANK[c.confidence], -c.occurrences, -c.updated_at.timestamp(), c.id)


def rank(candidates: Iterable[Candidate], query: str, now: datetime) -> list[Scored]:
    """Memories with a score above 0, highest value first."""
    query_lower = query.lower()
    query_words = words(query)
    scored = [Scored(c, score(c, query_words, query_lower, now)) for c in candidates]
    return sorted((s for s in scored if s.score > 0), key=rank_key)


def build_block(ranked: Iterable[Scored], max_tokens: int = DEFAULT_MAX_TOKENS, *, shortest: int = 0) -> Block:
    """The greedy fill described in the module docstring; `ranked` comes from `rank` (or is read
    lazily from a CoachIndex). `shortest`, the length of the shortest item there may be, only lets
    the fill stop early once nothing could fit any more; it never changes the block."""
    budget = max(0, max_tokens) * CHARS_PER_TOKEN  # ceil(chars / 4) <= max_tokens  <=>  chars <= 4 * max_tokens
    chosen: dict[Category, list[tuple[Scored, str]]] = {category: [] for category in Category}
    used = 0
    for item in ranked:
        if budget - used < shortest + len(SEPARATOR):
            break
        category = item.candidate.category
        line = chosen[category]
        if len(line) >= CAPS[category]:
            if all(len(chosen[c]) >= CAPS[c] for c in Category):
                break
            continue
        text = item.candidate.text
        cost = len(text) + (len(SEPARATOR) if line else len(LINE_PREFIX[category]))
        if used == 0:
            cost += len(HEADER)
        if used + cost > budget:
            continue
        line.append((item, text))
        used += cost
    if used == 0:
        return Block("", ())
    parts = [HEADER]
    items: list[Scored] = []
    for category in Category:
        if chosen[category]:
            parts.append(LINE_PREFIX[category] + SEPARATOR.join(text for _, text in chosen[category]))
            items += [item for item, _ in chosen[category]]
    return Block("".join(parts), tuple(items))
