"""Patterns across one athlete's memories (M13 seed §5.4): a recurring injury location.

Input is plain data, so callers can pass confirmed memories, archived ones and pending
proposals alike. The seed counted memories; with its own deduplication a second knee memory
supersedes the first and carries the occurrence count forward, so here every observation
contributes its `occurrences` and the threshold applies to the sum.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from domain.enums import MemoryConfidence, MemorySource, MemoryType

RECURRING_INJURY_THRESHOLD = 3
PATTERN_RECURRING_INJURY = "recurring_injury"

_DISPLAY = {"it band": "IT band", "achilles": "Achilles"}
_SIDE_RE = re.compile(r"\b(left|right)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Observation:
    type: MemoryType
    tags: tuple[str, ...]
    content: str
    reference: str
    occurrences: int = 1


@dataclass(frozen=True)
class Insight:
    """Shaped like an extraction candidate, plus the references it rests on."""

    content: str
    confidence: MemoryConfidence
    tags: tuple[str, ...]
    evidence: tuple[str, ...]
    type: MemoryType = MemoryType.INSIGHT
    source: MemorySource = MemorySource.PATTERN_ANALYSIS


def _side(contents: Iterable[str]) -> str | None:
    """The side, when the observations that name one all name the same one."""
    sides = {m.group(1).lower() for c in contents for m in _SIDE_RE.finditer(c)}
    return sides.pop() if len(sides) == 1 else None


def recurring_injuries(
    observations: Iterable[Observation], threshold: int = RECURRING_INJURY_THRESHOLD
) -> list[Insight]:
    by_part: dict[str, list[Observation]] = {}
    for obs in observations:
        if obs.type is not MemoryType.INJURY_HISTORY:
            continue
        for tag in dict.fromkeys(obs.tags):
            if tag.startswith("body:"):
                by_part.setdefault(tag.removeprefix("body:"), []).append(obs)
    insights = []
    for part, seen in by_part.items():
        count = sum(max(o.occurrences, 1) for o in seen)
        if count < threshold:
            continue
        side = _side(o.content for o in seen)
        where = f"{side} {_DISPLAY.get(part, part)}" if side else _DISPLAY.get(part, part)
        insights.append(
            Insight(
                content=f"Recurring {where} issues: {count} observations",
                confidence=MemoryConfidence.HIGH,
                tags=(f"body:{part}", f"pattern:{PATTERN_RECURRING_INJURY}"),
                evidence=tuple(dict.fromkeys(o.reference for o in seen)),
            )
        )
    return insights


def covered_parts(existing: Iterable[tuple[str, Iterable[str]]]) -> set[str]:
    parts: set[str] = set()
    for content, tags in existing:
        tag_parts = {t.removeprefix("body:") for t in tags if t.startswith("body:")}
        if tag_parts:
            parts |= tag_parts
            continue
        match = re.match(r"recurring\s+(?:(?:left|right)\s+)?(.+?)\s+issues\b", content.strip(), re.IGNORECASE)
        if match:
            parts.add(match.group(1).lower())
    return parts


def new_insights(
    observations: Iterable[Observation],
    existing_insights: Iterable[tuple[str, Iterable[str]]],
    threshold: int = RECURRING_INJURY_THRESHOLD,
) -> list[Insight]:
    """Recurring-injury insights for body parts no existing insight (content, tags) covers yet."""
    covered = covered_parts(existing_insights)
    return [i for i in recurring_injuries(observations, threshold) if i.tags[0].removeprefix("body:") not in covered]
