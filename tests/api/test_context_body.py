"""The context answer is written without its pydantic model (ui.api.schemas.context_body, the hot path);
the coach must get exactly the JSON the documented model gives, for any text, tags, score and time."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.coach_block import Candidate, Scored
from domain.enums import MemoryConfidence, MemoryType
from ui.api.schemas import ContextMemory, ContextResponse, context_body

texts = st.text(st.characters(exclude_categories=("Cs",)), max_size=60)  # any Unicode but lone surrogates
moments = st.datetimes(datetime(2000, 1, 1), datetime(2100, 1, 1), timezones=st.just(UTC))
candidates = st.builds(
    Candidate,
    id=st.integers(1, 2**62),
    type=st.sampled_from(list(MemoryType)),
    content=texts,
    tags=st.lists(texts, max_size=3).map(tuple),
    confidence=st.sampled_from(list(MemoryConfidence)),
    occurrences=st.integers(1, 99),
    updated_at=moments | moments.map(lambda moment: moment.replace(microsecond=0)),
)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.builds(Scored, candidates, st.integers(1, 500)), max_size=6),
    texts,
    texts,
    st.integers(1, 4000),
    st.integers(0, 10**6),
)
def test_the_context_answer_is_the_documented_model_byte_for_byte(
    items: list[Scored], query: str, block: str, max_tokens: int, considered: int
) -> None:
    fields = {"athlete": "ann", "query": query, "max_tokens": max_tokens, "tokens": len(block), "block": block}
    model = ContextResponse(**fields, memories=[ContextMemory.of(item) for item in items], considered=considered)
    assert context_body(**fields, items=items, considered=considered) == model.model_dump_json().encode()
