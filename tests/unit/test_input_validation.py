"""Bad input is refused with a message naming the field and what is allowed."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.errors import InvalidInput
from domain.schemas import MemoryCreate, MemoryEdit, parse


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("", "Content: must not be empty"),
        ("   \n\t ", "Content: must not be empty"),
        ("x" * 2001, "Content: must be at most 2,000 characters (got 2,001)"),
        ("Knee\x00pain", "Content: must not contain control characters"),
        ("Knee\x1b[31mpain", "Content: must not contain control characters"),
    ],
)
def test_bad_content_is_refused(content: str, message: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        parse(MemoryCreate, content=content, type="preference")
    assert str(caught.value) == message
    assert caught.value.field == "content"


def test_content_is_trimmed_and_2000_characters_are_fine() -> None:
    assert parse(MemoryCreate, content="  Prefers trails \n", type="preference").content == "Prefers trails"
    assert len(parse(MemoryCreate, content="x" * 2000, type="context").content) == 2000


def test_unknown_type_names_the_allowed_values() -> None:
    with pytest.raises(InvalidInput) as caught:
        parse(MemoryCreate, content="Prefers trails", type="hobby")
    assert caught.value.field == "type"
    assert "unknown value 'hobby'" in str(caught.value)
    assert "'injury_history'" in str(caught.value) and "'training_response'" in str(caught.value)


def test_wrong_types_and_unknown_fields_are_refused() -> None:
    with pytest.raises(InvalidInput, match="Content"):
        parse(MemoryCreate, content=42, type="context")
    with pytest.raises(InvalidInput, match="Unknown field 'owner'"):
        parse(MemoryCreate, content="x", type="context", owner=2)
    with pytest.raises(InvalidInput, match="Confidence"):
        parse(MemoryEdit, confidence="certain")


def test_tags_are_lower_case_kind_value_pairs() -> None:
    made = parse(MemoryCreate, content="Knee", type="injury_history", tags=["Body:Knee", "body:knee", " time:morning "])
    assert made.tags == ["body:knee", "time:morning"]
    with pytest.raises(InvalidInput, match="'knee' is not a tag: use letters"):
        parse(MemoryCreate, content="Knee", type="injury_history", tags=["knee"])


@given(st.text(max_size=2100))
def test_any_text_is_either_accepted_clean_or_refused_with_a_message(text: str) -> None:
    try:
        made = parse(MemoryCreate, content=text, type="context")
    except InvalidInput as exc:
        assert str(exc).startswith("Content: ")
    else:
        assert made.content == made.content.strip()
        assert 1 <= len(made.content) <= 2000
