"""The learned stage of issue 13 (tests/experiments/learned.py): what the rules miss in a clause, the model
may read. It is an experiment, not wired into the app (blind precision fell by more than 0.01)."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from domain.enums import MemoryConfidence, MemorySource, MemoryType
from domain.extraction import extract_memories
from tests.experiments.learned import WEIGHTS_FILE, default_model, with_learned
from tests.extraction_eval import is_fragment

MISSED_BY_RULES = "My calves always seize after speed sessions."


def test_a_sentence_the_rules_miss_yields_a_readable_training_response() -> None:
    assert extract_memories(MISSED_BY_RULES, MemorySource.USER_MESSAGE) == []
    [found] = with_learned(MISSED_BY_RULES, MemorySource.USER_MESSAGE)
    assert found.type is MemoryType.TRAINING_RESPONSE
    assert found.content == "Calves always seize after speed sessions"
    assert not is_fragment(found.content)
    assert {"body:calf", "intensity:speed work"} <= set(found.tags)
    assert found.confidence is MemoryConfidence.LOW
    assert found.extractor == "learned"
    assert "calves always seize" in MISSED_BY_RULES[found.evidence_start : found.evidence_end]


def test_a_coach_relaying_it_gets_a_statement_about_the_athlete() -> None:
    [found] = with_learned("He says his calves always seize after speed sessions.", MemorySource.ACTIVITY_NOTE)
    assert found.type is MemoryType.TRAINING_RESPONSE
    assert found.content == "Calves always seize after speed sessions"


@pytest.mark.parametrize(
    "text",
    [
        "Nice weather, saw a heron by the canal.",
        "Ran with the club, then coffee and cake.",
        "My wife's calves always seize after speed sessions.",  # someone else
        "Do my calves always seize after speed sessions?",  # a question
        "Knee wasn't sore after the long run.",  # negated
        "Two kids overtook me on the last lap.",  # a life topic in small talk
        "Training for an hour then stretching.",
    ],
)
def test_chatter_questions_and_other_people_yield_nothing(text: str) -> None:
    assert with_learned(text, MemorySource.USER_MESSAGE) == []


def test_what_the_rules_read_is_left_to_the_rules() -> None:
    text = "Treadmill runs bore me to tears."
    assert with_learned(text, MemorySource.USER_MESSAGE) == extract_memories(text, MemorySource.USER_MESSAGE)


def test_the_weights_load_from_the_package_path_once() -> None:
    shipped = resources.files("tests.experiments").joinpath(WEIGHTS_FILE)
    raw = json.loads(shipped.read_text(encoding="utf-8"))
    model = default_model()
    assert model is default_model()
    assert 0.5 <= model.threshold < 1.0
    assert model.threshold == raw["threshold"]
    assert {MemoryType(t) for t in raw["types"]} == set(model.types)
    assert len(model.bias) == len(model.types)
    assert all(len(ws) == len(model.types) for ws in model.weights.values())
    assert all(len(ws) == len(model.tags) for ws in model.tag_weights.values())
