"""Where the athlete is, said by the place's name without "I live in": "I'm based in Leeds", "back home in Cork",
"it's dark by 4 up here in Tromsø", "this humidity in Houston is no joke".

A place is a capitalised name, so this reads the text as written, not lower-cased as the rule table does; a name
alone ("racing in Chicago") says nothing about where the athlete lives: it takes a word that ties it to them (based,
home, here) or to the conditions they train in (the heat, the air, the dark, the traffic). A clause in the past
("the heat in Seville was brutal") is a race report, not where they are.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from domain.enums import MemoryConfidence, MemoryType
from domain.extraction.clauses import Span
from domain.extraction.facts import Fact
from domain.extraction.prefilter import fast_pattern
from domain.extraction.subject import People

_NOT_A_PLACE = (
    r"(?:January|February|March|April|May|June|July|August|September|October|November|December|Monday|Tuesday"
    r"|Wednesday|Thursday|Friday|Saturday|Sunday|I|The|A|An|My|Our|This|That|Summer|Winter|Spring|Autumn|Ramadan"
    r"|Strava|Garmin|Zwift)\b"
)
# One or two capitalised words; the name is read case-sensitively inside an otherwise case-insensitive pattern.
_PLACE = r"(?-i:(?!" + _NOT_A_PLACE + r")[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+)?)"
_CONDITIONS = (
    r"(?:humidity|heat|air|pollution|smog|traffic|weather|winters?|summers?|dark|darkness|hills|roads|streets"
    r"|pavements|altitude)"
)
_PLACE_RE = re.compile(
    # tied to the athlete: "based in Addis", "back home in Cork", "up here in Inverness", "out here in Dubai"
    r"\b(?:based|living|settled|stationed|posted)\s+(?:in|out\s+of|near)\s+"
    + _PLACE
    + r"|\b(?:(?:up|down|out|over|round|around)\s+)?here\s+in\s+"
    + _PLACE
    + r"|\b(?:back\s+)?home\s+in\s+"
    + _PLACE
    # the conditions there: "this humidity in Houston is no joke", "the air in Lahore in November is poison"
    + r"|\b"
    + _CONDITIONS
    + r"\b(?:\s+[\w'’-]+){0,4}?\s+in\s+"
    + _PLACE,
    re.IGNORECASE,
)
# The words one of them needs, for the lower-cased sentence: most sentences have none and are passed over at once.
_LEAD_LOW_RE = fast_pattern(r"\b(?:based|living|settled|stationed|posted|here|home|" + _CONDITIONS + r")\b")
_PAST_RE = re.compile(r"\b(?:was|were|had)\b", re.IGNORECASE)
LOCATION = ("context:location",)


def place_facts(people: People, sentence: Span, clauses: Sequence[Span]) -> list[Fact]:
    """A location context for each clause that names where the athlete is (at most one per clause)."""
    found: list[Fact] = []
    if not clauses or _LEAD_LOW_RE.search(people.lower, clauses[0].start, clauses[-1].end) is None:
        return found
    text = people.text
    for clause in clauses:
        m = _PLACE_RE.search(text, clause.start, clause.end)
        if m is None or _PAST_RE.search(text, clause.start, clause.end) is not None:
            continue
        if people.about_someone_else(sentence, clause, m.start()):
            continue
        found.append(Fact(MemoryType.CONTEXT, clause, LOCATION, MemoryConfidence.LOW))
    return found
