"""The audit log in plain words for the admin console: summaries, reasons, records and field names.

The record ids an admin needs to trace an event stay, in a quieter column of their own ("refs").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from domain.audit_log import AuditRow
from domain.enums import AuditAction, MemoryStatus
from ui.components.diff import confidence_words, type_words
from ui.components.labels import ACTION_LABELS, HIDDEN_SUBJECT, SUMMARY_SUBJECT_LIMIT, value_text
from ui.components.text import clip

CLEAN_UP = "Clean up now"
"""The one name of the retention clean-up, on the tab, in its dialog and in its notices."""

ACTION_WORDS: dict[AuditAction, str] = ACTION_LABELS
"""The audit log's actions as the console and its CSV name them (the clean-up by its one name)."""

TARGET_WORDS = {
    "memory": "Memory",
    "proposal": "Proposal",
    "user": "User",
    "source_text": "Received text",
    "retention": "Clean-up",
    "api_token": "API token",
}
FIELD_WORDS = {
    "content": "Statement",
    "type": "Type",
    "tags": "Tags",
    "confidence": "Confidence",
    "occurrences": "Times seen",
    "status": "State",
    "source": "Source",
    "source_reference": "Source reference",
    "superseded_by": "Replaced by",
    "hidden_from_coach": "Hidden from coach",
    "version": "Version",
    "username": "Username",
    "display_name": "Name",
    "role": "Role",
    "disabled": "Disabled",
    "memory_id": "Became memory",
    "source_text_id": "Received text",
    "kind": "Kind",
    "reference": "Reference",
    "characters": "Characters",
    "name": "Name",
    "scopes": "Scopes",
}
STATUS_WORDS = {
    MemoryStatus.ACTIVE.value: "Active",
    MemoryStatus.DELETED.value: "Deleted",
    MemoryStatus.ARCHIVED.value: "Replaced (archived)",
    "pending": "Waiting for review",
    "confirmed": "Confirmed",
    "rejected": "Rejected",
    "expired": "Expired",
}
SOURCE_WORDS = {  # the athlete's page says "Your message"; the console names whose
    "activity_note": "Activity note",
    "user_message": "Athlete's message",
    "pattern_analysis": "Pattern analysis",
    "manual": "Added by the athlete",
}
KIND_WORDS = {"activity_note": "an activity note", "user_message": "a message"}

# The reasons the app writes itself, with the ids they carry; anything else is a person's own words.
_REASONS: tuple[tuple[re.Pattern[str], str, str], ...] = (
    (
        re.compile(r"Confirmed proposal #(\d+), replacing memory #(\d+)"),
        "Confirmed by the athlete from a proposal, replacing an earlier memory",
        "proposal #{0}, replaced memory #{1}",
    ),
    (re.compile(r"Confirmed proposal #(\d+)"), "Confirmed by the athlete from a proposal", "proposal #{0}"),
    (re.compile(r"Replaced by memory #(\d+)"), "Replaced by a newer memory", "by memory #{0}"),
    (re.compile(r"Restored the version of event #(\d+)"), "An earlier version brought back", "version of event #{0}"),
    (re.compile(r"Retention: archived more than (\d+) days ago"), "Clean-up: replaced more than {0} days ago", ""),
)


@dataclass(frozen=True)
class Reason:
    text: str  # as people read it
    refs: str = ""  # the ids it names, for the admin's refs column


def reason_words(reason: str | None) -> Reason | None:
    if not reason:
        return None
    for pattern, words, refs in _REASONS:
        match = pattern.fullmatch(reason)
        if match:
            return Reason(words.format(*match.groups()), refs.format(*match.groups()))
    return Reason(reason)


def record_words(target: str) -> str:
    """ "memory #19" → "Memory #19"; "source_text #3" → "Received text #3"."""
    kind, _, number = target.partition(" #")
    words = TARGET_WORDS.get(kind, kind.replace("_", " ").capitalize())
    return f"{words} #{number}" if number else words


def summary_words(row: AuditRow) -> str:
    """One line: what happened, to what; changed fields by their names in the console."""
    summary = row.summary
    label = ACTION_WORDS[summary.action]
    if summary.action == AuditAction.INGEST and row.after:
        return f"{label}: {KIND_WORDS.get(str(row.after.get('kind')), 'a text')}"
    subject = HIDDEN_SUBJECT if summary.hidden else summary.subject
    line = f"{label}: {clip(subject, SUMMARY_SUBJECT_LIMIT)}" if subject else label
    if summary.changed:
        line += f" ({', '.join(FIELD_WORDS.get(name, name).lower() for name in summary.changed)} changed)"
    return line


def refs_words(row: AuditRow) -> str:
    """The ids behind an event, for admins tracing it: its source reference, the records its reason names."""
    parts: list[str] = []
    if row.summary.action == AuditAction.INGEST and row.after and row.after.get("reference"):
        parts.append(f"ref {row.after['reference']}")
    reason = reason_words(row.reason)
    if reason is not None and reason.refs:
        parts.append(reason.refs)
    return " · ".join(parts)


def field_words(name: str) -> str:
    return FIELD_WORDS.get(name, name.replace("_", " ").capitalize())


def field_value_words(name: str, value: Any) -> str:
    """A before/after value in the event's diff, as words; tags and references stay as stored."""
    if value is None:
        return "—"
    if name == "type":
        return type_words(value)
    if name == "confidence":
        return confidence_words(value)
    if name == "status":
        return STATUS_WORDS.get(str(value), str(value))
    if name == "source":
        return SOURCE_WORDS.get(str(value), str(value))
    return value_text(value)
