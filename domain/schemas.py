"""Input schemas: everything a person or program sends in is validated here first."""

from __future__ import annotations

import re
from typing import Annotated, TypeVar

from pydantic import AfterValidator, BaseModel, ConfigDict, ValidationError

from domain.content import MAX_CONTENT, clean_text, scrub_text, text_problem
from domain.enums import MemoryConfidence, MemoryType
from domain.errors import InvalidInput

MAX_TAGS = 20
TAG_PATTERN = re.compile(r"^[a-z][a-z0-9_-]{0,29}:[a-z0-9][a-z0-9 _.'/-]{0,59}$")


InputT = TypeVar("InputT", bound=BaseModel)


def clean_content(value: str) -> str:
    """Several lines allowed; the text rule of domain.content (NFC, no control or direction characters)."""
    value = clean_text(value.strip(), multiline=True)
    if not value:
        raise ValueError("must not be empty")
    if len(value) > MAX_CONTENT:
        raise ValueError(f"must be at most {MAX_CONTENT:,} characters (got {len(value):,})")
    return value


def clean_tags(values: list[str]) -> list[str]:
    cleaned: list[str] = []
    for raw in values:
        tag = " ".join(raw.strip().lower().split())
        if not tag:
            continue
        if (problem := text_problem(raw, multiline=True)) is not None:  # not quoted: it may not even encode
            raise ValueError(f"a tag {problem}")
        if not TAG_PATTERN.match(tag):
            raise ValueError(f"'{raw}' is not a tag: use letters, digits and spaces, e.g. knee or body:knee")
        if tag not in cleaned:
            cleaned.append(tag)
    if len(cleaned) > MAX_TAGS:
        raise ValueError(f"at most {MAX_TAGS} tags")
    return cleaned


Content = Annotated[str, AfterValidator(clean_content)]
Tags = Annotated[list[str], AfterValidator(clean_tags)]


class _Input(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class MemoryCreate(_Input):
    content: Content
    type: MemoryType
    tags: Tags = []


class MemoryEdit(_Input):
    content: Content | None = None
    type: MemoryType | None = None
    tags: Tags | None = None
    confidence: MemoryConfidence | None = None


def parse(schema: type[InputT], **data: object) -> InputT:
    """Validate, turning pydantic's report into one InvalidInput naming the field."""
    try:
        return schema.model_validate(data)
    except ValidationError as exc:
        raise to_invalid_input(exc) from None


def to_invalid_input(exc: ValidationError) -> InvalidInput:
    first = exc.errors()[0]
    field = ".".join(str(part) for part in first["loc"] if not isinstance(part, int)) or None
    label = (field or "input").capitalize()
    if first["type"] == "enum":
        allowed = first.get("ctx", {}).get("expected", "")
        message = f"{label}: unknown value {first['input']!r}; allowed: {allowed}"
    elif first["type"] == "value_error":
        message = f"{label}: {first['msg'].removeprefix('Value error, ')}"
    elif first["type"] == "extra_forbidden":
        message = f"Unknown field '{field}'"
    else:
        message = f"{label}: {first['msg']}"
    return InvalidInput(message, field=field)


class ProposalEdit(_Input):
    """What the athlete may change in a proposal before confirming it."""

    content: Content | None = None
    type: MemoryType | None = None
    tags: Tags | None = None


MAX_SOURCE_TEXT = 20_000
MAX_REFERENCE = 200


def clean_reference(value: str) -> str:
    value = value.strip()
    if not value:
        raise InvalidInput("Reference: must not be empty.", field="reference")
    if len(value) > MAX_REFERENCE or text_problem(value) is not None:
        raise InvalidInput(f"Reference: at most {MAX_REFERENCE} printable characters.", field="reference")
    return clean_text(value)


def clean_line(value: str | None, *, label: str, field: str, limit: int) -> str | None:
    """A one-line text (a reason, a display name): spaces collapsed, the text rule applied; None if blank."""
    if value is None or not value.strip():
        return None
    if (problem := text_problem(value, multiline=True)) is not None:  # newlines and tabs become spaces
        raise InvalidInput(f"{label}: {problem}.", field=field)
    value = clean_text(" ".join(value.split()))
    if len(value) > limit:
        raise InvalidInput(f"{label}: at most {limit:,} characters.", field=field)
    return value


def clean_source_text(text: str) -> str:
    """A note or message a program sent: kept as evidence, without the characters the rule refuses."""
    return scrub_text(text)


def check_source_text(text: str) -> None:
    if len(text) > MAX_SOURCE_TEXT:
        raise InvalidInput(
            f"Text: at most {MAX_SOURCE_TEXT:,} characters (got {len(text):,}); send long notes in parts.",
            field="text",
        )
