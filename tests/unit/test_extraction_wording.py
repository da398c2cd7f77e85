"""The wording of statements (issue 13): dialect "me" for "my", "mine" the pit, and never "they"/"them" for the
athlete. Sentences written for these tests."""

from __future__ import annotations

import pytest

from domain.enums import MemorySource, MemoryType
from domain.extraction import extract_memories, tidy
from domain.extraction.tidy import about_the_athlete

MESSAGE = MemorySource.USER_MESSAGE


def contents(text: str) -> list[str]:
    return [c.content for c in extract_memories(text, MESSAGE)]


@pytest.mark.parametrize(
    ("said", "statement"),
    [
        ("Me mam is poorly again", "the athlete's mam is poorly again"),
        ("Out with me da and me brother", "Out with the athlete's da and the athlete's brother"),
        ("Me knee's gone again", "knee's gone again"),
        ("Sore wi' me back all week", "Sore wi' back all week"),
        ("Hills give me knee pain", "Hills give the athlete knee pain"),  # the object of "give", not "my"
        ("Intervals leave me wrecked", "Intervals leave the athlete wrecked"),
    ],
)
def test_a_dialect_me_before_kin_or_a_body_part_is_my(said: str, statement: str) -> None:
    assert tidy._third_person(said) == statement


@pytest.mark.parametrize(
    ("said", "statement"),
    [
        ("Twelve hours down the mine", "Twelve hours down the mine"),
        ("Work at a coal mine", "Work at a coal mine"),
        ("Mine site rotation is two weeks", "Mine site rotation is two weeks"),
        ("Mornings are mine", "Mornings are the athlete's"),
    ],
)
def test_mine_the_pit_is_not_the_athletes(said: str, statement: str) -> None:
    assert tidy._third_person(said) == statement


@pytest.mark.parametrize(
    ("said", "statement"),
    [
        ("They've had two stress fractures", "Has had two stress fractures"),
        ("They'd rather run alone", "Would rather run alone"),
        ("They'll be away in May", "Will be away in May"),
        ("Their job's in construction", "The athlete's job's in construction"),
        ("Her knee hurts on stairs", "Knee hurts on stairs"),
        ("They hate the rain", "Hates the rain"),
    ],
)
def test_a_note_about_the_athlete_never_says_they(said: str, statement: str) -> None:
    assert about_the_athlete(said) == statement


def test_the_dialect_family_context_reads_well() -> None:
    [c] = extract_memories("Me mam's poorly at the minute so I'm up and down to Sligo.", MESSAGE)
    assert c.type is MemoryType.CONTEXT and "context:family" in c.tags
    assert c.content.startswith("The athlete's mam")


def test_a_third_person_note_has_no_they_in_its_statements() -> None:
    said = contents("They've had two stress fractures in the left foot. Their job's on a building site.")
    assert said and not any(w in s.lower().split() for s in said for w in ("they", "they've", "their"))


@pytest.mark.parametrize(
    ("said", "statement"),
    [
        ("I finally got a power meter", "finally got a power meter"),
        ("I genuinely enjoy hill repeats", "genuinely enjoys hill repeats"),
        ("I mostly ride indoors in winter", "mostly rides indoors in winter"),
        ("I rely on gels after two hours", "relies on gels after two hours"),
        ("I apply sunscreen before long rides", "applies sunscreen before long rides"),
        ("I fly to races twice a year", "flies to races twice a year"),
    ],
)
def test_an_adverb_before_the_verb_stays_and_the_verb_takes_the_third_person(said: str, statement: str) -> None:
    assert tidy._third_person(said) == statement
