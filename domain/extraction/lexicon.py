"""Patterns built from the tag vocabulary (domain/vocabulary.py) for the rules, and tag scanning."""

from __future__ import annotations

import re

from domain.vocabulary import APOSTROPHE as APOSTROPHE
from domain.vocabulary import BODY as BODY
from domain.vocabulary import BODY_PARTS, TIME_PREFERENCES
from domain.vocabulary import CONTEXT as CONTEXT
from domain.vocabulary import INTENSITY as INTENSITY
from domain.vocabulary import TIME as TIME

CONTEXT_TOPIC = CONTEXT
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


def preference_tags(text: str) -> list[str]:
    return TIME.tags(text) + INTENSITY.tags(text)


def all_tags(text: str) -> list[str]:
    return BODY.tags(text) + preference_tags(text) + CONTEXT_TOPIC.tags(text)
