"""Issue 13, seventh dev batch's voices: a coach relaying the athlete, triathlon and swim jargon,
non-native English, parents on a phone, ultrarunners (sentences written for these tests, not taken
from the labelled sets)."""

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
        # a flare-up a kind of session brings is a training response (tests/data/extraction_cases.yaml, header)
        ("He told me his hamstring grumbles whenever he sprints.", RESPONSE, "body:hamstring"),
        ("She says her back always stiffens after hill reps.", RESPONSE, "body:back"),
        ("Spoke to Sam - he works nights at the depot.", CONTEXT, "context:work"),
        ("Mentioned she's asthmatic, carries an inhaler.", CONTEXT, "context:health"),
        ("Long rides leave my lower back stiff for days.", RESPONSE, "body:back"),
        ("Kick sets always leave my calves cramping.", RESPONSE, "body:calf"),
        ("Always cramp in my quads on the run after a hard bike.", RESPONSE, "context:cycling"),
        ("My knees hate long downhills.", RESPONSE, "intensity:hills"),
        ("My calves can't handle the pounding of road miles.", RESPONSE, "body:calf"),
        ("Always after the tempo my stomach is upset.", RESPONSE, "intensity:tempo"),
        ("I not like the intervals, too hard for me.", PREFERENCE, "intensity:intervals"),
        ("For me is better the evening.", PREFERENCE, "time:evening"),
        ("Only window is mornings before the school run.", PREFERENCE, "time:morning"),
        ("Much happier in the pool than on the track.", PREFERENCE, "context:swimming"),
        ("I'm more of a trail runner.", PREFERENCE, "intensity:trail"),
        ("I am working in a bakery, start at 4am.", CONTEXT, "context:work"),
        ("As a nurse, when should I fit in the long run?", CONTEXT, "context:work"),
        ("Back to work next month after maternity leave.", CONTEXT, "context:work"),
        ("Sundays I work, so the long run is Saturday.", CONTEXT, "context:work"),
        ("She's got a 4-year-old and twins.", CONTEXT, "context:kids"),
        ("Still do masters swim three times a week.", CONTEXT, "context:swimming"),
        ("Bike is my limiter, swim is fine.", CONTEXT, "context:cycling"),
        ("Swam at national level as a teenager.", CONTEXT, "context:swimming"),
        ("Ironman Wales is the A race this year.", CONTEXT, "context:triathlon"),
        ("Booked my first marathon for April!", CONTEXT, "context:goal"),
        ("Training for the Fellsman in May.", CONTEXT, ""),
        ("Doc put me on beta blockers for blood pressure.", CONTEXT, "context:health"),
        ("Off to an altitude camp in Font Romeu in June.", CONTEXT, "context:altitude"),
    ],
)
def test_the_fact_is_found(text: str, type_: MemoryType, tag: str) -> None:
    found = extract_memories(text, MESSAGE)
    assert any(c.type is type_ and (not tag or tag in c.tags) for c in found), found


@pytest.mark.parametrize(
    "text",
    [
        "He said the session went fine.",
        "She asked if we can move Thursday.",
        "T1 was slow, wetsuit got stuck.",
        "Rode 80k with the club, cafe stop at halfway.",
        "my mate has a bad knee so we walked the hills",
        "Is the pool open on bank holidays?",
        "kids asleep. quick 5k.",
        "Went for a swim after work, lovely and quiet.",
        "Training for an hour then stretching.",
        "My son's back from uni this week.",
    ],
)
def test_small_talk_in_the_same_words_yields_nothing(text: str) -> None:
    assert extract_memories(text, MESSAGE) == []


def test_a_relayed_fact_reads_without_the_reporting_lead() -> None:
    [found] = extract_memories("He told me his achilles flares whenever he runs hills.", MESSAGE)
    assert found.type is RESPONSE and not found.content.lower().startswith("he told")


def test_a_preference_and_its_contrast_in_one_sentence_are_one_memory() -> None:
    # the outside writers' convention (tests/data/extraction_cases.yaml, header): one preference per sentence
    assert len(extract_memories("Hills are my favourite, flat routes bore me.", MESSAGE)) == 1
    [found] = extract_memories("I hate the treadmill, I'd rather run in the rain.", MESSAGE)
    assert "intensity:treadmill" in found.tags and "rain" in found.content


def test_a_run_on_question_keeps_the_statement_before_it() -> None:
    [found] = extract_memories("my achilles creaks every morning is that normal", MESSAGE)
    assert found.type is INJURY and "body:achilles" in found.tags
    assert extract_memories("is that normal", MESSAGE) == []
