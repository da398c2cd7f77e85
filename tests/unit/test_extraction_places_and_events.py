"""Issue 13, round 3: where the athlete is, named without "I live in", and an event ahead named with its date.
Sentences written for these tests (not the labelled sets), and adversarial repetitions for the new patterns."""

from __future__ import annotations

import pytest

from domain.enums import MemorySource, MemoryType
from domain.extraction import extract_memories
from domain.extraction.places import _PLACE_RE
from tests.unit.test_extraction_linear import (
    GIVE_UP_SECONDS,
    GROWTH,
    TIME_RATIO_BOUND,
    _assert_extraction_is_linear,
    _give_up_after,
    _repeated,
    _time_ratio,
)

MESSAGE = MemorySource.USER_MESSAGE


def tags_of(text: str, type_: MemoryType = MemoryType.CONTEXT) -> list[tuple[str, ...]]:
    return [c.tags for c in extract_memories(text, MESSAGE) if c.type is type_]


@pytest.mark.parametrize(
    "text",
    [
        "I'm based in Cardiff, so the Brecon Beacons are an hour away.",
        "Back home in Galway now, wind off the bay most days.",
        "It's light till 11pm up here in Reykjavik in June.",
        "The smog in Delhi in winter means I run indoors.",
        "Stationed near Catterick for the next year.",
    ],
)
def test_a_place_tied_to_the_athlete_is_their_location(text: str) -> None:
    assert any("context:location" in t for t in tags_of(text))


@pytest.mark.parametrize(
    "text",
    [
        "Racing in Berlin in September.",  # an event, not where they live
        "The heat in Seville was brutal.",  # a race report
        "My brother is based in Leeds.",  # someone else
        "Back home in time for tea.",  # no place named
        "Here in January the roads are icy.",  # a month is no place
    ],
)
def test_a_place_not_tied_to_the_athlete_is_no_location(text: str) -> None:
    assert not any("context:location" in t for t in tags_of(text))


@pytest.mark.parametrize(
    "text",
    [
        "Sprint duathlon at Oulton Park this weekend.",
        "Regionals on 3rd March, 800m.",
        "Trail race in the Peak District in May.",
        "Ben Nevis race next September is the dream.",
        "Just want to break 40 this year.",
        "The Loch Ness marathon is the goal next year.",
    ],
)
def test_an_event_ahead_with_its_date_is_a_goal(text: str) -> None:
    assert any("context:goal" in t for t in tags_of(text))


@pytest.mark.parametrize(
    "text",
    [
        "The marathon in April was a disaster.",
        "Might enter a trail race next year.",
        "Half term next week, kids at home.",
        "Competition season April to September.",
        "Race may be cancelled, waiting to hear.",
    ],
)
def test_an_event_run_in_doubt_or_not_an_event_is_no_goal(text: str) -> None:
    assert not any("context:goal" in t for t in tags_of(text))


def test_work_patterns_are_work() -> None:
    for text in ("FIFO, three weeks on and one off.", "Nurse on a three on four off roster."):
        assert any("context:work" in t for t in tags_of(text)), text


ADVERSARIAL = [
    "Aa Bb ",
    "here in Aa ",
    "heat in heat in ",
    "Based in Based in ",
    "home in Home in ",
    "race, race, ",
    "marathon in May ",
    "(a) race ",
    "weeks on weeks on ",
    "shifts my shifts ",
    "i coach i coach ",
    "knacker me for knacker me for ",
    "wrecked for wrecked for days ",
    "love it. love it. ",
    "which i like which i ",
]


@pytest.mark.parametrize("unit", ADVERSARIAL)
def test_the_place_pattern_is_linear_on_repetitions(unit: str) -> None:
    small, big = _repeated("I'm based in ", unit, 500), _repeated("I'm based in ", unit, GROWTH * 500)
    with _give_up_after(GIVE_UP_SECONDS, unit):
        ratio = _time_ratio(lambda text: sum(1 for _ in _PLACE_RE.finditer(text)), small, big)
    assert ratio < TIME_RATIO_BOUND, (unit, ratio)


@pytest.mark.parametrize("unit", ADVERSARIAL)
def test_extraction_is_linear_on_the_new_shapes(unit: str) -> None:
    _assert_extraction_is_linear("Half marathon ", unit)
