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
    assert_linear(re.compile(rules._FIXED_SLOT, re.IGNORECASE), unit)


# --- a trip with its dates is travel ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Family holiday to Lanzarote over Easter, I'll pack my trainers.",
        "Heads up, I'm away sailing 8-15 July so nothing that week.",
        "We fly back to Chile for 6 weeks over Christmas to see my parents.",
        "Off to a training camp in the Algarve in March.",
    ],
)
def test_a_trip_is_travel(text: str) -> None:
    assert has(text, CONTEXT, "context:travel")


@pytest.mark.parametrize(
    "text",
    [
        "Quick trip to the physio tomorrow about the calf.",
        "This is going to be my routine for the next 2 months.",
    ],
)
def test_an_errand_or_a_plan_is_no_trip(text: str) -> None:
    assert not has(text, CONTEXT, "context:travel")


@pytest.mark.parametrize("unit", ["trip to ", "away in 3 - ", "i'm away in x 1-", "going back to for 3 week "])
def test_the_trip_patterns_are_linear(unit: str) -> None:
    assert_linear(re.compile(rules._STAY_AWAY, re.IGNORECASE), unit)


# --- what the athlete has, or lacks, to train with -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "content"),
    [
        ("Only got a mountain bike for now, the road bike is in for repairs.", "Only got a mountain bike for now"),
        ("No gym nearby. Just a pair of dumbbells in the spare room.", "Just a pair of dumbbells in the spare room"),
        ("I don't own a heart rate monitor, I go by feel.", "Doesn't own a heart rate monitor"),
        ("Bought a smart trainer for the winter, Zwift from now on.", "Bought a smart trainer for the winter"),
    ],
)
def test_what_the_athlete_trains_with_is_equipment(text: str, content: str) -> None:
    assert (CONTEXT, content) in [(t, c) for t, tags, c in found(text) if "context:equipment" in tags]


@pytest.mark.parametrize(
    "text",
    [
        "Never again am I doing hill reps on the treadmill in the gym.",  # a session, not what they own
        "New shoes are rubbing my heel raw.",  # the blister is the fact
    ],
)
def test_a_session_on_a_machine_or_new_shoes_are_no_equipment(text: str) -> None:
    assert not has(text, CONTEXT, "context:equipment")


@pytest.mark.parametrize(
    "unit", ["only have a a ", "just a bike ", "in the garage with a ", "new new new ", "don't have a a "]
)
def test_the_equipment_pattern_is_linear(unit: str) -> None:
    assert_linear(re.compile(rules._HAS_GEAR, re.IGNORECASE), unit)


# --- health conditions named in other words --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "content"),
    [
        ("Had a hysterectomy last year, core strength still coming back.", "Had a hysterectomy last year"),
        ("I get a chest infection most winters.", "Gets a chest infection most winters"),
        ("I'm an ex-smoker, quit in 2019.", "Is an ex-smoker"),
    ],
)
def test_a_condition_in_other_words_is_health(text: str, content: str) -> None:
    assert (CONTEXT, ("context:health",), content) in found(text)


def test_a_medicine_the_athlete_reacts_badly_to_is_health_not_a_response() -> None:
    text = "I react badly to naproxen so please don't suggest it."
    assert has(text, CONTEXT, "context:health")
    assert not has(text, MemoryType.TRAINING_RESPONSE)
    assert has("I respond badly to high mileage.", MemoryType.TRAINING_RESPONSE)


def test_slang_af_is_no_condition() -> None:
    assert found("Legs were windy af on the last climb.") == []


# --- what the athlete eats -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "content"),
    [
        ("I'm pescatarian these days, fish twice a week.", "Is pescatarian these days"),
        ("Mostly plant based since the summer.", "Mostly plant based since the summer"),
        (
            "I'm on about 2500 calories a day while I'm bulking.",
            "Is on about 2500 calories a day while the athlete is bulking",
        ),
    ],
)
def test_what_the_athlete_eats_is_diet(text: str, content: str) -> None:
    assert (CONTEXT, ("context:diet",), content) in found(text)


def test_calories_burned_and_the_bulk_of_a_run_are_no_diet() -> None:
    assert not has("Burned 1200 calories on the long run, the bulk of it in the hills.", CONTEXT, "context:diet")


@pytest.mark.parametrize("unit", ["i'm a a ", "just now vegan ", "eat about 1 ", "doing a slow slow bulk "])
def test_the_diet_pattern_is_linear(unit: str) -> None:
    assert_linear(re.compile(rules._DIET_MORE, re.IGNORECASE), unit)


# --- a fact a question takes along -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("How many gels should I take given I'm coeliac?", (CONTEXT, ("context:health",), "The athlete is coeliac")),
        (
            "Is swimming ok with my hip replacement?",
            (MemoryType.INJURY_HISTORY, ("body:hip",), "The athlete's hip replacement"),
        ),
        (
            "Any tips for hill sessions when my achilles is always tight afterwards?",
            (MemoryType.TRAINING_RESPONSE, ("body:achilles",), "Achilles is always tight afterwards"),
        ),
    ],
)
def test_a_fact_a_question_takes_along_is_read(text: str, expected: tuple[MemoryType, tuple[str, ...], str]) -> None:
    assert found(text) == [expected]


@pytest.mark.parametrize("text", ["Should I run with my club on Sunday?", "How many gels should I take in a marathon?"])
def test_a_question_without_a_fact_yields_nothing(text: str) -> None:
    assert found(text) == []


# --- how a kind of session feels, compared ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "tag", "content"),
    [
        (
            "Intervals on the track feel so much easier than on the road for me.",
            "intensity:intervals",
            "Intervals on the track feel so much easier than on the road for the athlete",
        ),
        (
            "Evening sessions after a long day feel terrible, every single time.",
            "time:evening",
            "Evening sessions after a long day feel terrible",
        ),
        ("I always race better below 15 degrees.", "intensity:race", "Always races better below 15 degrees"),
    ],
)
def test_how_a_kind_of_session_feels_is_a_response(text: str, tag: str, content: str) -> None:
    [(type_, tags, said)] = found(text)
    assert type_ is MemoryType.TRAINING_RESPONSE
    assert tag in tags
    assert said == content


def test_how_new_shoes_feel_is_no_response() -> None:
    assert found("Ran in new shoes today, they feel better than the old ones.") == []


@pytest.mark.parametrize("unit", ["runs feel ", "runs so so so ", "i feel worse ", "run better under "])
def test_the_session_feels_pattern_is_linear(unit: str) -> None:
    [rule] = [r for r in rules.RULES if r.name == "session_feels"]
    assert_linear(rule.pattern, unit)


# --- a request about the plan, or what is more fun -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "tag", "content"),
    [
        (
            "Please don't give me two hard days in a row.",
            "intensity:hard",
            "Please don't give the athlete two hard days in a row",
        ),
        (
            "Do not schedule anything on the track, I find it mind-numbing.",
            "intensity:track",
            "Do not schedule anything on the track",
        ),
        (
            "Trail running is way more fun for me than road.",
            "intensity:trail",
            "Trail running is way more fun for the athlete than road",
        ),
    ],
)
def test_a_request_about_the_plan_is_a_preference(text: str, tag: str, content: str) -> None:
    assert [(t, c) for t, tags, c in found(text) if tag in tags] == [(MemoryType.PREFERENCE, content)]


def test_never_giving_up_is_no_preference() -> None:
    assert found("I never give up in a race, even when it hurts.") == []
