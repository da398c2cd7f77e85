"""What an extractor proposes, and the protocol every extractor follows: no rules here, so importing it is cheap."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from domain.enums import MemoryConfidence, MemorySource, MemoryType


@dataclass(frozen=True)
class Candidate:
    """A proposed memory with the span of `text` it was read from."""

    type: MemoryType
    content: str
    confidence: MemoryConfidence
    tags: tuple[str, ...]
    evidence_start: int
    evidence_end: int
    extractor: str


class Extractor(Protocol):
    name: str

    def extract(self, text: str, source: MemorySource, source_reference: str | None = None) -> list[Candidate]: ...
