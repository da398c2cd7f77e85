"""The blocks the prepared index keeps (domain.coach_index.CoachIndex.block) are always the block the plain
M13 scoring gives for that query, budget and time: asked again, with another query of the same words,
with another budget, or after a memory crossed a recency boundary.
"""

from __future__ import annotations

from datetime import timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.coach_block import Candidate, build_block, rank
from domain.coach_index import CoachIndex
from tests.unit.test_coach_block import NOW, memory, unique_memories

queries = st.sampled_from(["", "knee", "Knee!", "my knee hurts in the morning", "morning knee", "hills", "x"])
asks = st.lists(st.tuples(queries | st.text(max_size=30), st.integers(0, 40), st.integers(1, 300)), max_size=12)


@settings(max_examples=300, deadline=None)
@given(unique_memories, asks)
def test_a_kept_block_is_the_block_of_its_query_budget_and_time(
    items: list[Candidate], asked: list[tuple[str, int, int]]
) -> None:
    index = CoachIndex(items)
    for query, days, budget in asked + asked:  # each asked twice: the second time it may be kept
        now = NOW + timedelta(days=days)
        assert index.block(query, now, budget) == build_block(rank(items, query, now), budget)


def test_a_block_is_not_kept_past_a_recency_boundary() -> None:
    """A week after its update a memory loses a recency point, and the block with it."""
    fresh = memory(1, "Knee sore after hills", days_old=6.5)  # +2 for a day, then +1
    steady = memory(2, "Knee fine on flats", days_old=20, occurrences=2)  # +1 for ten days
    index = CoachIndex([fresh, steady])
    first = index.block("knee", NOW, 10)  # room for one of them
    later = index.block("knee", NOW + timedelta(days=1), 10)
    assert [i.candidate.id for i in first.items] == [1]
    assert [i.candidate.id for i in later.items] == [2]


def test_queries_with_the_same_words_share_a_block_and_other_words_do_not() -> None:
    index = CoachIndex([memory(1, "Knee sore after hills"), memory(2, "Prefers morning runs", tags=("time:morning",))])
    assert index.signature("my KNEE, again") == index.signature("knee") != index.signature("morning")
    assert index.block("knee again", NOW, 100) is index.block("Knee!", NOW, 100)
    assert index.block("morning", NOW, 100).items[0].candidate.id == 2
