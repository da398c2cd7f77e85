"""Words and icons for the domain's vocabularies, as people read them; the audit log's lines."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from domain.audit_log import Summary
from domain.enums import AuditAction, MemoryConfidence, MemorySource, MemoryType
from ui.components.text import clip
from ui.components.timeago import time_ago

TYPE_LABELS: dict[MemoryType, str] = {
    MemoryType.INJURY_HISTORY: "Injury history",
    MemoryType.PREFERENCE: "Preferences",
    MemoryType.CONTEXT: "Context",
    MemoryType.TRAINING_RESPONSE: "Training responses",
    MemoryType.INSIGHT: "Insights",
}
TYPE_SINGULAR: dict[MemoryType, str] = {
    MemoryType.INJURY_HISTORY: "Injury history",
    MemoryType.PREFERENCE: "Preference",
    MemoryType.CONTEXT: "Context",
    MemoryType.TRAINING_RESPONSE: "Training response",
    MemoryType.INSIGHT: "Insight",
}
TYPE_ICONS: dict[MemoryType, str] = {
    MemoryType.INJURY_HISTORY: "healing",
    MemoryType.PREFERENCE: "favorite",
    MemoryType.CONTEXT: "home",
    MemoryType.TRAINING_RESPONSE: "trending_up",
    MemoryType.INSIGHT: "lightbulb",
}
SOURCE_LABELS: dict[MemorySource, str] = {
    MemorySource.ACTIVITY_NOTE: "Activity note",
    MemorySource.USER_MESSAGE: "Your message",
    MemorySource.PATTERN_ANALYSIS: "Pattern analysis",
    MemorySource.MANUAL: "Added by you",
}
SOURCE_ICONS: dict[MemorySource, str] = {
    MemorySource.ACTIVITY_NOTE: "directions_run",
    MemorySource.USER_MESSAGE: "chat",
    MemorySource.PATTERN_ANALYSIS: "insights",
    MemorySource.MANUAL: "edit_note",
}
CONFIDENCE_LABELS: dict[MemoryConfidence, str] = {
    MemoryConfidence.HIGH: "Confirmed by you",
    MemoryConfidence.MEDIUM: "Medium confidence",
    MemoryConfidence.LOW: "Low confidence",
}
"""A memory's confidence as its card, filters and History say it: whatever the athlete confirmed, wrote,
edited or restored is high (domain.confidence); medium and low are memories nobody confirmed yet."""
PROPOSAL_CONFIDENCE_LABELS: dict[MemoryConfidence, str] = {
    MemoryConfidence.HIGH: "High confidence",
    MemoryConfidence.MEDIUM: "Medium confidence",
    MemoryConfidence.LOW: "Low confidence",
}
"""A proposal's confidence: how sure the extraction rules are; nobody has confirmed it yet."""
CONFIDENCE_COLORS: dict[MemoryConfidence, str] = {
    MemoryConfidence.HIGH: "green-9",
    MemoryConfidence.MEDIUM: "blue-9",
    MemoryConfidence.LOW: "grey-8",
}
TYPE_ORDER = [
    MemoryType.INJURY_HISTORY,
    MemoryType.PREFERENCE,
    MemoryType.CONTEXT,
    MemoryType.TRAINING_RESPONSE,
    MemoryType.INSIGHT,
]

ACTION_LABELS: dict[AuditAction, str] = {
    AuditAction.CREATE: "Created",
    AuditAction.IMPORT: "Imported",
    AuditAction.EDIT: "Edited",
    AuditAction.REVERT: "Reverted",
    AuditAction.DELETE: "Deleted",
    AuditAction.UNDO_DELETE: "Undid delete",
    AuditAction.RESTORE: "Restored",
    AuditAction.HARD_DELETE: "Deleted permanently",
    AuditAction.PURGE: "Removed by clean-up",  # the retention clean-up has one name (ui.components.admin_words)
    AuditAction.RETENTION_RUN: "Clean-up",
    AuditAction.COUNT_AGAIN: "Counted again",
    AuditAction.SUPERSEDE: "Superseded",
    AuditAction.INGEST: "Received text",
    AuditAction.PROPOSE: "Proposed",
    AuditAction.PROPOSAL_CONFIRM: "Confirmed proposal",
    AuditAction.PROPOSAL_REJECT: "Rejected proposal",
    AuditAction.PROPOSAL_EXPIRE: "Proposal expired",
    AuditAction.PROPOSAL_REOPEN: "Reopened proposal",
    AuditAction.USER_CREATE: "Created user",
    AuditAction.USER_DISABLE: "Disabled user",
    AuditAction.USER_ENABLE: "Enabled user",
    AuditAction.USER_ROLE: "Changed role",
    AuditAction.USER_PASSWORD_RESET: "Reset password",
    AuditAction.USER_PASSWORD_CHANGE: "Changed own password",
    AuditAction.HIDE: "Hidden from coach",
    AuditAction.UNHIDE: "Shown to coach again",
    AuditAction.TOKEN_CREATE: "Created API token",
    AuditAction.TOKEN_REVOKE: "Revoked API token",
    AuditAction.MERGE: "Merged",
    AuditAction.CONFIRM_UNDO: "Undid confirm",
}
"""The audit log's words for every action, as admins read them."""

ATHLETE_ACTION_LABELS: dict[AuditAction, str] = {
    AuditAction.CREATE: "Added",
    AuditAction.IMPORT: "Imported",
    AuditAction.EDIT: "Edited",
    AuditAction.DELETE: "Deleted",
    AuditAction.UNDO_DELETE: "Brought back",
    AuditAction.RESTORE: "Restored by an admin",
    AuditAction.REVERT: "Earlier version restored",
    AuditAction.COUNT_AGAIN: "Seen again",
    AuditAction.SUPERSEDE: "Replaced",
    AuditAction.HIDE: "Hidden from your coach",
    AuditAction.UNHIDE: "Shown to your coach again",
    AuditAction.MERGE: "Merged with another memory",
    AuditAction.CONFIRM_UNDO: "Back as it was (you undid a confirm)",
}
"""A memory's history as its athlete reads it, in their own terms; other actions use ACTION_LABELS."""

SUMMARY_SUBJECT_LIMIT = 90
HIDDEN_SUBJECT = "(content redacted)"


def athlete_action_label(action: AuditAction) -> str:
    return ATHLETE_ACTION_LABELS.get(action) or ACTION_LABELS[action]


def summary_text(summary: Summary) -> str:
    """One line: what happened, to what; for a change, which fields changed."""
    label = ACTION_LABELS[summary.action]
    subject = HIDDEN_SUBJECT if summary.hidden else summary.subject
    line = f"{label}: {clip(subject, SUMMARY_SUBJECT_LIMIT)}" if subject else label
    if summary.changed:
        line += f" ({', '.join(summary.changed)} changed)"
    return line


def value_text(value: Any) -> str:
    """A before/after value of the audit log's diff, as words."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(str(item) for item in value) if value else "(none)"
    return str(value)


HIDDEN_FROM_COACH = "Hidden from your coach"
NOT_USED_YET = "Not used by your coach yet"


def usage_text(count: int, last_at: datetime | None, now: datetime | None = None) -> str:
    """How often the coach was given a memory, as the athlete reads it on its card."""
    if count <= 0:
        return NOT_USED_YET
    line = f"Used by your coach {count} {'time' if count == 1 else 'times'}"
    return f"{line}, last {time_ago(last_at, now)}" if last_at is not None else line
