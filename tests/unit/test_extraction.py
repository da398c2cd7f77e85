import re
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.enums import MemoryConfidence, MemorySource, MemoryType
from domain.extraction import (
    MAX_CONTENT_CHARS,
    Candidate,
    Extractor,
    RuleExtractor,
    default_extractors,
    extract_memories,
    merge_duplicates,
)

NOTE, MESSAGE = MemorySource.ACTIVITY_NOTE, MemorySource.USER_MESSAGE
ROOT = Path(__file__).resolve().parents[2]


def kinds(text: str, source: MemorySource = MESSAGE) -> list[tuple[MemoryType, tuple[str, ...]]]:
    return [(c.type, c.tags) for c in extract_memories(text, source)]


# --- the seed's §8.1 scenarios, as written there --------------------------------------------


def test_extract_injury_pattern() -> None:
    """Injury patterns are extracted"""
    text = "Left knee pain started around km 15"
    memories = extract_memories(text, MemorySource.ACTIVITY_NOTE)

    assert len(memories) >= 1
    assert any(m.type == MemoryType.INJURY_HISTORY for m in memories)
    assert any("body:knee" in m.tags for m in memories)


def test_extract_preference() -> None:
    """Preferences are extracted"""
    text = "I prefer morning runs, they energize me for the day"
    memories = extract_memories(text, MemorySource.USER_MESSAGE)

    assert any(m.type == MemoryType.PREFERENCE for m in memories)


# --- the candidate -------------------------------------------------------------------------


def test_injury_content_stays_whole_and_points_at_evidence() -> None:
    text = "Left knee pain started around km 15, had to walk the last bit."
    [c] = extract_memories(text, NOTE, "act_1")
    assert c == Candidate(
        MemoryType.INJURY_HISTORY,
        "Left knee pain started around km 15",
        MemoryConfidence.LOW,
        ("body:knee",),
        0,
        len("Left knee pain started around km 15"),
        "rules",
    )


def test_preference_is_tidied_into_a_third_person_statement() -> None:
    [c] = extract_memories("I prefer morning runs, they energize me for the day", MESSAGE)
    assert (c.type, c.content, c.tags, c.confidence) == (
        MemoryType.PREFERENCE,
        "Prefers morning runs",
        ("time:morning",),
        MemoryConfidence.HIGH,
    )


@pytest.mark.parametrize(
    ("text", "content"),
    [
        ("I work as a nurse on rotating shifts.", "Works as a nurse on rotating shifts"),
        ("I'm a teacher, summers are free.", "Is a teacher"),
        ("i prefer evening runs tbh", "Prefers evening runs"),
        ("I really enjoy tempo runs.", "Really enjoys tempo runs"),
        ("I've been dealing with a sore left hip for a month.", "Has been dealing with a sore left hip for a month"),
        ("My lower back seized up after the hills.", "Lower back seized up after the hills"),
        ("Honestly I don't like intervals much.", "Doesn't like intervals much"),
        ("Tweaked my calf at the track.", "Tweaked calf at the track"),
        ("I also do yoga on Sundays.", "Also does yoga on Sundays"),
        ("I hate hills.", "The athlete hates hills"),
        ("Knee sore.", "Reported sore knee"),
    ],
)
def test_content_is_a_short_third_person_statement(text: str, content: str) -> None:
    [c] = extract_memories(text, MESSAGE)
    assert c.content == content
    assert len(c.content.split()) >= 3


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("Great run. Then my right achilles started aching at km 12.", ["achilles", "aching"]),
        ("Also, I prefer evening runs after the kids are in bed.", ["prefer", "evening"]),
        ("Remember that I have a history of shin splints.", ["history", "shin"]),
        ("Knee knee knee. Pain again from km 10.", ["Knee", "Pain"]),
    ],
)
def test_span_points_at_the_evidence(text: str, words: list[str]) -> None:
    [c] = extract_memories(text, MESSAGE)
    evidence = text[c.evidence_start : c.evidence_end]
    assert all(w in evidence for w in words)
    assert 0 <= c.evidence_start < c.evidence_end <= len(text)


# --- what the seed got wrong ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "No knee pain today",
        "no knee pain today, first time in weeks!",
        "Ran pain-free for 12k.",
        "The ankle is fully healed.",
        "Calf didn't bother me at all.",
        "Knee wasn't sore after the long run.",
        "Zero issues with the hamstring.",
        "Without any hip pain for a month now.",
        "The achilles pain has gone since I changed shoes.",
        "Knee held up fine, no soreness afterwards.",
        "Doing calf raises to avoid another achilles problem.",
        "If my knee starts hurting I will stop.",
    ],
)
def test_negation_and_recovery_yield_nothing(text: str) -> None:
    assert extract_memories(text, NOTE) == []


@pytest.mark.parametrize(
    "text",
    [
        "My friend has knee pain, should she stop running?",
        "Is it normal to have knee pain after a marathon?",
        "Should I run through a tight calf?",
        "Is it normal to have sore shins after intervals",
        "Any tips for a sore lower back",
        "Do you remember that I prefer mornings?",
        "Ran with Tom, his ankle was sore so we cut it short.",
        "Sarah's hamstring is injured again.",
        "Sam has a sore knee.",
        "My wife prefers evening runs.",
        "My husband works as an engineer.",
        "You should ice the knee if it hurts.",
    ],
)
def test_questions_and_other_people_yield_nothing(text: str) -> None:
    assert extract_memories(text, MESSAGE) == []


def test_statement_before_a_question_is_kept() -> None:
    assert kinds("My knee hurts, should I skip tomorrow?") == [(MemoryType.INJURY_HISTORY, ("body:knee",))]


def test_one_fact_matched_by_two_patterns_is_one_candidate() -> None:
    # The seed's body_part_issue and issue_body_part both match this.
    assert kinds("Knee pain, sore knee, knee hurts.") == [(MemoryType.INJURY_HISTORY, ("body:knee",))]
    assert kinds("Knee sore. The knee pain is worse.", NOTE) == [(MemoryType.INJURY_HISTORY, ("body:knee",))]


def test_transient_feelings_about_one_run_yield_nothing() -> None:
    for text in ["Loved the hills today!", "Tempo felt hard today.", "I'm a bit tired today.", "Enjoyed the long run"]:
        assert extract_memories(text, NOTE) == [], text


def test_seed_job_pattern_no_longer_takes_any_im_a() -> None:
    assert extract_memories("I'm a bit tired and I'm a little slow.", MESSAGE) == []
    assert kinds("I'm a firefighter.") == [(MemoryType.CONTEXT, ("context:work",))]


# --- multi-fact notes ---------------------------------------------------------------------------


def test_multi_fact_message() -> None:
    text = "I work as an accountant and I have two kids, so I mostly run at lunch."
    assert kinds(text) == [
        (MemoryType.CONTEXT, ("context:work",)),
        (MemoryType.CONTEXT, ("context:family", "context:kids")),
        (MemoryType.PREFERENCE, ("time:lunch",)),
    ]


def test_negated_and_live_injuries_in_one_note() -> None:
    assert kinds("No pain in the knee today but the right ankle is still a bit sore.", NOTE) == [
        (MemoryType.INJURY_HISTORY, ("body:ankle",)),
    ]
    assert kinds("Knee felt fine but my hip was aching on the downhills.", NOTE) == [
        (MemoryType.INJURY_HISTORY, ("body:hip",)),
    ]


def test_each_type_from_one_note() -> None:
    text = (
        "I prefer morning runs. My achilles has a history of tendinitis. I climb twice a week. "
        "I recover slowly from long runs."
    )
    assert {c.type for c in extract_memories(text, MESSAGE)} == {
        MemoryType.PREFERENCE,
        MemoryType.INJURY_HISTORY,
        MemoryType.CONTEXT,
        MemoryType.TRAINING_RESPONSE,
    }


def test_chronic_injury_is_high_confidence_single_instance_low() -> None:
    [chronic] = extract_memories("Chronic knee pain after runs over 15km", NOTE)
    [single] = extract_memories("Knee pain after the long run", NOTE)
    assert chronic.confidence is MemoryConfidence.HIGH
    assert single.confidence is MemoryConfidence.LOW


# --- explicit requests ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "type_", "tags", "content"),
    [
        (
            "Remember that I prefer easy runs on Mondays.",
            MemoryType.PREFERENCE,
            ("intensity:easy",),
            "Prefers easy runs on Mondays",
        ),
        (
            "Please note that my right knee gets sore on cambered roads.",
            MemoryType.INJURY_HISTORY,
            ("body:knee",),
            "Right knee gets sore on cambered roads",
        ),
        ("Keep in mind I work as a paramedic.", MemoryType.CONTEXT, ("context:work",), "Works as a paramedic"),
        (
            "Don't forget that I'm racing Berlin in September.",
            MemoryType.CONTEXT,
            ("context:goal",),  # a race ahead named by its city and month is a goal
            "Is racing Berlin in September",
        ),
        ("Remember that my knee is fully healed now.", MemoryType.CONTEXT, ("body:knee",), "Knee is fully healed now"),
    ],
)
def test_explicit_requests_are_high_confidence(
    text: str, type_: MemoryType, tags: tuple[str, ...], content: str
) -> None:
    [c] = extract_memories(text, MESSAGE)
    assert (c.type, c.tags, c.content, c.confidence) == (type_, tags, content, MemoryConfidence.HIGH)


def test_reminders_to_do_something_are_not_facts() -> None:
    assert extract_memories("Remember to send me next week's plan.", MESSAGE) == []
    assert extract_memories("Don't forget to stretch!", MESSAGE) == []


# --- robustness ----------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "   ", "\n\t", "?", "...", "🏃‍♀️🔥"])
def test_empty_or_blank_text_yields_nothing(text: str) -> None:
    assert extract_memories(text, NOTE) == []


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_arbitrary_text_never_raises(text: str) -> None:
    for c in extract_memories(text, NOTE):
        assert 1 <= len(c.content) <= MAX_CONTENT_CHARS
        assert not any(ch.isspace() and ch != " " for ch in c.content)
        assert 0 <= c.evidence_start < c.evidence_end <= len(text)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "I",
                "my",
                "knee",
                "pain",
                "no",
                "prefer",
                "morning",
                "runs",
                "remember",
                "that",
                ",",
                ".",
                "?",
                "not",
                "sore",
                "friend",
                "she",
                "work",
                "as",
                "a",
                "nurse",
                "I'm",
                "kids",
                "have",
                "2",
                "hate",
                "intervals",
            ]
        ),
        max_size=40,
    ).map(" ".join)
)
def test_vocabulary_soup_never_raises(text: str) -> None:
    for c in extract_memories(text, MESSAGE):
        assert 1 <= len(c.content) <= MAX_CONTENT_CHARS
        assert not re.search(r"[\x00-\x1f\x7f]", c.content)


def test_long_text_is_bounded() -> None:
    text = "I prefer morning runs and " * 800 + "knee pain " * 1000
    for c in extract_memories(text, NOTE):
        assert len(c.content) <= MAX_CONTENT_CHARS


# --- pluggable extractors -------------------------------------------------------------------------


def test_rule_extractor_is_an_extractor() -> None:
    extractor: Extractor = RuleExtractor()
    assert extractor.name == "rules"
    assert [type(e) for e in default_extractors()] == [RuleExtractor]
    assert extractor.extract("I prefer morning runs", MESSAGE, "2026-11-01T07:00:00")[0].extractor == "rules"


def test_merge_keeps_one_candidate_per_fact_at_its_highest_confidence() -> None:
    low = Candidate(MemoryType.INJURY_HISTORY, "Knee sore", MemoryConfidence.LOW, ("body:knee",), 0, 9, "a")
    high = Candidate(MemoryType.INJURY_HISTORY, "Knee pain again", MemoryConfidence.HIGH, ("body:knee",), 0, 9, "b")
    other = Candidate(MemoryType.INJURY_HISTORY, "Calf tight", MemoryConfidence.LOW, ("body:calf",), 0, 9, "a")
    merged = merge_duplicates([low, high, other])
    assert [(c.content, c.confidence) for c in merged] == [
        ("Knee sore", MemoryConfidence.HIGH),
        ("Calf tight", MemoryConfidence.LOW),
    ]


# --- demo notes -------------------------------------------------------------------------------------


def test_demo_notes_yield_what_their_comment_says() -> None:
    notes = yaml.safe_load((ROOT / "assets" / "demo" / "notes.yaml").read_text(encoding="utf-8"))
    assert len(notes) >= 10
    results = {n["reference"]: extract_memories(n["text"], MemorySource(n["kind"]), n["reference"]) for n in notes}
    [seen_before] = results["2026-10-03T07:15:00+00:00"]
    assert (seen_before.type, seen_before.content, seen_before.tags) == (
        MemoryType.PREFERENCE,
        "Prefers morning runs",
        ("time:morning",),
    )
    [replaces] = results["act_2026_101"]
    assert (replaces.type, replaces.tags) == (MemoryType.INJURY_HISTORY, ("body:knee",))
    assert results["act_2026_104"] == [] and results["2026-10-12T20:05:00+00:00"] == []
    assert len({c.type for found in results.values() for c in found}) == 4
