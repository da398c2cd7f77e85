"""The audit log's one-line summaries and field diffs, from payloads alone (no database)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from domain.audit import ChainReport
from domain.audit_log import diff, summarize, to_row
from domain.enums import AuditAction
from domain.models import AuditEvent
from ui.components.labels import summary_text, value_text

MEMORY = {
    "content": "Prefers morning runs",
    "type": "preference",
    "tags": ["time:morning"],
    "confidence": "medium",
    "occurrences": 1,
    "status": "active",
    "version": 1,
}


def worded(action: str, before: dict[str, object] | None, after: dict[str, object] | None, *, redacted: bool) -> str:
    """The summary as the admin reads it: the domain's data, worded by the UI."""
    return summary_text(summarize(AuditAction(action), before, after, redacted=redacted))


@pytest.mark.parametrize(
    ("action", "before", "after", "expected"),
    [
        ("create", None, MEMORY, "Created: Prefers morning runs"),
        ("import", None, MEMORY, "Imported: Prefers morning runs"),
        ("user_create", None, {"username": "sam"}, "Created user: sam"),
        ("ingest", None, {"reference": "strava-123"}, "Received text: strava-123"),
        ("retention_run", None, {"archived_memories": 2}, "Clean-up"),
    ],
)
def test_the_summary_names_the_action_and_its_subject(
    action: str, before: dict[str, object] | None, after: dict[str, object] | None, expected: str
) -> None:
    assert worded(action, before, after, redacted=False) == expected


def test_a_change_lists_the_changed_fields_in_reading_order_but_not_the_version() -> None:
    after = {**MEMORY, "content": "Prefers early runs", "tags": ["time:early"], "version": 2}
    assert worded("edit", MEMORY, after, redacted=False) == "Edited: Prefers early runs (content, tags changed)"
    assert worded("edit", MEMORY, {**MEMORY, "version": 2}, redacted=False) == "Edited: Prefers morning runs"


def test_status_changes_and_removals_do_not_list_fields() -> None:
    deleted = {**MEMORY, "status": "deleted", "version": 2}
    assert worded("delete", MEMORY, deleted, redacted=False) == "Deleted: Prefers morning runs"
    assert worded("restore", deleted, MEMORY, redacted=False) == "Restored: Prefers morning runs"


def test_a_removal_is_summarised_by_what_it_removed() -> None:
    """A removal's `after` lists only the proposals it redacted; the record it removed is in `before`."""
    after = {"redacted_proposals": [4, 5]}
    assert worded("hard_delete", MEMORY, after, redacted=False) == "Deleted permanently: Prefers morning runs"
    assert worded("purge", MEMORY, after, redacted=False) == "Removed by clean-up: Prefers morning runs"


def test_redacted_content_is_never_shown() -> None:
    redacted = {"redacted": True, "content": None, "tags": None}
    assert worded("hard_delete", redacted, None, redacted=True) == "Deleted permanently: (content redacted)"
    assert worded("create", None, MEMORY, redacted=True) == "Created: (content redacted)"
    assert worded("edit", None, redacted, redacted=False) == "Edited: (content redacted)"


def test_long_or_multiline_subjects_are_clipped_to_one_line() -> None:
    line = worded("create", None, {"content": "Knee\n\npain  " + "x" * 200}, redacted=False)
    assert line.startswith("Created: Knee pain xxx")
    assert line.endswith("…") and "\n" not in line
    assert len(line) == len("Created: ") + 90


def test_diff_of_a_created_record_shows_every_field_known_fields_first() -> None:
    changes = diff(None, {"zeta": 1, "content": "Likes hills", "alpha": True, "tags": [], "redacted": False})
    assert [(c.field, value_text(c.before), value_text(c.after)) for c in changes] == [
        ("content", "—", "Likes hills"),
        ("tags", "—", "(none)"),
        ("alpha", "—", "yes"),
        ("zeta", "—", "1"),
    ]


def test_diff_of_a_change_shows_only_what_changed() -> None:
    after = {**MEMORY, "confidence": "high", "occurrences": 3, "version": 2}
    changes = diff(MEMORY, after)
    assert [(c.field, value_text(c.before), value_text(c.after)) for c in changes] == [
        ("confidence", "medium", "high"),
        ("occurrences", "1", "3"),
        ("version", "1", "2"),
    ]
    assert diff(MEMORY, MEMORY) == []


@pytest.mark.parametrize(
    ("value", "shown"),
    [(None, "—"), (True, "yes"), (False, "no"), ([], "(none)"), (["a", "b"], "a, b"), (3, "3"), ("text", "text")],
)
def test_values_render_as_words(value: object, shown: str) -> None:
    assert value_text(value) == shown


def test_a_row_is_built_from_an_event_without_a_session() -> None:
    event = AuditEvent(
        seq=12,
        at=datetime(2026, 11, 22, 8, 0, tzinfo=UTC),
        actor_label="alex",
        action="create",
        athlete_id=7,
        target_type="memory",
        target_id=3,
        before=None,
        after=MEMORY,
        redacted=False,
        reason=None,
    )
    row = to_row(event, "alex")
    assert (row.seq, row.actor, row.athlete, row.target) == (12, "alex", "alex", "memory #3")
    assert summary_text(row.summary) == "Created: Prefers morning runs"
    event.target_id = None
    assert to_row(event, None).target == "memory"


def test_the_chain_report_reads_as_one_sentence() -> None:
    assert ChainReport(True, 12_345).summary() == "Audit chain verified: 12,345 events"
    broken = ChainReport(False, 4, 5, "its recorded fields were changed")
    assert broken.summary() == "Audit chain broken at event 5: its recorded fields were changed"
