"""Issue 13, round 5: kinds of miss seen in three or more of the five outside sets.

Sentences written for these tests (not the labelled sets); every new pattern is checked for linear time on a
20,000-character repeat of its own trigger words."""

from __future__ import annotations

import re

import pytest

from domain.enums import MemorySource, MemoryType
from domain.extraction import extract_memories, rules
from tests.unit.test_extraction_linear import (
    GIVE_UP_SECONDS,
    GROWTH,
    TIME_RATIO_BOUND,
    _give_up_after,
    _repeated,
    _time_ratio,
)

MESSAGE = MemorySource.USER_MESSAGE
BIG = 20_000
CONTEXT = MemoryType.CONTEXT


def found(text: str) -> list[tuple[MemoryType, tuple[str, ...], str]]:
    return [(c.type, c.tags, c.content) for c in extract_memories(text, MESSAGE)]


def has(text: str, type_: MemoryType, tag: str | None = None) -> bool:
    return any(t is type_ and (tag is None or tag in tags) for t, tags, _ in found(text))


def assert_linear(pattern: re.Pattern[str], unit: str, prefix: str = "") -> None:
    """`pattern` scans a 20,000-character repeat of `unit` in time linear in its length."""
    small, big = _repeated(prefix, unit, BIG // GROWTH), _repeated(prefix, unit, BIG)
    with _give_up_after(GIVE_UP_SECONDS, (pattern.pattern[:60], unit)):
        ratio = _time_ratio(lambda text: sum(1 for _ in pattern.finditer(text)), small, big)
    assert ratio < TIME_RATIO_BOUND, (unit, ratio)


# --- a fixed weekly slot of a group on named days is the athlete's schedule -----------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Our running club meets Wednesdays and Sundays, I go to both.",
        "Choir is every Thursday evening so that day is a write-off for training.",
        "We play mon/thu nights in the winter league.",
        "My track group meets every Tuesday at the park.",
    ],
)
def test_a_fixed_weekly_slot_is_a_schedule(text: str) -> None:
    assert has(text, CONTEXT, "context:schedule")


def test_the_slot_keeps_its_sport_and_its_words() -> None:
    [(type_, tags, content)] = found("rowing outings sat + sun at 7, can't move them")
    assert type_ is CONTEXT
    assert {"context:rowing", "context:schedule"} <= set(tags)
    assert content == "Rowing outings sat + sun at 7"


@pytest.mark.parametrize(
    "text",
    [
        "No training Tuesday or Wednesday this week, I'm at a conference.",  # a week off, not a slot
        "I'd rather do my hard days on Tuesday and Friday.",  # a preference, no group
    ],
)
def test_days_without_a_fixed_slot_are_no_schedule(text: str) -> None:
    assert not has(text, CONTEXT, "context:schedule")


@pytest.mark.parametrize("unit", ["squad mon tue ", "club, , every ", "mon/tue/wed/", "train on every "])
def test_the_schedule_pattern_is_linear(unit: str) -> None:
    assert_linear(re.compile(rules._SCHEDULE, re.IGNORECASE), unit)
