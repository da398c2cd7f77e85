"""What the API takes and gives, as pydantic models; the limits are the domain's (domain.schemas)."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from datetime import datetime
from typing import Annotated

import orjson
from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field

from domain.coach_block import DEFAULT_MAX_TOKENS, Category, Scored
from domain.enums import MemoryConfidence, MemorySource, MemoryType, ProposalStatus, SourceKind
from domain.errors import InvalidInput
from domain.models import Memory, Proposal
from domain.schemas import MAX_REFERENCE, MAX_SOURCE_TEXT, clean_reference

USERNAME = r"^[A-Za-z0-9][A-Za-z0-9._-]{1,31}$"
MAX_QUERY = 1000
MAX_SEARCH = 200
MAX_TOKENS_LIMIT = 4000
MAX_OFFSET = 1_000_000


def _reference(value: str) -> str:
    try:
        return clean_reference(value)
    except InvalidInput as exc:
        raise ValueError(str(exc).removeprefix("Reference: ").rstrip(".")) from None


def _encodable(value: str) -> str:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("must be valid Unicode text") from None
    return value


def _text(value: str) -> str:
    """A note or message: any printable text, with line breaks and tabs."""
    if not value.strip():
        raise ValueError("must not be empty")
    if any(unicodedata.category(ch) == "Cc" and ch not in "\n\r\t" for ch in value):
        raise ValueError("must not contain control characters")
    return _encodable(value)


def one_line(value: str) -> str:
    """A query or search: printable text on one line."""
    if any(unicodedata.category(ch) == "Cc" for ch in value):
        raise ValueError("must not contain control characters")
    return _encodable(value)


def empty_is_none(value: object) -> object:
    return None if value == "" else value


Username = Annotated[str, Field(pattern=USERNAME, description="The athlete's login name (case-insensitive).")]
OptionalType = Annotated[MemoryType | None, BeforeValidator(empty_is_none)]
OneLine = Annotated[str, AfterValidator(one_line)]


class IngestRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    athlete: Username
    kind: SourceKind
    reference: Annotated[
        str,
        Field(
            min_length=1,
            max_length=MAX_REFERENCE,
            description="The note's or message's id in the coaching system; sending it again adds nothing.",
        ),
        AfterValidator(_encodable),
        AfterValidator(_reference),
    ]
    text: Annotated[str, Field(min_length=1, max_length=MAX_SOURCE_TEXT), AfterValidator(_text)]


class ProposalOut(BaseModel):
    id: int
    type: MemoryType
    content: str
    tags: list[str]
    confidence: MemoryConfidence
    status: ProposalStatus
    evidence_start: int | None
    evidence_end: int | None
    memory_id: int | None

    @classmethod
    def of(cls, proposal: Proposal) -> ProposalOut:
        return cls(
            id=proposal.id,
            type=proposal.type,
            content=proposal.content,
            tags=list(proposal.tags),
            confidence=proposal.confidence,
            status=proposal.status,
            evidence_start=proposal.evidence_start,
            evidence_end=proposal.evidence_end,
            memory_id=proposal.memory_id,
        )


class IngestResponse(BaseModel):
    athlete: str
    kind: SourceKind
    reference: str
    created: bool = Field(description="false when this athlete + kind + reference was ingested before")
    proposals: list[ProposalOut] = Field(
        description="What this text proposed, for the athlete to review (the same list on a repeat). Insights "
        "that pattern analysis may draw from all memories are proposed too, but are not this text's."
    )


class MemoryOut(BaseModel):
    id: int
    type: MemoryType
    content: str
    tags: list[str]
    confidence: MemoryConfidence
    occurrences: int
    source: MemorySource
    created_at: datetime
    updated_at: datetime

    @classmethod
    def of(cls, memory: Memory) -> MemoryOut:
        return cls(
            id=memory.id,
            type=memory.type,
            content=memory.content,
            tags=list(memory.tags),
            confidence=memory.confidence,
            occurrences=memory.occurrences,
            source=memory.source,
            created_at=memory.created_at,
            updated_at=memory.updated_at,
        )


class MemoryList(BaseModel):
    athlete: str
    total: int
    limit: int
    offset: int
    items: list[MemoryOut]


class ContextMemory(BaseModel):
    id: int
    type: MemoryType
    category: Category
    content: str
    tags: list[str]
    confidence: MemoryConfidence
    score: int
    updated_at: datetime

    @classmethod
    def of(cls, item: Scored) -> ContextMemory:
        c = item.candidate
        return cls(
            id=c.id,
            type=c.type,
            category=item.category,
            content=c.content,
            tags=list(c.tags),
            confidence=c.confidence,
            score=item.score,
            updated_at=c.updated_at,
        )


class ContextResponse(BaseModel):
    athlete: str
    query: str
    max_tokens: int = Field(DEFAULT_MAX_TOKENS)
    tokens: int = Field(description="ceil(characters of `block` / 4): never over max_tokens")
    block: str = Field(description="`MEMORY:` then one line each for Facts, Patterns, Notes; empty if none fit")
    memories: list[ContextMemory] = Field(description="The memories in the block, in block order")
    considered: int = Field(description="Memories the coach may see (active, not hidden), before scoring")


def context_body(
    *, athlete: str, query: str, max_tokens: int, tokens: int, block: str, items: Sequence[Scored], considered: int
) -> bytes:
    """A ContextResponse as JSON, byte for byte what `model_dump_json` gives (a test holds them equal),
    written from plain data by orjson (NiceGUI's own JSON library): building the models and dumping
    them cost 43 µs per bench answer, the standard library's json 47 µs, this 8 µs (issue 9)."""
    memories = [
        {
            "id": item.candidate.id,
            "type": item.candidate.type,
            "category": item.category,
            "content": item.candidate.content,
            "tags": item.candidate.tags,
            "confidence": item.candidate.confidence,
            "score": item.score,
            "updated_at": item.candidate.updated_at,
        }
        for item in items
    ]
    body = {
        "athlete": athlete,
        "query": query,
        "max_tokens": max_tokens,
        "tokens": tokens,
        "block": block,
        "memories": memories,
        "considered": considered,
    }
    return orjson.dumps(body, option=orjson.OPT_UTC_Z)
