"""Issue 13, other voices: terse notes, slang, bare occupations, third person (sentences written for these
tests, not taken from the labelled sets)."""

from __future__ import annotations

import pytest

from domain.enums import MemorySource, MemoryType
from domain.extraction import extract_memories

MESSAGE = MemorySource.USER_MESSAGE
PREFERENCE, CONTEXT = MemoryType.PREFERENCE, MemoryType.CONTEXT
INJURY, RESPONSE = MemoryType.INJURY_HISTORY, MemoryType.TRAINING_RESPONSE


@pytest.mark.parametrize(
    ("text", "type_", "tag"),
    [
        ("Paramedic on nights.", CONTEXT, "context:work"),
        ("He works weekends at a garden centre.", CONTEXT, "context:work"),
        ("Night shifts all this month.", CONTEXT, "context:work"),
        ("Our eldest has football every Saturday, I do the driving.", CONTEXT, "context:kids"),
        ("Would much rather do hills than a flat tempo.", PREFERENCE, "intensity:hills"),
        ("I find long runs tedious.", PREFERENCE, "intensity:long run"),
        ("I'm a total sucker for a track session.", PREFERENCE, "intensity:track"),
        ("Speed sessions knock me out for a day.", RESPONSE, "intensity:speed work"),
        ("The treadmill always gives me knee pain.", RESPONSE, "body:knee"),
        ("DOMS in my calves for days after every race.", RESPONSE, "body:calf"),
        ("My calf went halfway up the climb.", INJURY, "body:calf"),
        ("Morton's neuroma in my right foot.", INJURY, "body:foot"),
        ("Had a hip replacement in 2018.", INJURY, "body:hip"),
        ("I always feel sick before a race.", RESPONSE, "intensity:race"),
    ],
)
def test_other_voices_yield_the_fact(text: str, type_: MemoryType, tag: str) -> None:
    [c] = extract_memories(text, MESSAGE)
    assert (c.type, tag in c.tags) == (type_, True)
    assert "them" not in c.content.split()


@pytest.mark.parametrize(
    "text",
    [
        "The doctor said rest.",
        "Two kids overtook me on the last lap.",
        "Nurse at the clinic was lovely.",
        "I got sick of the treadmill after 20 minutes.",
        "Hotel gym again, fine for a shakeout.",
        "Moved the long run to Sunday.",
        "Always good to see the club on a Saturday run.",
    ],
)
def test_and_small_talk_in_the_same_words_yields_nothing(text: str) -> None:
    assert extract_memories(text, MESSAGE) == []
