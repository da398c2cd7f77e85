"""The audit chain's pure part over in-memory events: payload digests, event hashes, and the check that
finds the first bad event. (`verify_chain` itself reads the events and the head through a Session; its
database-level cases are in tests/integration/test_audit_chain.py.)"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from domain.audit import _check, canonical_json, digest, event_hash
from domain.models import GENESIS_HASH, AuditEvent

START = datetime(2026, 11, 22, 8, 0, tzinfo=UTC)
Removed = set[tuple[str, int | None]]


def chain(*payloads: tuple[str, dict[str, Any] | None, dict[str, Any] | None]) -> list[AuditEvent]:
    """Transient events (never in a session) chained the way `audit.record` chains them."""
    events: list[AuditEvent] = []
    prev_hash = GENESIS_HASH
    for seq, (action, before, after) in enumerate(payloads, start=1):
        event = AuditEvent(
            seq=seq,
            at=START + timedelta(minutes=seq),
            actor_id=7,
            actor_label="alex",
            action=action,
            athlete_id=7,
            target_type="memory",
            target_id=1,
            before=before,
            after=after,
            before_digest=digest(before),
            after_digest=digest(after),
            redacted=False,
            reason=None,
            prev_hash=prev_hash,
        )
        event.hash = event_hash(event, prev_hash)
        prev_hash = event.hash
        events.append(event)
    return events


@dataclass(frozen=True)
class Finding:
    first_bad_seq: int | None
    problem: str | None = None


def first_bad(events: list[AuditEvent], removed: Removed | None = None) -> Finding:
    """The fold `verify_chain` runs over the events it reads, without the session (and without its final
    comparison with the stored head, which needs the database)."""
    prev_hash, expected_seq = GENESIS_HASH, 1
    for event in events:
        problem = _check(event, expected_seq, prev_hash, removed or set())
        if problem:
            return Finding(event.seq, problem)
        prev_hash, expected_seq = event.hash, expected_seq + 1
    return Finding(None)


def history() -> list[AuditEvent]:
    return chain(
        ("create", None, {"content": "Prefers morning runs", "tags": ["time:morning"], "version": 1}),
        ("edit", {"content": "Prefers morning runs", "version": 1}, {"content": "Prefers early runs", "version": 2}),
        ("delete", {"status": "active"}, {"status": "deleted"}),
        ("restore", {"status": "deleted"}, {"status": "active"}),
    )


def test_canonical_json_does_not_depend_on_key_order_or_spacing() -> None:
    assert canonical_json({"b": 1, "a": [1, "é"]}) == '{"a":[1,"é"],"b":1}'
    assert digest({"a": 1, "b": 2}) == digest({"b": 2, "a": 1})
    assert digest({"a": 1}) != digest({"a": 2})
    assert digest(None) is None
    assert len(digest({}) or "") == 64


def test_the_hash_covers_each_recorded_field_and_the_previous_hash() -> None:
    event = history()[1]
    original = event_hash(event, event.prev_hash)
    assert original == event.hash
    assert event_hash(event, GENESIS_HASH) != original
    for field, value in [
        ("seq", 9),
        ("at", START),
        ("actor_id", 8),
        ("actor_label", "admin"),
        ("action", "revert"),
        ("athlete_id", 8),
        ("target_type", "proposal"),
        ("target_id", 2),
        ("before_digest", digest({})),
        ("after_digest", None),
        ("reason", "because"),
    ]:
        kept = getattr(event, field)
        setattr(event, field, value)
        assert event_hash(event, event.prev_hash) != original, field
        setattr(event, field, kept)
    assert event_hash(event, event.prev_hash) == original


def test_the_hash_covers_digests_not_payloads() -> None:
    """So a hard delete can redact a payload and the chain still verifies."""
    event = history()[0]
    event.after = {"redacted": True, "content": None, "tags": None}
    assert event_hash(event, event.prev_hash) == event.hash


def test_an_untouched_chain_has_no_bad_event() -> None:
    events = history()
    assert [e.prev_hash for e in events[1:]] == [e.hash for e in events[:-1]]
    assert events[0].prev_hash == GENESIS_HASH
    assert first_bad(events) == Finding(None)


def test_a_changed_payload_is_found_at_its_event() -> None:
    events = history()
    events[1].after = {"content": "Something the athlete never said", "version": 2}
    assert first_bad(events) == Finding(2, "its before/after payload was changed")


def test_a_changed_field_is_found_at_its_event() -> None:
    events = history()
    events[2].actor_label = "admin"
    assert first_bad(events) == Finding(3, "its recorded fields were changed")


def test_a_recomputed_hash_breaks_the_link_to_the_next_event() -> None:
    events = history()
    events[1].actor_label = "admin"
    events[1].hash = event_hash(events[1], events[1].prev_hash)
    assert first_bad(events) == Finding(3, "it does not follow the event before it")


def test_a_missing_event_is_found_where_it_was() -> None:
    events = history()
    del events[1]
    assert first_bad(events) == Finding(3, "expected event 2 here; an event is missing or out of order")


def test_reordered_events_are_found_at_the_first_moved_one() -> None:
    events = history()
    events[1], events[2] = events[2], events[1]
    assert first_bad(events).first_bad_seq == 3


@pytest.mark.parametrize(
    ("removed", "payload", "expected"),
    [
        ({("memory", 1)}, {"redacted": True, "content": None, "tags": None}, Finding(None)),
        # redacted, but no removal event names the memory
        (set(), {"redacted": True, "content": None, "tags": None}, Finding(1, "its before/after payload was changed")),
        # named by a removal, but content left in
        (
            {("memory", 1)},
            {"redacted": True, "content": "x", "tags": None},
            Finding(1, "its before/after payload was changed"),
        ),
        # named by a removal of another memory
        (
            {("memory", 2)},
            {"redacted": True, "content": None, "tags": None},
            Finding(1, "its before/after payload was changed"),
        ),
    ],
)
def test_redaction_is_accepted_only_when_a_removal_names_the_target(
    removed: Removed, payload: dict[str, Any], expected: Finding
) -> None:
    events = history()
    events[0].after = payload
    events[0].redacted = True
    assert first_bad(events, removed) == expected


def test_a_redacted_flag_alone_does_not_excuse_a_changed_field() -> None:
    events = history()
    events[0].after = {"redacted": True, "content": None, "tags": None}
    events[0].redacted = True
    events[0].reason = "tampered"
    assert first_bad(events, {("memory", 1)}) == Finding(1, "its recorded fields were changed")


def test_hashes_written_before_stay_the_same_hashes() -> None:
    """The chain's hash as the first keyed version wrote it (json.dumps, hmac.new), recomputed
    independently here: an event written then verifies now, keyed or plain, and one chained from
    audit_pending covers its waiting id as well."""
    key = b"a key kept outside the database"
    payload = {"content": "Läuft früh · <b>", "tags": ["time:morning"], "at": datetime(2026, 1, 2, tzinfo=UTC)}
    assert canonical_json(payload) == json.dumps(
        payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str
    )
    for event in history():
        body = {
            name: getattr(event, name)
            for name in (
                "seq", "actor_id", "actor_label", "action", "athlete_id", "target_type", "target_id",
                "before_digest", "after_digest", "reason",
            )
        }  # fmt: skip
        body["at"] = event.at.isoformat(timespec="microseconds")
        message = event.prev_hash + json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        assert event_hash(event, event.prev_hash) == hashlib.sha256(message.encode()).hexdigest()
        assert event_hash(event, event.prev_hash, key) == hmac.new(key, message.encode(), hashlib.sha256).hexdigest()
        event.pending_id = 7 << 40
        assert event_hash(event, event.prev_hash, key) != hmac.new(key, message.encode(), hashlib.sha256).hexdigest()
