"""One memory: statement, confidence, source, how often seen, tags, last update, and its actions."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from nicegui import ui

from domain.models import Memory
from ui.components.labels import CONFIDENCE_COLORS, CONFIDENCE_LABELS, SOURCE_ICONS, SOURCE_LABELS
from ui.components.timeago import time_ago

MemoryAction = Callable[[Memory], Awaitable[None] | None]


@dataclass(frozen=True)
class MemoryActions:
    edit: MemoryAction
    delete: MemoryAction
    history: MemoryAction


def tag_chips(tags: list[str]) -> None:
    for tag in tags:
        ui.label(tag).classes("mr-tag")


def memory_card(memory: Memory, actions: MemoryActions) -> None:
    with ui.card().classes("mr-card mr-memory w-full gap-2").props("flat").mark(f"memory-{memory.id}"):
        ui.label(memory.content).classes("mr-memory-text").mark("memory-content")
        with ui.row().classes("items-center gap-x-3 gap-y-1 text-sm mr-muted"):
            ui.label(CONFIDENCE_LABELS[memory.confidence]).classes(
                f"mr-pill text-white bg-{CONFIDENCE_COLORS[memory.confidence]}"
            )
            with ui.row().classes("items-center gap-1 no-wrap"):
                ui.icon(SOURCE_ICONS[memory.source], size="18px").props('aria-hidden="true"')
                ui.label(SOURCE_LABELS[memory.source])
            ui.label(f"Seen {memory.occurrences}×")
            ui.label(f"Updated {time_ago(memory.updated_at)}")
            tag_chips(memory.tags)
        with ui.row().classes("gap-1 mr-actions"):
            ui.button("Edit", icon="edit", color="brand", on_click=lambda: actions.edit(memory)).props(
                "flat dense"
            ).mark("memory-edit")
            ui.button("History", icon="history", color="meta", on_click=lambda: actions.history(memory)).props(
                "flat dense"
            ).mark("memory-history")
            ui.button("Delete", icon="delete", color="danger", on_click=lambda: actions.delete(memory)).props(
                "flat dense"
            ).mark("memory-delete")
