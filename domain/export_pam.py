"""Export as Portable AI Memory (PAM) v1.0 JSON (spec and JSON Schema: github.com/portable-ai-memory).

Mapping (documented in the README):
- type: preference and context map to themselves; injury_history, insight and training_response have
  no PAM counterpart and become `custom` with `custom_type` naming ours.
- confidence high / medium / low → 0.9 / 0.6 / 0.3 (no decay model: "none").
- an archived memory is `superseded`, with `temporal.superseded_by` and a `supersedes` relation.
- provenance: platform `memory-review`, `message_ref` = our source reference, `extraction_method`
  from our source (manual → manual, a note or message the athlete confirmed → explicit_user_input,
  pattern analysis → null), `extractor` = this app; our exact source and extractor in metadata.
- access: a memory the coach may read is `shared` with `coaching-system` (read); one hidden from the
  coach is `private` and marked `hidden_from_coach` in metadata.
- PAM tags allow only [a-z0-9_-]: `body:knee` becomes `body-knee`; our exact tags are in
  `metadata.memory_review.tags`, which an import reads first.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
import uuid
from typing import Any

import rfc8785

from domain.enums import MemoryConfidence, MemorySource, MemoryType
from domain.export_data import APP_NAME, APP_VERSION, ExportData, iso, memory_ref
from domain.models import Memory

PAM_SCHEMA = "portable-ai-memory"
PAM_VERSION = "1.0"
PLATFORM = APP_NAME
COACH_ENTITY = "coaching-system"
EXTRACTOR = f"{APP_NAME}/{APP_VERSION}"
OWN_TYPES = {MemoryType.PREFERENCE: "preference", MemoryType.CONTEXT: "context"}
CONFIDENCE_SCORE = {MemoryConfidence.HIGH: 0.9, MemoryConfidence.MEDIUM: 0.6, MemoryConfidence.LOW: 0.3}
EXTRACTION_METHOD = {
    MemorySource.MANUAL: "manual",
    MemorySource.USER_MESSAGE: "explicit_user_input",
    MemorySource.ACTIVITY_NOTE: "explicit_user_input",
    MemorySource.PATTERN_ANALYSIS: None,
}
DOMAIN = {MemoryType.INJURY_HISTORY: "health"}
_NOT_TAG = re.compile(r"[^a-z0-9_-]+")


def normalize_content(content: str) -> str:
    """The spec's §6.1: trim, lower case, NFC, single spaces."""
    return " ".join(unicodedata.normalize("NFC", content.strip().lower()).split())


def content_hash(content: str) -> str:
    return "sha256:" + hashlib.sha256(normalize_content(content).encode("utf-8")).hexdigest()


def integrity_checksum(memories: list[dict[str, Any]]) -> str:
    """The spec's §15.2: memories sorted by id, RFC 8785 canonical JSON, SHA-256."""
    ordered: list[Any] = sorted(memories, key=lambda m: str(m["id"]))
    canonical = rfc8785.dumps(ordered)
    return "sha256:" + hashlib.sha256(canonical).hexdigest()


def pam_tag(tag: str) -> str:
    return _NOT_TAG.sub("-", tag.lower()).strip("-_") or "tag"


def _pam_tags(tags: list[str]) -> list[str]:
    return list(dict.fromkeys(pam_tag(t) for t in tags))


def memory_object(memory: Memory, extractor: str | None) -> dict[str, Any]:
    own_type = OWN_TYPES.get(memory.type)
    score = CONFIDENCE_SCORE[memory.confidence]
    hidden = bool(memory.hidden_from_coach)
    superseded = memory.superseded_by_id is not None or memory.archived_at is not None
    return {
        "id": memory_ref(memory.id),
        "type": own_type or "custom",
        "custom_type": None if own_type else memory.type.value,
        "status": "superseded" if superseded else "active",
        "content": memory.content,
        "content_hash": content_hash(memory.content),
        "summary": None,
        "tags": _pam_tags(memory.tags),
        "confidence": {
            "initial": score,
            "current": score,
            "decay_model": "none",
            "last_reinforced": iso(memory.updated_at),
        },
        "temporal": {
            "created_at": iso(memory.created_at),
            "updated_at": iso(memory.updated_at),
            "valid_from": None,
            "valid_until": iso(memory.archived_at) if memory.archived_at else None,
            "superseded_by": memory_ref(memory.superseded_by_id),
        },
        "provenance": {
            "platform": PLATFORM,
            "platform_user_id": None,
            "conversation_ref": None,
            "message_ref": memory.source_reference,
            "extraction_method": EXTRACTION_METHOD[memory.source],
            "extracted_at": iso(memory.created_at),
            "extractor": EXTRACTOR,
        },
        "access": {
            "visibility": "private" if hidden else "shared",
            "exportable": True,
            "shared_with": [] if hidden else [{"entity": COACH_ENTITY, "permissions": ["read"]}],
        },
        "embedding_ref": None,
        "metadata": {
            "language": None,
            "domain": DOMAIN.get(memory.type, "training"),
            "memory_review": {
                "type": memory.type.value,
                "tags": list(memory.tags),
                "confidence": memory.confidence.value,
                "occurrences": memory.occurrences,
                "source": memory.source.value,
                "source_reference": memory.source_reference,
                "extractor": extractor,
                "hidden_from_coach": hidden,
            },
        },
    }


def pam_document(data: ExportData) -> dict[str, Any]:
    memories = [memory_object(m, data.extractors.get(m.id)) for m in [*data.memories, *data.archived]]
    relations = [
        {
            "id": f"rel_{m.superseded_by_id}_supersedes_{m.id}",
            "from": memory_ref(m.superseded_by_id),
            "to": memory_ref(m.id),
            "type": "supersedes",
            "confidence": None,
            "created_at": iso(m.archived_at or m.updated_at),
        }
        for m in data.archived
        if m.superseded_by_id is not None
    ]
    return {
        "schema": PAM_SCHEMA,
        "schema_version": PAM_VERSION,
        "spec_uri": "https://portable-ai-memory.org/spec/v1.0",
        "export_id": str(uuid.uuid4()),
        "exported_by": EXTRACTOR,
        "export_date": iso(data.exported_at),
        "owner": {"id": f"{APP_NAME}:{data.athlete.username}", "created_at": iso(data.athlete.created_at)},
        "memories": memories,
        "relations": relations,
        "conversations_index": [],
        "integrity": {
            "canonicalization": "RFC8785",
            "checksum": integrity_checksum(memories),
            "total_memories": len(memories),
        },
        "export_type": "full",
    }


def to_pam_json(data: ExportData) -> str:
    return json.dumps(pam_document(data), ensure_ascii=False, indent=2)
