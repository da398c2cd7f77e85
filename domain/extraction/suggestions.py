"""Suggestions for a memory typed by hand (the Add dialog): its type and tags, from the same rules."""

from __future__ import annotations

from domain.enums import CONFIDENCE_RANK, MemorySource, MemoryType
from domain.extraction.extractor import extract_memories
from domain.vocabulary import tags_in

_IRREGULAR = {"is": "I am", "has": "I have", "does": "I do", "was": "I was"}


def _first_person(text: str) -> str:
    """A memory as the dialog holds it, "Prefers easy runs", as the athlete would say it: "I prefer easy runs"."""
    first, _, rest = text.strip().partition(" ")
    lower = first.lower()
    if lower in _IRREGULAR:
        verb = _IRREGULAR[lower]
    elif not lower.isalpha() or not lower.endswith("s") or lower.endswith("ss"):
        return text
    elif lower.endswith("ies"):
        verb = "I " + lower[:-3] + "y"
    elif lower.endswith(("ches", "shes", "sses", "xes", "oes")):
        verb = "I " + lower[:-2]
    else:
        verb = "I " + lower[:-1]
    return f"{verb} {rest}"


def suggest(text: str) -> tuple[MemoryType | None, tuple[str, ...]]:
    """The memory type the rules read in `text` and its tags, canonical (domain/vocabulary.py).

    Text written as a memory ("Prefers easy runs") is also read as the athlete would say it ("I prefer
    easy runs"). The most confident fact decides the type ("Long descents leave my calves sore for days" is a
    training response tagged body:calf and intensity:hills). When no rule fires the type is None
    and the tags are whatever vocabulary words the text holds ("hotel gym" gives context:travel and
    context:gym), so the dialog can still offer them.
    """
    found = extract_memories(text, MemorySource.USER_MESSAGE) or extract_memories(
        _first_person(text), MemorySource.USER_MESSAGE
    )
    if not found:
        return None, tuple(tags_in(text))
    best = max(found, key=lambda c: CONFIDENCE_RANK[c.confidence])
    tags = [t for c in found if c.type is best.type for t in c.tags]
    return best.type, tuple(dict.fromkeys(tags))
