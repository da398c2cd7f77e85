"""The tag vocabulary (domain/vocabulary.py): synonyms map to canonical tags, and `suggest` for the Add dialog."""

from __future__ import annotations

import pytest

from domain.enums import MemoryType
from domain.extraction import suggest
from domain.vocabulary import VOCABULARY, all_tags, canonical_tag, tag_for_words, tags_in


@pytest.mark.parametrize(
    ("text", "tag"),
    [
        ("my job is stressful", "context:work"),
        ("another night shift", "context:work"),
        ("stuck in the office till 7", "context:work"),
        ("ward rounds as a nurse", "context:work"),
        ("living in hotels this month", "context:travel"),
        ("business trip to Oslo", "context:travel"),
        ("the hotel gym has one treadmill", "context:gym"),
        ("school run first", "context:kids"),
        ("toddler up at 5", "context:kids"),
        ("my wife's shifts", "context:family"),
        ("masters swim at the pool", "context:swimming"),
        ("my first ironman", "context:triathlon"),
        ("hammy twinge", "body:hamstring"),
        ("sore calfs", "body:calf"),
        ("ITB again", "body:it band"),
        ("torn ACL", "body:knee"),
        ("metatarsal stress fracture", "body:foot"),
        ("sciatica down the leg", "body:back"),
        ("Saturday long run", "time:weekend"),
        ("before breakfast", "time:morning"),
        ("after dark", "time:late"),  # the seeds' "late", which implies an evening (IMPLIED)
        ("zone 2 only", "intensity:easy"),
        ("long descents", "intensity:hills"),
        ("the dreadmill", "intensity:treadmill"),
        ("fell runs", "intensity:trail"),
        ("a parkrun", "intensity:race"),
    ],
)
def test_synonyms_map_to_the_canonical_tag(text: str, tag: str) -> None:
    assert tag in tags_in(text)


def test_a_month_of_hotel_gyms_is_travel_and_gym() -> None:
    assert {"context:travel", "context:gym"} <= set(tags_in("a month of hotel gyms"))


def test_workouts_are_not_work() -> None:
    assert "context:work" not in tags_in("two workouts this week")


def test_every_canonical_value_is_found_by_its_own_name_or_a_synonym() -> None:
    assert len(all_tags()) == sum(len(entries) for entries in VOCABULARY.values())
    assert len(set(all_tags())) == len(all_tags())
    assert all(tag == tag.lower() and tag.count(":") == 1 for tag in all_tags())


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("context:job", "context:work"),
        ("context:office", "context:work"),
        ("Context:Shift", "context:work"),
        ("Body:Knees", "body:knee"),
        ("body:calves", "body:calf"),
        ("time:mornings", "time:morning"),
        ("context:hotel", "context:travel"),
        ("context:work", "context:work"),
        ("  terrain:hills ", "terrain:hills"),
        ("body:lower back", "body:back"),  # a few words naming one canonical value
        ("body:achilles tendon", "body:achilles"),
        ("context:shift work", "context:work"),
        ("time:late evening", "time:late evening"),  # two values named: left as typed
        ("context:running club", "context:running club"),
        ("coach-note", "coach-note"),
    ],
)
def test_canonical_tag(typed: str, canonical: str) -> None:
    assert canonical_tag(typed) == canonical


@pytest.mark.parametrize(
    ("text", "type_", "tags"),
    [
        ("Prefers easy runs in the evening", MemoryType.PREFERENCE, {"time:evening", "intensity:easy"}),
        ("My left knee hurts on stairs", MemoryType.INJURY_HISTORY, {"body:knee"}),
        ("I work nights as a nurse", MemoryType.CONTEXT, {"context:work"}),
        ("Downhills leave my quads sore for days", MemoryType.TRAINING_RESPONSE, {"body:quad", "intensity:hills"}),
    ],
)
def test_suggest_gives_the_type_and_tags_of_the_rules(text: str, type_: MemoryType, tags: set[str]) -> None:
    suggested_type, suggested_tags = suggest(text)
    assert suggested_type is type_
    assert tags <= set(suggested_tags)


def test_suggest_without_a_fact_still_offers_vocabulary_tags() -> None:
    assert suggest("knee") == (None, ("body:knee",))
    assert suggest("") == (None, ())


@pytest.mark.parametrize(
    ("typed", "tag"),
    [
        ("knee", "body:knee"),
        ("Knees", "body:knee"),
        ("long runs", "intensity:long run"),
        ("Mornings", "time:morning"),
        ("job", "context:work"),  # a synonym: the vocabulary's word
        ("hotel gyms", "topic:hotel gyms"),  # outside the vocabulary: a free tag of its own
        ("body:knees", "body:knee"),  # a code typed by someone who knows them
        ("   ", ""),
    ],
)
def test_words_typed_into_a_tags_field_become_the_tag_they_mean(typed: str, tag: str) -> None:
    assert tag_for_words(typed) == tag


def test_typed_text_no_tag_can_hold_is_left_as_typed_for_the_schema_to_refuse() -> None:
    assert tag_for_words("Club night!") == "Club night!"
