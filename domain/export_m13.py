"""Export as the M13 seed's `memories.yaml`: `_schema`, `memories`, `archived`.

Fields beyond the seed's (kept so nothing is lost on the way back in): `hidden_from_coach` on a
memory, and `type`, `tags`, `confidence`, `created_at` on an archived entry.
"""

from __future__ import annotations

from typing import Any

import yaml

from domain.export_data import APP_NAME, APP_VERSION, ExportData, iso, memory_ref
from domain.models import Memory

M13_FORMAT_VERSION = "1.0.0"
DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)  # libyaml's when PyYAML has it: several times faster


def memory_entry(memory: Memory) -> dict[str, Any]:
    return {
        "id": memory_ref(memory.id),
        "type": memory.type.value,
        "content": memory.content,
        "source": memory.source.value,
        "source_reference": memory.source_reference,
        "created_at": iso(memory.created_at),
        "updated_at": iso(memory.updated_at),
        "confidence": memory.confidence.value,
        "occurrences": memory.occurrences,
        "tags": list(memory.tags),
        "hidden_from_coach": bool(memory.hidden_from_coach),
    }


def archived_entry(memory: Memory) -> dict[str, Any]:
    return {
        "id": memory_ref(memory.id),
        "original_content": memory.content,
        "superseded_by": memory_ref(memory.superseded_by_id),
        "archived_at": iso(memory.archived_at or memory.updated_at),
        "reason": "Replaced by a newer memory" if memory.superseded_by_id else "Archived",
        "type": memory.type.value,
        "tags": list(memory.tags),
        "confidence": memory.confidence.value,
        "created_at": iso(memory.created_at),
    }


def m13_document(data: ExportData) -> dict[str, Any]:
    return {
        "_schema": {
            "format_version": M13_FORMAT_VERSION,
            "schema_type": "memories",
            "exported_by": f"{APP_NAME}/{APP_VERSION}",
            "exported_at": iso(data.exported_at),
            "athlete": data.athlete.username,
        },
        "memories": [memory_entry(m) for m in data.memories],
        "archived": [archived_entry(m) for m in data.archived],
    }


def to_m13_yaml(data: ExportData) -> str:
    return yaml.dump(m13_document(data), Dumper=DUMPER, sort_keys=False, allow_unicode=True, width=1000)
