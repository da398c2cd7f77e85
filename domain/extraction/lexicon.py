"""Patterns built from the tag vocabulary (domain/vocabulary.py) for the rules, and tag scanning."""

from __future__ import annotations

import re

from domain import vocabulary
from domain.extraction.prefilter import fast_pattern
from domain.vocabulary import APOSTROPHE as APOSTROPHE
from domain.vocabulary import BODY_PARTS, TIME_PREFERENCES


class Lexicon:
    """A vocabulary lexicon (domain.vocabulary.Lexicon) scanned with its fast pattern (`fast_pattern`): the same
    matches and tags, found several times faster."""

    def __init__(self, lexicon: vocabulary.Lexicon) -> None:
        self.kind = lexicon.kind
        self.tag = lexicon.tag
        self.lower_pattern = fast_pattern(lexicon.lower_pattern.pattern)
        self._seen: dict[str, tuple[str, ...]] = {}

    def tags(self, text: str) -> list[str]:
        """The tags named in `text`. A clause is read by several rules and again for its statement's tags: a short
        text's tags are kept (a few hundred at most), a long one's read each time."""
        if len(text) > _KEPT_CHARS:
            return self._scan(text)
        found = self._seen.get(text)
        if found is None:
            if len(self._seen) >= _KEPT_TEXTS:
                self._seen.clear()
            found = self._seen[text] = tuple(self._scan(text))
        return list(found)

    def _scan(self, text: str) -> list[str]:
        return list(dict.fromkeys(self.tag(m) for m in self.lower_pattern.finditer(text.lower())))


_KEPT_CHARS = 240
_KEPT_TEXTS = 512


BODY = Lexicon(vocabulary.BODY)
TIME = Lexicon(vocabulary.TIME)
INTENSITY = Lexicon(vocabulary.INTENSITY)
CONTEXT = Lexicon(vocabulary.CONTEXT)
CONTEXT_TOPIC = CONTEXT
_LEXICONS = {"body": BODY, "time": TIME, "intensity": INTENSITY, "context": CONTEXT}


def tags_in(text: str, kinds: tuple[str, ...] = ("body", "time", "intensity", "context")) -> list[str]:
    """As domain.vocabulary.tags_in, with the fast lexicons."""
    return [tag for kind in kinds for tag in _LEXICONS[kind].tags(text)]


WORD_RE = re.compile(r"[\w'’]+")
ANY_BODY_PART = "|".join(BODY_PARTS.values())
ANY_TIME = r"(?:" + "|".join(TIME_PREFERENCES.values()) + r")"


def words(spaced: str) -> frozenset[str]:
    return frozenset(spaced.split())


BODY_WORDS = words(
    "knee knees ankle ankles calf calves shin shins hip hips hamstring hamstrings quad quads achilles foot feet heel"
    " heels back shoulder shoulders glute glutes groin neck wrist wrists elbow elbows chest finger fingers"
    " thumb thumbs forearm forearms"
)


# The adverbs that may stand between "I" and its verb ("I really like", "I usually run"), for the rules' patterns
# (domain.extraction.rules) and for turning a statement into the third person (domain.extraction.tidy); each adds
# the few of its own it needs.
ADVERBS = (
    "really absolutely genuinely actually definitely honestly just still also much generally usually normally always"
    " mostly typically totally often sometimes only kinda"
)
WEEKDAY_NAME = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
# A single day: "remember my mother-in-law is staying this week" reminds of a one-off, and a rule reads no lasting
# fact in a clause about one day (domain.extraction.facts adds yesterday, next and last).
THIS_DAY = r"today|tonight|tomorrow|this\s+(?:morning|afternoon|evening|week|weekend|" + WEEKDAY_NAME + r")"


def preference_tags(text: str) -> list[str]:
    return TIME.tags(text) + INTENSITY.tags(text)


def all_tags(text: str) -> list[str]:
    return BODY.tags(text) + preference_tags(text) + CONTEXT_TOPIC.tags(text)
