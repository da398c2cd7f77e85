"""'History': a memory's versions from the audit log, as diffs, with 'Restore this version'; below them,
each memory this one replaced ("Replaced: …", archived by dedup) with its own history, read only."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from nicegui import ui

from domain import memories, replaced
from domain.errors import DomainError, NotFound
from domain.memory_writes import CONTENT_FIELDS
from domain.models import AuditEvent, Memory
from ui.components.dialogs import one_at_a_time, titled_dialog
from ui.components.diff import field_changes, word_diff
from ui.components.labels import athlete_action_label
from ui.components.text import Inline, span
from ui.components.timeago import time_ago
from ui.session import read, write

HISTORY_DIALOG = "history-dialog"

RESTORED_FIELDS = tuple(name for name in CONTENT_FIELDS if name != "confidence")
"""What 'Restore this version' brings back; a restored memory is confirmed by its athlete (domain.confidence)."""


def _version(payload: dict[str, Any] | None) -> tuple[Any, ...] | None:
    if not payload or payload.get("redacted") or any(name not in payload for name in CONTENT_FIELDS):
        return None
    return tuple(tuple(payload[name]) if name == "tags" else payload[name] for name in RESTORED_FIELDS)


def _current(memory: Memory) -> tuple[Any, ...]:
    return (memory.content, memory.type.value, tuple(memory.tags))


@one_at_a_time(HISTORY_DIALOG)
def open_history_dialog(memory_id: int, on_restored: Callable[[], Awaitable[None]]) -> None:
    try:
        memory, events, older = read(
            lambda s, u: (
                memories.get_memory(s, u, memory_id=memory_id),
                memories.memory_history(s, u, memory_id=memory_id),
                [
                    (m, memories.memory_history(s, u, memory_id=m.id))
                    for m in replaced.replaced_by(s, u, memory_id=memory_id)
                ],
            )
        )
    except NotFound:
        ui.notify("Memory not found.", type="warning")
        return

    async def restore(event: AuditEvent) -> None:
        try:
            await write(
                lambda s, u: memories.revert_memory(
                    s, u, memory_id=memory.id, event_seq=event.seq, expected_version=memory.version
                )
            )
        except DomainError as error:
            ui.notify(str(error), type="negative")
        else:
            ui.notify("Restored this version.", type="positive")
        dialog.close()
        await on_restored()

    with titled_dialog("History", marker=HISTORY_DIALOG, wide=True) as dialog:
        ui.label(memory.content).classes("mr-memory-text font-medium")
        with ui.column().classes("w-full gap-2"):
            for event in reversed(events):
                _event_card(event, _current(memory), restore)
        for old, old_events in older:
            _replaced(old, old_events)


def _replaced(memory: Memory, events: list[AuditEvent]) -> None:
    """A memory this one replaced (archived): its statement, and its own history, read only."""
    title = f"Replaced: {memory.content}"
    with (
        ui.expansion(title, icon="history").classes("w-full").mark(f"replaced-{memory.id}"),
        ui.column().classes("w-full gap-2"),
    ):
        for event in reversed(events):
            _event_card(event, None, None)


def _event_card(
    event: AuditEvent,
    current: tuple[Any, ...] | None,
    restore: Callable[[AuditEvent], Awaitable[None]] | None,
) -> None:
    """One event; with `restore`, a 'Restore this version' for a version other than `current`."""
    with ui.card().classes("mr-card w-full gap-1").props("flat").mark(f"event-{event.seq}"):
        with ui.row().classes("items-baseline gap-2"):
            ui.label(athlete_action_label(event.action)).classes("font-semibold")
            ui.label(f"by {event.actor_label}").classes("mr-muted text-sm")
            ui.label(time_ago(event.at)).classes("mr-muted text-sm").tooltip(event.at.strftime("%d %b %Y, %H:%M UTC"))
        if event.redacted:
            ui.label("Content removed for good by an admin.").classes("mr-muted text-sm")
            return
        _statement(event.before, event.after)
        for line in field_changes(event.before, event.after):
            ui.label(line).classes("text-sm")
        if event.reason:
            ui.label(event.reason).classes("mr-muted text-sm")
        version = _version(event.after)
        if restore is not None and version is not None and version != current:
            ui.button("Restore this version", icon="restore", color="brand", on_click=lambda: restore(event)).props(
                "flat dense"
            ).classes("self-start").mark("restore-version")


def _statement(before: dict[str, Any] | None, after: dict[str, Any] | None) -> None:
    old = (before or {}).get("content")
    new = (after or {}).get("content")
    if new is None or old == new:
        return
    with ui.element("p").classes("mr-diff mr-memory-text").mark("diff"):
        if old is None:
            span(new)
            return
        for piece in word_diff(old, new):
            if piece.kind == "removed":
                Inline(piece.text, tag="del").classes("mr-del")
            elif piece.kind == "added":
                Inline(piece.text, tag="ins").classes("mr-ins")
            else:
                span(piece.text)
