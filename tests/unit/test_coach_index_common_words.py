"""Memories written with a few words, so that most of them share a word (as 'after' is in every memory
of the API bench): the prepared index, which counts such a word for all and takes it back from the
few without it, still ranks exactly as the plain M13 scoring does, ties included."""

from __future__ import annotations

from datetime import timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.coach_block import Candidate, build_block, rank
from domain.coach_index import CoachIndex
from domain.enums import MemoryConfidence, MemoryType
from tests.unit.test_coach_block import NOW

VOCABULARY = ["knee", "after", "runs", "morning", "hills", "the", "easy"]
sentences = st.lists(st.sampled_from(VOCABULARY), min_size=1, max_size=6).map(" ".join)
candidates = st.builds(
    Candidate,
    id=st.integers(1, 10_000),
    type=st.sampled_from(list(MemoryType)),
    content=sentences,
    tags=st.lists(st.sampled_from(["body:knee", "time:morning", "terrain:hills"]), max_size=3).map(tuple),
    confidence=st.sampled_from(list(MemoryConfidence)),
    occurrences=st.integers(1, 3),
    updated_at=st.integers(0, 40).map(lambda d: NOW - timedelta(days=d)),
)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(candidates, max_size=80, unique_by=lambda c: c.id),
    st.lists(sentences | st.just(""), min_size=1, max_size=3),
    st.integers(0, 40),
    st.integers(1, 120),
)
def test_words_most_memories_share_rank_as_rank_does(
    items: list[Candidate], queries: list[str], days: int, budget: int
) -> None:
    index = CoachIndex(items)
    now = NOW + timedelta(days=days)
    for query in queries:
        assert list(index.ranked(query, now)) == rank(items, query, now)
        assert build_block(index.ranked(query, now), budget, shortest=index.shortest) == build_block(
            rank(items, query, now), budget
        )
