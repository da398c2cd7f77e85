"""/: the athlete's memories, grouped by type."""

from __future__ import annotations

from nicegui import ui

from domain.enums import Role
from domain.memories import MemoryQuery, list_memories
from domain.models import Memory
from persistence.uow import unit_of_work
from ui import runtime
from ui.components.frame import frame
from ui.components.labels import (
    CONFIDENCE_COLORS,
    CONFIDENCE_LABELS,
    SOURCE_ICONS,
    SOURCE_LABELS,
    TYPE_ICONS,
    TYPE_LABELS,
    TYPE_ORDER,
)
from ui.components.timeago import time_ago
from ui.pages.guard import page_user


@ui.page("/")
def home_page() -> None:
    user = page_user(Role.ATHLETE)
    if user is None:
        return
    with unit_of_work(runtime.current().engine, read_only=True) as session:
        memories = list_memories(session, user, query=MemoryQuery(limit=200)).items
    with frame(user, "Your memory"):
        ui.label("What your coach remembers").classes("text-2xl font-semibold")
        if not memories:
            ui.label("Your coach remembers nothing about you yet.").classes("mr-muted")
        for memory_type in TYPE_ORDER:
            group = [m for m in memories if m.type == memory_type]
            if group:
                memory_group(TYPE_LABELS[memory_type], TYPE_ICONS[memory_type], group)


def memory_group(title: str, icon: str, memories: list[Memory]) -> None:
    with ui.column().classes("w-full gap-2"):
        with ui.row().classes("items-center gap-2"):
            ui.icon(icon).props('aria-hidden="true"')
            ui.label(f"{title} ({len(memories)})").classes("mr-section-title")
        for memory in memories:
            with ui.card().classes("mr-card w-full").props("flat"):
                ui.label(memory.content).classes("mr-memory-text")
                with ui.row().classes("items-center gap-2 mr-muted text-sm"):
                    ui.badge(CONFIDENCE_LABELS[memory.confidence], color=CONFIDENCE_COLORS[memory.confidence])
                    ui.icon(SOURCE_ICONS[memory.source]).props('aria-hidden="true"')
                    ui.label(SOURCE_LABELS[memory.source])
                    ui.label(f"Updated {time_ago(memory.updated_at)}")
