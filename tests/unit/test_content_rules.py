"""One content limit and one normal form: every schema and form uses domain.content's."""

from __future__ import annotations

import pytest

from domain import content, dedup, schemas
from domain.content import MAX_CONTENT, normalize
from domain.enums import CONFIDENCE_RANK, MemoryConfidence
from domain.errors import InvalidInput
from domain.schemas import MemoryCreate, MemoryEdit, ProposalEdit, parse

SCHEMAS = [
    (MemoryCreate, {"type": "preference"}),
    (MemoryEdit, {}),
    (ProposalEdit, {}),
]


@pytest.mark.parametrize(("schema", "other_fields"), SCHEMAS)
def test_content_of_exactly_the_limit_is_taken_and_one_more_is_refused(
    schema: type[MemoryCreate | MemoryEdit | ProposalEdit], other_fields: dict[str, str]
) -> None:
    accepted = parse(schema, content="x" * MAX_CONTENT, **other_fields)
    assert accepted.content is not None and len(accepted.content) == MAX_CONTENT
    with pytest.raises(InvalidInput) as caught:
        parse(schema, content="x" * (MAX_CONTENT + 1), **other_fields)
    assert caught.value.field == "content"
    assert f"at most {MAX_CONTENT:,} characters" in str(caught.value)


def test_the_limit_counts_after_trimming() -> None:
    padded = "  " + "x" * MAX_CONTENT + "\n"
    assert parse(MemoryCreate, content=padded, type="context").content == "x" * MAX_CONTENT


def test_the_schemas_and_the_add_and_edit_form_share_the_one_constant() -> None:
    from ui.components import memory_form

    assert schemas.MAX_CONTENT is content.MAX_CONTENT
    assert memory_form.MAX_CONTENT is content.MAX_CONTENT


def test_dedup_compares_in_the_one_normal_form() -> None:
    assert dedup.normalize is normalize
    assert normalize("  Prefers   MORNING runs! ") == "prefers morning runs"
    assert normalize("Left-knee pain,\nafter long runs.") == "leftknee pain after long runs"


def test_confidence_has_one_order() -> None:
    assert sorted(MemoryConfidence, key=CONFIDENCE_RANK.__getitem__, reverse=True) == [
        MemoryConfidence.HIGH,
        MemoryConfidence.MEDIUM,
        MemoryConfidence.LOW,
    ]
    assert set(CONFIDENCE_RANK) == set(MemoryConfidence)
