"""Reading an import file: our M13 YAML, a PAM JSON file, or plain text with one memory per line.

The whole file is checked before anything is stored: the first problem raises InvalidInput naming
the entry and the field, and nothing is imported. Nothing here touches the database.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from typing import Any, Literal

import rfc8785
import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from domain.content import clean_text, text_problem
from domain.enums import MemoryConfidence, MemorySource, MemoryType
from domain.errors import InvalidInput
from domain.export_pam import PAM_SCHEMA, content_hash, integrity_checksum
from domain.extraction import Candidate, extract_memories
from domain.schemas import MAX_TAGS, TAG_PATTERN, Content, Tags, clean_content, clean_tags, to_invalid_input
from domain.types import utcnow

MAX_IMPORT_BYTES = 8 * 1024 * 1024  # a PAM export of ~4,500 memories; a 10 MB file is refused
MAX_IMPORT_ENTRIES = 5000
MAX_REFERENCE = 200
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's when PyYAML has it
Format = Literal["m13", "pam", "text"]
FORMAT_LABELS = {"m13": "M13 YAML", "pam": "Portable AI Memory JSON", "text": "plain text"}
PAM_TYPES = {"preference": MemoryType.PREFERENCE, "instruction": MemoryType.PREFERENCE}
_TEXT_LINE = re.compile(r"[-*•]?\s*(?:\[(?P<date>[^\]]{0,40})\])?\s*(?:[-–—:]\s*)?(?P<content>.*)")


@dataclass(frozen=True)
class ImportItem:
    label: str  # how messages name it: "entry 3 (mem_12)", "line 4"
    content: str
    type: MemoryType
    tags: tuple[str, ...]
    confidence: MemoryConfidence
    source: MemorySource
    source_reference: str | None
    created_at: datetime
    updated_at: datetime
    occurrences: int = 1
    hidden: bool = False


@dataclass(frozen=True)
class ParsedFile:
    format: Format
    items: list[ImportItem]
    history: int = 0  # archived / superseded entries: kept in the file, not imported


def _one_line(value: str | None) -> str | None:
    """A reference or id under the text rule of domain.content (no control or direction characters)."""
    if value is None:
        return None
    problem = text_problem(value)
    if problem is not None:
        raise ValueError(problem)
    return clean_text(value.strip()) or None


def _utc(value: datetime) -> datetime:
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class _Entry(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)

    id: str = Field(min_length=1, max_length=200)
    type: MemoryType
    content: Content
    source: MemorySource = MemorySource.MANUAL
    source_reference: str | None = Field(default=None, max_length=MAX_REFERENCE)
    created_at: datetime
    updated_at: datetime | None = None
    confidence: MemoryConfidence = MemoryConfidence.MEDIUM
    occurrences: int = Field(default=1, ge=1, le=1_000_000)
    tags: Tags = []
    hidden_from_coach: bool = False

    @field_validator("id", "source_reference", mode="before")
    @classmethod
    def _text(cls, value: object) -> object:
        return str(value) if isinstance(value, int | float) else value

    @field_validator("id", "source_reference")
    @classmethod
    def _printable(cls, value: str | None) -> str | None:
        return _one_line(value)


class _Archived(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)

    id: str = Field(min_length=1, max_length=200)
    original_content: str = Field(min_length=1)
    superseded_by: str | None = None
    archived_at: datetime | None = None


def _entry_error(exc: ValidationError, where: str) -> InvalidInput:
    problem = to_invalid_input(exc)
    return InvalidInput(f"{where}: {problem}", field=f"{where}.{problem.field}" if problem.field else where)


def _label(index: int, entry: object) -> str:
    ident = entry.get("id") if isinstance(entry, dict) else None
    shown = "".join(ch for ch in str(ident)[:40] if ch.isprintable()) if ident is not None else ""
    return f"Entry {index + 1}" + (f" ({shown})" if shown else "")


def _unique_ids(entries: Iterable[tuple[int, object]], section: str) -> None:
    seen: dict[str, int] = {}
    for index, entry in entries:
        ident = str(entry.get("id")) if isinstance(entry, dict) and entry.get("id") is not None else None
        if ident is None:
            continue
        if ident in seen:
            shown = "".join(ch for ch in ident[:40] if ch.isprintable())
            raise InvalidInput(
                f"{section} entry {index + 1}: id {shown!r} appears twice (entries {seen[ident] + 1} and {index + 1}).",
                field=f"{section}[{index}].id",
            )
        seen[ident] = index


def _list_of(document: dict[str, Any], key: str, *, required: bool) -> list[Any]:
    value = document.get(key)
    if value is None and not required:
        return []
    if not isinstance(value, list):
        raise InvalidInput(f"The file needs a list under '{key}'.", field=key)
    if len(value) > MAX_IMPORT_ENTRIES:
        raise InvalidInput(f"'{key}' holds {len(value):,} entries; an import takes at most {MAX_IMPORT_ENTRIES:,}.")
    return value


def parse_m13(text: str) -> ParsedFile:
    try:
        document = yaml.load(text, Loader=LOADER)  # a safe loader (LOADER)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 1})" if mark is not None else ""
        problem = getattr(exc, "problem", None) or "cannot be read"
        raise InvalidInput(f"The file is not valid YAML{where}: {problem}.") from None
    if not isinstance(document, dict):
        raise InvalidInput("The file is not an M13 memories file: it needs '_schema' and 'memories'.")
    schema = document.get("_schema")
    if not isinstance(schema, dict):
        raise InvalidInput("The file has no '_schema' block (format_version 1.x).", field="_schema")
    version = str(schema.get("format_version", ""))
    if version.split(".", 1)[0] != "1":
        raise InvalidInput(
            f"_schema.format_version {version[:20]!r} is not supported; this app reads version 1.x.",
            field="_schema.format_version",
        )
    if schema.get("schema_type", "memories") != "memories":
        raise InvalidInput("_schema.schema_type must be 'memories'.", field="_schema.schema_type")
    raw = _list_of(document, "memories", required=True)
    archived = _list_of(document, "archived", required=False)
    _unique_ids(enumerate(raw), "memories")
    _unique_ids(enumerate(archived), "archived")
    items = []
    for index, entry in enumerate(raw):
        where = f"memories {_label(index, entry).lower()}"
        if not isinstance(entry, dict):
            raise InvalidInput(f"{where}: each memory must be a mapping of fields.", field=f"memories[{index}]")
        try:
            parsed = _Entry.model_validate(entry)
        except ValidationError as exc:
            raise _entry_error(exc, where) from None
        created = _utc(parsed.created_at)
        items.append(
            ImportItem(
                label=f"entry {index + 1} ({parsed.id[:40]})",
                content=parsed.content,
                type=parsed.type,
                tags=tuple(parsed.tags),
                confidence=parsed.confidence,
                source=parsed.source,
                source_reference=parsed.source_reference,
                created_at=created,
                updated_at=_utc(parsed.updated_at) if parsed.updated_at else created,
                occurrences=parsed.occurrences,
                hidden=parsed.hidden_from_coach,
            )
        )
    for index, entry in enumerate(archived):
        where = f"archived {_label(index, entry).lower()}"
        try:
            _Archived.model_validate(entry)
        except ValidationError as exc:
            raise _entry_error(exc, where) from None
    return ParsedFile("m13", items, history=len(archived))


class _PamOwn(BaseModel):
    """Our own fields in a PAM memory's metadata (present in files this app exported)."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    type: MemoryType | None = None
    tags: Tags | None = None
    confidence: MemoryConfidence | None = None
    occurrences: int = Field(default=1, ge=1, le=1_000_000)
    source: MemorySource | None = None
    source_reference: str | None = Field(default=None, max_length=MAX_REFERENCE)
    hidden_from_coach: bool = False

    _printable = field_validator("source_reference")(_one_line)


class _PamTemporal(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)

    created_at: datetime
    updated_at: datetime | None = None


class _PamMemory(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)

    id: str = Field(min_length=1)
    type: str = Field(min_length=1)
    custom_type: str | None = None
    status: Literal["active", "superseded", "deprecated", "retracted", "archived"] = "active"
    content: Content
    content_hash: str = Field(pattern=r"^sha256:[a-f0-9]{64}$")
    tags: list[str] = []
    confidence: dict[str, Any] | None = None
    temporal: _PamTemporal
    provenance: dict[str, Any]
    metadata: dict[str, Any] | None = None


def _pam_confidence(block: dict[str, Any] | None) -> MemoryConfidence:
    score = (block or {}).get("current", (block or {}).get("initial"))
    if not isinstance(score, int | float):
        return MemoryConfidence.MEDIUM
    return MemoryConfidence.HIGH if score >= 0.8 else MemoryConfidence.MEDIUM if score >= 0.5 else MemoryConfidence.LOW


def _pam_type(memory: _PamMemory) -> MemoryType:
    if memory.type == "custom" and memory.custom_type in {t.value for t in MemoryType}:
        return MemoryType(str(memory.custom_type))
    return PAM_TYPES.get(memory.type, MemoryType.CONTEXT)


def _our_tags(pam_tags: list[str]) -> list[str]:
    """PAM's `body-knee` read as our `body:knee`; tags that are not kind-value pairs are left out."""
    candidates = [t.replace("-", ":", 1) for t in pam_tags if isinstance(t, str)]
    return clean_tags([t for t in candidates if TAG_PATTERN.match(t)][:MAX_TAGS])


def _pam_item(index: int, memory: _PamMemory, own: _PamOwn) -> ImportItem:
    created = _utc(memory.temporal.created_at)
    message_ref = memory.provenance.get("message_ref")
    if isinstance(message_ref, str) and text_problem(message_ref) is not None:
        message_ref = None  # another system's reference that breaks our text rule is left out
    reference = own.source_reference or message_ref
    tags = own.tags if own.tags is not None else _our_tags(memory.tags)
    return ImportItem(
        label=f"entry {index + 1} ({memory.id[:40]})",
        content=memory.content,
        type=own.type or _pam_type(memory),
        tags=tuple(tags),
        confidence=own.confidence or _pam_confidence(memory.confidence),
        source=own.source or MemorySource.MANUAL,
        source_reference=str(reference)[:MAX_REFERENCE] if reference else None,
        created_at=created,
        updated_at=_utc(memory.temporal.updated_at) if memory.temporal.updated_at else created,
        occurrences=own.occurrences,
        hidden=own.hidden_from_coach,
    )


def _checksum(memories: list[Any]) -> str:
    try:
        return integrity_checksum(memories)
    except (rfc8785.CanonicalizationError, TypeError, ValueError):
        raise InvalidInput(
            "integrity.checksum cannot be checked: the memories hold a number outside JSON's safe range.",
            field="integrity",
        ) from None


def _no_constant(name: str) -> None:
    raise InvalidInput(f"The file is not valid JSON: {name} is not a number JSON allows.")


def parse_pam(text: str) -> ParsedFile:
    try:
        document = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise InvalidInput(f"The file is not valid JSON (line {exc.lineno}, column {exc.colno}): {exc.msg}.") from None
    if not isinstance(document, dict) or document.get("schema") != PAM_SCHEMA:
        raise InvalidInput(
            "The file is not a Portable AI Memory file: 'schema' must be 'portable-ai-memory'.", field="schema"
        )
    version = str(document.get("schema_version", ""))
    if version.split(".", 1)[0] != "1":
        raise InvalidInput(
            f"schema_version {version[:20]!r} is not supported; this app reads Portable AI Memory 1.x.",
            field="schema_version",
        )
    raw = _list_of(document, "memories", required=True)
    _unique_ids(enumerate(raw), "memories")
    integrity = document.get("integrity")
    if isinstance(integrity, dict):
        if integrity.get("total_memories") != len(raw):
            raise InvalidInput("integrity.total_memories does not match the memories in the file.", field="integrity")
        if all(isinstance(m, dict) and "id" in m for m in raw) and integrity.get("checksum") != _checksum(raw):
            raise InvalidInput(
                "integrity.checksum does not match the memories: the file was changed or damaged.", field="integrity"
            )
    items, history = [], 0
    for index, entry in enumerate(raw):
        where = f"memories {_label(index, entry).lower()}"
        if not isinstance(entry, dict):
            raise InvalidInput(f"{where}: each memory must be an object.", field=f"memories[{index}]")
        try:
            memory = _PamMemory.model_validate(entry)
            own_raw = (memory.metadata or {}).get("memory_review") or {}
            own = _PamOwn.model_validate(own_raw if isinstance(own_raw, dict) else {})
        except ValidationError as exc:
            raise _entry_error(exc, where) from None
        if memory.type == "custom" and not memory.custom_type:
            raise InvalidInput(f"{where}: custom_type is required when type is 'custom'.", field=f"{where}.custom_type")
        if memory.content_hash != content_hash(memory.content):
            raise InvalidInput(f"{where}: content_hash does not match the content.", field=f"{where}.content_hash")
        if memory.status != "active":
            history += 1
            continue
        items.append(_pam_item(index, memory, own))
    return ParsedFile("pam", items, history=history)


def _line_date(value: str, number: int) -> datetime:
    try:
        day = date.fromisoformat(value.strip())
    except ValueError:
        raise InvalidInput(
            f"Line {number}: date {value.strip()[:20]!r} is not a date; write [YYYY-MM-DD].",
            field=f"line {number}.date",
        ) from None
    return datetime.combine(day, time(), tzinfo=UTC)


def parse_text(text: str) -> ParsedFile:
    items = []
    lines = text.splitlines()
    if len(lines) > MAX_IMPORT_ENTRIES * 2:
        raise InvalidInput(
            f"The file has {len(lines):,} lines; an import takes at most {MAX_IMPORT_ENTRIES:,} memories."
        )
    now = utcnow()
    for number, line in enumerate(lines, start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        match = _TEXT_LINE.fullmatch(line.strip())
        assert match is not None  # the pattern matches any line
        when = _line_date(match["date"], number) if match["date"] is not None else now
        try:
            content = _clean_line_content(match["content"])
        except ValueError as exc:
            raise InvalidInput(f"Line {number}: content {exc}.", field=f"line {number}.content") from None
        first = _guess(content)
        items.append(
            ImportItem(
                label=f"line {number}",
                content=content,
                type=first.type if first else MemoryType.CONTEXT,
                tags=first.tags if first else (),
                confidence=MemoryConfidence.MEDIUM,
                source=MemorySource.USER_MESSAGE,
                source_reference=None,
                created_at=when,
                updated_at=when,
            )
        )
    if len(items) > MAX_IMPORT_ENTRIES:
        raise InvalidInput(f"The file holds {len(items):,} memories; an import takes at most {MAX_IMPORT_ENTRIES:,}.")
    return ParsedFile("text", items)


def _first_person(content: str) -> str:
    """'Prefers morning runs' as the athlete would say it: 'I prefer morning runs'."""
    verb, _, rest = content.partition(" ")
    lower = verb.lower()
    spoken = "have" if lower == "has" else lower[:-1] if lower.endswith("s") and not lower.endswith("ss") else lower
    return f"I {spoken} {rest}".strip()


def _guess(content: str) -> Candidate | None:
    """The extraction rules guess a line's type and tags (as said, or as the athlete would say it)."""
    for text in (content, _first_person(content)):
        found = extract_memories(text, MemorySource.USER_MESSAGE)
        if found:
            return found[0]
    return None


def _clean_line_content(value: str) -> str:
    return clean_content(value)


def detect_format(file_name: str, text: str) -> Format:
    name = file_name.lower()
    if name.endswith(".json"):
        return "pam"
    if name.endswith((".yaml", ".yml")):
        return "m13"
    if name.endswith((".txt", ".md", ".text")):
        return "text"
    start = text.lstrip()[:200]
    if start.startswith("{"):
        return "pam"
    if start.startswith(("_schema:", "memories:", "---")):
        return "m13"
    return "text"


def parse_file(file_name: str, data: bytes) -> ParsedFile:
    """Check the whole file; InvalidInput names the first problem (entry and field)."""
    if len(data) > MAX_IMPORT_BYTES:
        raise InvalidInput(
            f"The file is {len(data) / 1024 / 1024:.1f} MB; "
            f"an import takes at most {MAX_IMPORT_BYTES // 1024 // 1024} MB.",
            field="file",
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InvalidInput("The file is not UTF-8 text.", field="file") from None
    if not text.strip():
        raise InvalidInput("The file is empty.", field="file")
    kind = detect_format(file_name, text)
    try:
        parsed = {"m13": parse_m13, "pam": parse_pam, "text": parse_text}[kind](text)
    except RecursionError:
        raise InvalidInput("The file nests too deeply to be a memory file.", field="file") from None
    if not parsed.items:
        raise InvalidInput(f"The file ({FORMAT_LABELS[kind]}) holds no memory to import.", field="file")
    return parsed
