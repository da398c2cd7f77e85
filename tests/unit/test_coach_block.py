"""The coach's block without a database: M13 §5.5 scoring, the Josi seed's caps and budget, determinism."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.coach_block import (
    CAPS,
    CATEGORY_OF,
    CHARS_PER_TOKEN,
    SEPARATOR,
    Block,
    Candidate,
    Category,
    block_text,
    build_block,
    count_tokens,
    rank,
    rank_key,
    score,
    words,
)
from domain.enums import MemoryConfidence, MemoryType

NOW = datetime(2026, 11, 22, 8, 0, tzinfo=UTC)


def memory(
    id: int,
    content: str,
    *,
    type: MemoryType = MemoryType.PREFERENCE,
    tags: tuple[str, ...] = (),
    confidence: MemoryConfidence = MemoryConfidence.LOW,
    days_old: float = 100,
    occurrences: int = 1,
) -> Candidate:
    return Candidate(id, type, content, tags, confidence, occurrences, NOW - timedelta(days=days_old))


def points(candidate: Candidate, query: str) -> int:
    return score(candidate, words(query), query.lower(), NOW)


# M13 §5.5, term by term.
def test_each_shared_word_counts_two() -> None:
    assert points(memory(1, "Prefers morning runs"), "morning runs today") == 4
    assert points(memory(1, "Prefers morning runs."), "RUNS") == 2  # case and punctuation do not matter


def test_a_tag_whose_entity_is_in_the_query_counts_five() -> None:
    knee = memory(1, "Sore after hills", tags=("body:knee", "terrain:hills"))
    assert points(knee, "my knee hurts") == 5
    assert points(knee, "knee pain on hills") == 2 + 5 + 5  # "hills" also shares a word


def test_confidence_adds_three_for_high_and_one_for_medium() -> None:
    assert points(memory(1, "x", confidence=MemoryConfidence.HIGH), "") == 3
    assert points(memory(1, "x", confidence=MemoryConfidence.MEDIUM), "") == 1
    assert points(memory(1, "x", confidence=MemoryConfidence.LOW), "") == 0


def test_recency_adds_two_within_a_week_and_one_within_a_month() -> None:
    assert points(memory(1, "x", days_old=6.9), "") == 2
    assert points(memory(1, "x", days_old=7), "") == 1
    assert points(memory(1, "x", days_old=29.9), "") == 1
    assert points(memory(1, "x", days_old=30), "") == 0


def test_only_memories_that_score_above_zero_are_ranked() -> None:
    ranked = rank([memory(1, "nothing in common"), memory(2, "long runs")], "long runs", NOW)
    assert [item.candidate.id for item in ranked] == [2]


def test_ties_break_by_confidence_occurrences_recency_then_id() -> None:
    sure_old = memory(8, "a", confidence=MemoryConfidence.HIGH)  # 3 points
    unsure_new = memory(2, "b", confidence=MemoryConfidence.MEDIUM, days_old=1)  # 1 + 2 points
    assert [s.candidate.id for s in rank([unsure_new, sure_old], "", NOW)] == [8, 2]
    knee = ("body:knee",)
    once = memory(5, "a", occurrences=1, tags=knee)
    often = memory(3, "b", occurrences=4, tags=knee)
    often_too = memory(4, "c", occurrences=4, tags=knee)
    often_newer = memory(9, "d", occurrences=4, days_old=50, tags=knee)
    assert [s.candidate.id for s in rank([once, often, often_too, often_newer], "knee", NOW)] == [9, 3, 4, 5]


# The block.
def test_the_block_reads_as_in_the_josi_seed() -> None:
    items = [
        memory(1, "Prefers morning runs", confidence=MemoryConfidence.HIGH),
        memory(2, "Has recurring knee issue", type=MemoryType.INJURY_HISTORY, confidence=MemoryConfidence.HIGH),
        memory(3, "Tends to skip after rest days", type=MemoryType.INSIGHT, confidence=MemoryConfidence.MEDIUM),
        memory(4, "Responds well to encouragement", type=MemoryType.TRAINING_RESPONSE, days_old=1),
    ]
    block = build_block(rank(items, "", NOW))
    assert block.text == (
        "MEMORY:\n- Facts: Prefers morning runs | Has recurring knee issue"
        "\n- Patterns: Tends to skip after rest days\n- Notes: Responds well to encouragement"
    )
    assert block.tokens == count_tokens(block.text) <= 174


def test_nothing_relevant_gives_an_empty_block() -> None:
    assert build_block(rank([memory(1, "old and unsure")], "", NOW)) == Block("", ())


def test_caps_are_15_facts_5_patterns_5_notes() -> None:
    items = [memory(i, f"f{i}", confidence=MemoryConfidence.HIGH) for i in range(30)]
    items += [memory(100 + i, f"p{i}", type=MemoryType.INSIGHT, confidence=MemoryConfidence.HIGH) for i in range(9)]
    items += [
        memory(200 + i, f"n{i}", type=MemoryType.TRAINING_RESPONSE, confidence=MemoryConfidence.HIGH) for i in range(9)
    ]
    block = build_block(rank(items, "", NOW), max_tokens=4000)
    counts = {category: sum(1 for item in block.items if item.category == category) for category in Category}
    assert counts == {Category.FACTS: 15, Category.PATTERNS: 5, Category.NOTES: 5}


def test_an_item_that_does_not_fit_is_skipped_for_a_smaller_one() -> None:
    big = memory(1, "x" * 400, confidence=MemoryConfidence.HIGH, days_old=1)
    small = memory(2, "Prefers trails", confidence=MemoryConfidence.HIGH)
    block = build_block(rank([big, small], "", NOW), max_tokens=20)
    assert [item.candidate.id for item in block.items] == [2]


def test_separators_and_line_breaks_in_content_cannot_break_the_format() -> None:
    block = build_block(rank([memory(1, "a | b\n- Notes: c", confidence=MemoryConfidence.HIGH)], "", NOW))
    assert block.text == "MEMORY:\n- Facts: a / b - Notes: c"


# Properties, for any data.
contents = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=300)
candidates = st.builds(
    Candidate,
    id=st.integers(1, 10_000),
    type=st.sampled_from(list(MemoryType)),
    content=contents,
    tags=st.lists(st.sampled_from(["body:knee", "time:morning", "terrain:hills", "context:work"]), max_size=3).map(
        tuple
    ),
    confidence=st.sampled_from(list(MemoryConfidence)),
    occurrences=st.integers(1, 9),
    updated_at=st.integers(0, 400).map(lambda d: NOW - timedelta(days=d)),
)
unique_memories = st.lists(candidates, max_size=60, unique_by=lambda c: c.id)


@settings(max_examples=200, deadline=None)
@given(unique_memories, st.text(max_size=80), st.integers(1, 600))
def test_the_block_never_passes_the_budget_or_the_caps(items: list[Candidate], query: str, budget: int) -> None:
    block = build_block(rank(items, query, NOW), budget)
    assert count_tokens(block.text) <= budget
    for category in Category:
        assert sum(1 for item in block.items if item.category == category) <= CAPS[category]
    assert all(CATEGORY_OF[item.candidate.type] == item.category for item in block.items)


@settings(max_examples=200, deadline=None)
@given(unique_memories, st.text(max_size=80), st.integers(1, 600), st.randoms(use_true_random=False))
def test_the_same_data_in_any_order_gives_the_same_block(
    items: list[Candidate], query: str, budget: int, rnd: random.Random
) -> None:
    shuffled = list(items)
    rnd.shuffle(shuffled)
    assert build_block(rank(items, query, NOW), budget) == build_block(rank(shuffled, query, NOW), budget)


@settings(max_examples=200, deadline=None)
@given(unique_memories, st.text(max_size=80), st.integers(1, 600))
def test_highest_value_first_and_nothing_better_left_out_while_it_fits(
    items: list[Candidate], query: str, budget: int
) -> None:
    ranked = rank(items, query, NOW)
    block = build_block(ranked, budget)
    chosen = {item.candidate.id for item in block.items}
    for category in Category:
        in_block = [item for item in block.items if item.category == category]
        assert in_block == sorted(in_block, key=rank_key)
        if len(in_block) < CAPS[category] and in_block:
            # A better item of this category was left out only because it did not fit, and it
            # would not fit into the finished block either (the block only grew after it).
            for item in ranked:
                better = rank_key(item) < rank_key(in_block[-1])
                if item.category == category and item.candidate.id not in chosen and better:
                    extra = len(block_text(item.candidate.content)) + len(SEPARATOR)
                    assert len(block.text) + extra > budget * CHARS_PER_TOKEN
