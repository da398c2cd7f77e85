"""The UI's words for the domain's vocabularies: every value has one, and there is one of each."""

from __future__ import annotations

import pytest

from domain.audit_log import Summary
from domain.enums import AuditAction
from ui.components import labels
from ui.components.labels import ACTION_LABELS, ATHLETE_ACTION_LABELS, athlete_action_label, summary_text
from ui.components.text import clip


@pytest.mark.parametrize("action", list(AuditAction))
def test_every_audit_action_has_a_label_for_admins_and_for_athletes(action: AuditAction) -> None:
    assert ACTION_LABELS[action].strip()
    assert athlete_action_label(action).strip()


def test_athlete_wording_only_rewords_actions_that_exist() -> None:
    assert set(ATHLETE_ACTION_LABELS) <= set(AuditAction)
    assert athlete_action_label(AuditAction.UNDO_DELETE) == "Brought back"
    assert athlete_action_label(AuditAction.USER_CREATE) == ACTION_LABELS[AuditAction.USER_CREATE]


def test_labels_is_the_only_home_of_action_labels() -> None:
    from domain import audit_log
    from ui.components import history_dialog

    assert not hasattr(audit_log, "ACTION_LABELS")
    assert not hasattr(history_dialog, "ACTION_LABELS")
    assert labels.ACTION_LABELS is ACTION_LABELS


def test_a_summary_line_is_worded_from_data() -> None:
    assert summary_text(Summary(AuditAction.RETENTION_RUN)) == "Clean-up"
    assert summary_text(Summary(AuditAction.USER_CREATE, "sam")) == "Created user: sam"
    hidden = Summary(AuditAction.HARD_DELETE, None, hidden=True)
    assert summary_text(hidden) == "Deleted permanently: (content redacted)"
    edited = Summary(AuditAction.EDIT, "Prefers hills", changed=("content", "tags"))
    assert summary_text(edited) == "Edited: Prefers hills (content, tags changed)"


@pytest.mark.parametrize(
    ("text", "limit", "clipped"),
    [
        ("Prefers morning runs", 60, "Prefers morning runs"),
        ("  Knee\n\npain   after runs ", 60, "Knee pain after runs"),
        ("abcdefghij", 10, "abcdefghij"),
        ("abcdefghijk", 10, "abcdefghi…"),
        ("abcd efghijk", 6, "abcd…"),  # no space left before the ellipsis
    ],
)
def test_clip_makes_one_line_of_at_most_the_limit(text: str, limit: int, clipped: str) -> None:
    assert clip(text, limit) == clipped
    assert len(clip(text, limit)) <= limit
