"""'Memories', grouped by type with counts; each group loads a page at a time ('Show more')."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from nicegui import ui
from sqlalchemy.orm import Session

from domain.enums import MemoryType
from domain.memory_lists import MAX_PAGE, MemoryPage, list_memories, list_memories_by_type
from domain.models import User
from ui.components.filters import MemoryFilters
from ui.components.labels import TYPE_ICONS, TYPE_LABELS
from ui.components.memory_card import MemoryActions, memory_card
from ui.session import in_thread, read

PAGE_SIZE = 10


@dataclass
class _Shown:
    count: int


class MemoryList:
    def __init__(
        self,
        filters: MemoryFilters,
        actions: MemoryActions,
        *,
        on_add: Callable[[], Awaitable[None] | None],
        on_clear_filters: Callable[[], Awaitable[None] | None],
    ) -> None:
        self.filters = filters
        self.actions = actions
        self.on_add = on_add
        self.on_clear_filters = on_clear_filters
        self.loaded: dict[MemoryType, int] = {}
        self.pages: dict[MemoryType, MemoryPage] = read(self._load)

    def _load(self, session: Session, user: User) -> dict[MemoryType, MemoryPage]:
        shown = self.filters.shown_types()
        limits = {t: min(self.loaded.get(t, PAGE_SIZE), MAX_PAGE) for t in shown}
        query = self.filters.query(shown[0], limit=PAGE_SIZE) if shown else None
        if query is None:
            return {}
        return list_memories_by_type(session, user, query=query, limits=limits)

    async def reload(self, *, from_start: bool = False) -> None:
        if from_start:
            self.loaded.clear()
        self.pages = await in_thread(self._load)
        self.render.refresh()

    @ui.refreshable_method
    def render(self) -> None:
        pages = {t: p for t, p in self.pages.items() if p.total}
        if not pages:
            self._empty()
            return
        for memory_type, page in pages.items():
            self._group(memory_type, page)

    def _empty(self) -> None:
        with ui.column().classes("mr-empty w-full items-center gap-2").mark("memories-empty"):
            if self.filters.active:
                ui.icon("search_off", size="40px").props('aria-hidden="true"')
                ui.label("No memories match your search or filters.")
                ui.button("Clear filters", color="brand", on_click=self.on_clear_filters).props("flat")
            else:
                ui.icon("psychology_alt", size="40px").props('aria-hidden="true"')
                ui.label("Your coach doesn't remember anything about you yet.")
                ui.label("Add what matters, or confirm what your coach proposes above.").classes("mr-muted text-sm")
                ui.button("Add memory", icon="add", on_click=self.on_add)

    def _group(self, memory_type: MemoryType, page: MemoryPage) -> None:
        shown = _Shown(len(page.items))
        with ui.column().classes("w-full gap-2").mark(f"group-{memory_type.value}"):
            with ui.row().classes("items-center gap-2"):
                ui.icon(TYPE_ICONS[memory_type]).classes("mr-type-icon").props('aria-hidden="true"')
                ui.label(f"{TYPE_LABELS[memory_type]} ({page.total})").classes("mr-group-title").props(
                    'role="heading" aria-level="3"'
                )
            cards = ui.column().classes("w-full gap-2")
            with cards:
                for memory in page.items:
                    memory_card(memory, self.actions)
            more = ui.button(color="brand", on_click=lambda: show_more()).props("flat").classes("self-center")
            more.mark(f"more-{memory_type.value}")

        def update_more() -> None:
            remaining = page.total - shown.count
            more.set_text(f"Show more ({remaining} more)")
            more.set_visibility(remaining > 0)

        async def show_more() -> None:
            query = self.filters.query(memory_type, limit=PAGE_SIZE * 2, offset=shown.count)
            next_page = await in_thread(lambda s, u: list_memories(s, u, query=query))
            with cards:
                for memory in next_page.items:
                    memory_card(memory, self.actions)
            shown.count += len(next_page.items)
            self.loaded[memory_type] = shown.count
            if not next_page.items:
                shown.count = page.total
            update_more()

        update_more()
