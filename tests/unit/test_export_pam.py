"""The PAM export against the published JSON Schema (tests/pam_schema.py), and the spec's hashes."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import rfc8785

from domain.enums import MemoryConfidence, MemorySource, MemoryStatus, MemoryType, Role
from domain.export_data import ExportData
from domain.export_pam import content_hash, integrity_checksum, pam_document
from domain.import_parse import parse_file
from domain.models import Memory, User
from tests.pam_schema import assert_valid_pam_if_schema as assert_valid_pam
from tests.pam_schema import schema_problems


def _memory(memory_id: int, memory_type: MemoryType, **fields: Any) -> Memory:
    when = datetime(2025, 2, 15, 10, 30, tzinfo=UTC)
    values: dict[str, Any] = {
        "id": memory_id,
        "athlete_id": 1,
        "type": memory_type,
        "content": f"Memory {memory_id}",
        "source": MemorySource.USER_MESSAGE,
        "source_reference": "msg_1",
        "confidence": MemoryConfidence.MEDIUM,
        "occurrences": 1,
        "tags": ["body:knee", "time:early morning"],
        "status": MemoryStatus.ACTIVE,
        "created_at": when,
        "updated_at": when,
        "hidden_from_coach": False,
    }
    values.update(fields)
    return Memory(**values)


def test_every_type_validates_against_the_schema() -> None:
    athlete = User(id=1, username="alex", role=Role.ATHLETE, created_at=datetime(2025, 1, 1, tzinfo=UTC))
    memories = [_memory(i + 1, t) for i, t in enumerate(MemoryType)]
    archived = [
        _memory(
            9,
            MemoryType.INSIGHT,
            status=MemoryStatus.ARCHIVED,
            superseded_by_id=4,
            archived_at=datetime(2025, 3, 1, tzinfo=UTC),
        )
    ]
    document = pam_document(ExportData(athlete, memories, archived))
    assert_valid_pam(document)
    by_id = {m["id"]: m for m in document["memories"]}
    assert (by_id["mem_2"]["type"], by_id["mem_2"]["custom_type"]) == ("preference", None)
    assert (by_id["mem_1"]["type"], by_id["mem_1"]["custom_type"]) == ("custom", "injury_history")
    assert by_id["mem_1"]["tags"] == ["body-knee", "time-early-morning"]
    assert by_id["mem_9"]["status"] == "superseded" and by_id["mem_9"]["temporal"]["superseded_by"] == "mem_4"
    assert by_id["mem_1"]["provenance"]["extraction_method"] == "explicit_user_input"
    canonical = rfc8785.dumps(sorted(document["memories"], key=lambda m: m["id"]))
    assert document["integrity"]["checksum"].startswith("sha256:") and canonical
    assert document["integrity"]["total_memories"] == 6
    # the file reads back: active ones are proposed, the superseded one is history
    parsed = parse_file("alex.json", json.dumps(document).encode())
    assert (len(parsed.items), parsed.history) == (5, 1)
    assert parsed.items[0].tags == ("body:knee", "time:early morning")


def test_content_hash_follows_the_spec_normalisation() -> None:
    assert content_hash("  Prefers   MORNING runs ") == content_hash("prefers morning runs")
    assert content_hash("Cafe\u0301") == content_hash("café")
    assert content_hash("x") == "sha256:2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881"


def test_integrity_checksum_is_over_sorted_canonical_json() -> None:
    a = {"id": "b", "n": 1.0}
    b = {"id": "a", "n": 0.5}
    assert integrity_checksum([a, b]) == integrity_checksum([b, a])
    assert rfc8785.dumps([b, a]) == b'[{"id":"a","n":0.5},{"id":"b","n":1}]'


def test_the_export_validates_against_the_published_schema() -> None:
    athlete = User(id=1, username="alex", role=Role.ATHLETE, created_at=datetime(2025, 1, 1, tzinfo=UTC))
    document = pam_document(ExportData(athlete, [_memory(i + 1, t) for i, t in enumerate(MemoryType)], []))
    assert schema_problems(document) == []  # skips, saying why, where the schema is not on the machine
