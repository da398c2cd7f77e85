"""The prepared index ranks exactly as the plain M13 scoring does, for any data, query and time."""

from __future__ import annotations

from datetime import timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.coach_block import Candidate, build_block, rank
from domain.coach_index import CoachIndex
from tests.unit.test_coach_block import NOW, memory, unique_memories

queries = st.sampled_from(["", "knee", "my knee hurts in the morning", "hills work", "x"]) | st.text(max_size=40)


@settings(max_examples=300, deadline=None)
@given(unique_memories, st.lists(queries, min_size=1, max_size=4), st.lists(st.integers(0, 60), min_size=1, max_size=4))
def test_the_index_ranks_as_rank_does(items: list[Candidate], asked: list[str], days_later: list[int]) -> None:
    index = CoachIndex(items)
    for query, days in zip(asked, days_later, strict=False):  # one index, used at several times
        now = NOW + timedelta(days=days)
        assert list(index.ranked(query, now)) == rank(items, query, now)


@settings(max_examples=200, deadline=None)
@given(unique_memories, queries, st.integers(1, 400))
def test_stopping_early_gives_the_same_block(items: list[Candidate], query: str, budget: int) -> None:
    index = CoachIndex(items)
    lazy = build_block(index.ranked(query, NOW), budget, shortest=index.shortest)
    assert lazy == build_block(rank(items, query, NOW), budget)


def test_an_empty_index_ranks_nothing() -> None:
    assert list(CoachIndex([]).ranked("knee", NOW)) == []


def test_the_query_free_order_is_reused_until_a_memory_crosses_a_recency_boundary() -> None:
    index = CoachIndex([memory(1, "a", days_old=6), memory(2, "b", days_old=20)])
    first = index._base_at(NOW)
    assert index._base_at(NOW + timedelta(hours=23)) is first
    assert first.valid_until == NOW + timedelta(days=1)
    assert index._base_at(NOW + timedelta(days=1)) is not first
