from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from domain.enums import MemorySource, MemoryType
from domain.extraction import extract_memories
from tests.extraction_eval import Case, Expected, evaluate, load_cases

CASES_PATH = Path(__file__).resolve().parents[1] / "data" / "extraction_cases.yaml"
OUTSIDE_PATH = Path(__file__).resolve().parents[1] / "data" / "extraction_outside.yaml"


@dataclass(frozen=True)
class P:
    type: MemoryType
    tags: tuple[str, ...] = ()


def fixed(*predicted: P) -> Callable[[str, MemorySource], list[P]]:
    return lambda text, source: list(predicted)


def case(*expect: Expected) -> Case:
    return Case("text", MemorySource.USER_MESSAGE, expect)


# --- the scorer ----------------------------------------------------------------------------------


def test_type_and_tag_subset_match() -> None:
    scores = evaluate(
        [case(Expected(MemoryType.INJURY_HISTORY, ("body:knee",)))],
        fixed(P(MemoryType.INJURY_HISTORY, ("body:hip", "body:knee"))),
    )
    assert (scores.tp, scores.fp, scores.fn) == (1, 0, 0)
    assert scores.precision == scores.recall == scores.f1 == 1.0


def test_wrong_tag_is_a_false_positive_and_a_false_negative() -> None:
    scores = evaluate(
        [case(Expected(MemoryType.INJURY_HISTORY, ("body:knee",)))], fixed(P(MemoryType.INJURY_HISTORY, ("body:calf",)))
    )
    assert (scores.tp, scores.fp, scores.fn) == (0, 1, 1)


def test_untagged_expectation_matches_on_type_and_each_is_used_once() -> None:
    expected = case(Expected(MemoryType.CONTEXT), Expected(MemoryType.CONTEXT, ("context:work",)))
    scores = evaluate([expected], fixed(P(MemoryType.CONTEXT, ("context:work",)), P(MemoryType.CONTEXT)))
    assert (scores.tp, scores.fp, scores.fn) == (2, 0, 0)
    scores = evaluate([expected], fixed(P(MemoryType.CONTEXT, ("context:work",))))
    assert (scores.tp, scores.fp, scores.fn) == (1, 0, 1)
    assert scores.recall == 0.5


def test_nothing_expected_and_nothing_found_is_perfect() -> None:
    scores = evaluate([case()], fixed())
    assert (scores.precision, scores.recall, scores.tp, scores.fp, scores.fn) == (1.0, 1.0, 0, 0, 0)


# --- the labelled set ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def cases() -> list[Case]:
    return load_cases(CASES_PATH)


def test_labelled_set_is_large_and_honest(cases: list[Case]) -> None:
    assert len(cases) >= 110
    assert sum(1 for c in cases if not c.expect) >= 40
    assert {c.source for c in cases} == {MemorySource.ACTIVITY_NOTE, MemorySource.USER_MESSAGE}
    assert {e.type for c in cases for e in c.expect} >= {
        MemoryType.INJURY_HISTORY,
        MemoryType.PREFERENCE,
        MemoryType.CONTEXT,
        MemoryType.TRAINING_RESPONSE,
    }
    assert len({c.text for c in cases}) == len(cases)


def test_precision_and_recall_floor(cases: list[Case]) -> None:
    scores = evaluate(cases, extract_memories)
    assert scores.precision >= 0.90, scores
    assert scores.recall >= 0.85, scores


def test_outside_set_precision_and_recall_floor() -> None:
    """The outside development set (written by someone who had not read the rules): floors just below
    what the rules score on it, so a change that loses ground there fails here."""
    outside = load_cases(OUTSIDE_PATH)
    assert len(outside) >= 400
    scores = evaluate(outside, extract_memories)
    assert scores.precision >= 0.86, scores
    assert scores.recall >= 0.76, scores


def test_expected_content_is_found_where_labelled(cases: list[Case]) -> None:
    for c in cases:
        for e in c.expect:
            if e.content_contains:
                contents = [m.content for m in extract_memories(c.text, c.source) if m.type == e.type]
                assert any(e.content_contains in content for content in contents), (c.text, contents)
