"""Words, not codes: a memory's tags and source as an athlete reads them.

Tags are stored as `kind:value` (domain/vocabulary.py); people read "Knee", "Long runs", "Early
morning". A source reference is the coaching system's id of a note ("act_2026_114"); people read
"From your activity note of 28 Sep". The codes stay in the data, the export and the admin pages.
"""

from __future__ import annotations

from datetime import datetime

from domain.enums import MemorySource

TAG_WORDS: dict[str, str] = {
    # body
    "body:it band": "IT band",
    "body:achilles": "Achilles",
    "body:plantar": "Plantar fascia",
    "body:quad": "Quads",
    "body:hamstring": "Hamstrings",
    "body:glute": "Glutes",
    "body:back": "Back",
    # time
    "time:early": "Early",
    "time:late": "Late",
    "time:weekend": "Weekends",
    "time:morning": "Mornings",
    "time:evening": "Evenings",
    "time:afternoon": "Afternoons",
    "time:lunch": "Lunchtime",
    # intensity: the kind of session
    "intensity:easy": "Easy runs",
    "intensity:hard": "Hard sessions",
    "intensity:tempo": "Tempo runs",
    "intensity:long run": "Long runs",
    "intensity:recovery": "Recovery runs",
    "intensity:threshold": "Threshold sessions",
    "intensity:track": "Track sessions",
    "intensity:race": "Races",
    "intensity:treadmill": "Treadmill runs",
    "intensity:trail": "Trail runs",
    "intensity:hills": "Hills",
    # context
    "context:kids": "Kids",
    "context:goal": "Goals",
    "context:team sport": "Team sport",
}


def tag_words(tag: str) -> str:
    """'body:knee' → 'Knee', 'intensity:long run' → 'Long runs', 'time:early morning' → 'Early morning'."""
    known = TAG_WORDS.get(tag.strip().lower())
    if known is not None:
        return known
    _, _, value = tag.partition(":")
    words = " ".join((value or tag).replace("_", " ").replace("-", " ").split())
    return words[:1].upper() + words[1:] if words else tag


def tags_words(tags: list[str]) -> str:
    """Tags as one quiet line: 'Knee, Long runs'."""
    return ", ".join(dict.fromkeys(tag_words(tag) for tag in tags))


def short_date(when: datetime, now: datetime | None = None) -> str:
    """'28 Sep', with the year when it is not this year's: '28 Sep 2024'."""
    day = f"{when.day} {when.strftime('%b')}"
    year = (now or datetime.now(when.tzinfo)).year
    return day if when.year == year else f"{day} {when.year}"


def source_words(source: MemorySource, received_at: datetime | None, now: datetime | None = None) -> str:
    """Where a memory came from, in words: 'From your activity note of 28 Sep'."""
    if source == MemorySource.MANUAL:
        return "Added by you"
    if source == MemorySource.PATTERN_ANALYSIS:
        return "Spotted across your notes"
    what = "activity note" if source == MemorySource.ACTIVITY_NOTE else "message"
    return f"From your {what} of {short_date(received_at, now)}" if received_at is not None else f"From your {what}"
