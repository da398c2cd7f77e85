"""The M13 seed's original extraction patterns (§5.1, §4.2), kept only as a benchmark baseline."""

from __future__ import annotations

import re
from dataclasses import dataclass

from domain.enums import MemorySource, MemoryType

BODY_PARTS = [
    "knee",
    "ankle",
    "calf",
    "shin",
    "hip",
    "hamstring",
    "quad",
    "achilles",
    "foot",
    "heel",
    "back",
    "shoulder",
    "it band",
    "plantar",
    "glute",
]
TIME_PREFERENCES = ["morning", "evening", "afternoon", "lunch", "early", "late", "before work", "after work"]
INTENSITY_TOPICS = ["easy", "hard", "tempo", "intervals", "long run", "recovery", "speed work", "hill repeats"]
CONTEXT_TOPICS = ["job", "work", "travel", "family", "kids", "commute", "gym", "climbing", "cycling"]

EXTRACTION_PATTERNS: dict[MemoryType, list[tuple[str, str]]] = {
    MemoryType.INJURY_HISTORY: [
        (
            r"\b(knee|ankle|calf|shin|hip|hamstring|quad|achilles|foot|back|shoulder)\b.*?\b(pain|tight|sore|injury"
            r"|issues?|problem|hurt)\b",
            "body_part_issue",
        ),
        (
            r"\b(pain|tight|sore|injury|issues?|problem|hurt)\b.*?\b(knee|ankle|calf|shin|hip|hamstring|quad|achilles"
            r"|foot|back|shoulder)\b",
            "issue_body_part",
        ),
        (r"\b(history of|recurring|chronic|old)\b.*?\b(injury|pain|issue)", "chronic_indicator"),
    ],
    MemoryType.PREFERENCE: [
        (r"\bi prefer\b.*?(morning|evening|early|late|short|long|easy|hard)", "explicit_prefer"),
        (r"\b(morning|evening|early|late)\b.*?\b(works? best|is best|suits me)", "time_preference"),
        (r"\bi (like|love|enjoy)\b.*?(running|tempo|intervals|long runs?|easy)", "positive_preference"),
        (r"\bi (hate|dislike|don\'t like)\b.*?(running|tempo|intervals|long runs?|treadmill)", "negative_preference"),
    ],
    MemoryType.CONTEXT: [
        (r"\b(i work as|my job is|i\'m a)\b\s+(\w+)", "job_context"),
        (r"\bi have\b.*?(\d+)\s*(kids?|children)", "family_context"),
        (r"\bi also (do|train|practice)\b\s+(\w+)", "other_sport"),
        (r"\bi\s+(climb|cycle|swim)\b.*?(\d+)\s*(times?|days?)\s*(per|a)\s*week", "sport_frequency"),
    ],
    MemoryType.TRAINING_RESPONSE: [
        (r"\bi recover\b\s*(quickly|slowly|fast|well)", "recovery_rate"),
        (
            r"(intervals?|tempo|long runs?|hills?)\b.*?\b(make me|leave me)\s*(tired|sore|exhausted)",
            "training_response",
        ),
    ],
}
_COMPILED = {t: [(re.compile(p, re.IGNORECASE), n) for p, n in ps] for t, ps in EXTRACTION_PATTERNS.items()}


@dataclass(frozen=True)
class SeedMemory:
    type: MemoryType
    content: str
    tags: tuple[str, ...]


def _tags(text: str, memory_type: MemoryType) -> tuple[str, ...]:
    lower = text.lower()
    if memory_type == MemoryType.INJURY_HISTORY:
        return tuple(f"body:{p}" for p in BODY_PARTS if p in lower)
    if memory_type == MemoryType.PREFERENCE:
        return tuple(f"time:{t}" for t in TIME_PREFERENCES if t in lower) + tuple(
            f"intensity:{i}" for i in INTENSITY_TOPICS if i in lower
        )
    if memory_type == MemoryType.CONTEXT:
        return tuple(f"context:{c}" for c in CONTEXT_TOPICS if c in lower)
    return ()


def seed_extract(text: str, source: MemorySource) -> list[SeedMemory]:
    """As the seed: every match of every pattern is a memory, no clause or negation handling."""
    if not text or not text.strip():
        return []
    lower = text.lower()
    found = []
    for memory_type, patterns in _COMPILED.items():
        for pattern, _name in patterns:
            for m in pattern.finditer(lower):
                found.append(SeedMemory(memory_type, m.group(0).strip().capitalize(), _tags(m.group(0), memory_type)))
    return found
