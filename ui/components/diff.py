"""What changed between two versions of a memory, as words people read (no HTML)."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Any, Literal

from domain.enums import MemoryConfidence, MemoryType
from ui.components.labels import CONFIDENCE_LABELS, TYPE_SINGULAR
from ui.components.words import tags_words

Kind = Literal["same", "removed", "added"]
_TOKEN = re.compile(r"\s+|[^\s]+")


@dataclass(frozen=True)
class Piece:
    text: str
    kind: Kind = "same"


def word_diff(old: str, new: str) -> list[Piece]:
    """Word-level diff of two statements: unchanged, removed and added runs, in reading order."""
    a, b = _TOKEN.findall(old), _TOKEN.findall(new)
    pieces: list[Piece] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if op == "equal":
            pieces.append(Piece("".join(a[i1:i2])))
            continue
        if op in ("delete", "replace"):
            pieces.append(Piece("".join(a[i1:i2]), "removed"))
        if op in ("insert", "replace"):
            pieces.append(Piece("".join(b[j1:j2]), "added"))
    return [p for p in pieces if p.text]


def type_words(value: Any) -> str:
    try:
        return TYPE_SINGULAR[MemoryType(value)]
    except ValueError:
        return str(value)


def confidence_words(value: Any) -> str:
    try:
        return CONFIDENCE_LABELS[MemoryConfidence(value)]
    except ValueError:
        return str(value)


def field_changes(before: dict[str, Any] | None, after: dict[str, Any] | None) -> list[str]:
    """One line per changed field other than the statement (type, tags, confidence, times seen, state)."""
    if not before or not after:
        return []
    lines: list[str] = []
    if before.get("type") != after.get("type"):
        lines.append(f"Type: {type_words(before.get('type'))} → {type_words(after.get('type'))}")
    old_tags, new_tags = list(before.get("tags") or []), list(after.get("tags") or [])
    added = [t for t in new_tags if t not in old_tags]
    removed = [t for t in old_tags if t not in new_tags]
    if added:
        lines.append("Tags added: " + tags_words(added))
    if removed:
        lines.append("Tags removed: " + tags_words(removed))
    if before.get("confidence") != after.get("confidence"):
        lines.append(
            f"Confidence: {confidence_words(before.get('confidence'))} → {confidence_words(after.get('confidence'))}"
        )
    if before.get("occurrences") != after.get("occurrences"):
        lines.append(f"Seen: {before.get('occurrences')}× → {after.get('occurrences')}×")
    if before.get("status") != after.get("status"):
        lines.append(f"State: {_state_words(before.get('status'))} → {_state_words(after.get('status'))}")
    return lines


_STATES = {"active": "Active", "deleted": "Deleted", "archived": "Replaced"}


def _state_words(status: object) -> str:
    return _STATES.get(str(status), str(status))
