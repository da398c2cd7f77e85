"""'Memories' as one list: type chips with counts that filter it, the other filters and the sort, a
page at a time ("Show more" continues after the last shown memory), and a selection mode with a
bar that deletes (undoably), hides from the coach or changes the type of the ticked memories, or
merges two of them into one (ui/components/merge_dialog.py).

What a load reads, it reads in a worker thread in one unit of work: the first page with the
per-type counts (`memory_lists.memory_view`, two statements), how often the coach used each
shown memory (`usage_counts`, one) and when their notes arrived (`source_dates`, one).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from typing import TypeVar

from nicegui import ui
from sqlalchemy.orm import Session

from domain.coach_reads import usage_counts
from domain.enums import MemoryType
from domain.memory_lists import (
    COUNT_CAP,
    MemoryCursor,
    MemoryQuery,
    MemoryView,
    list_more,
    memory_view,
    source_dates,
)
from domain.models import Memory, User
from ui.components.busy import busy
from ui.components.filters import FilterBar, MemoryFilters
from ui.components.focus import focus_selector
from ui.components.labels import TYPE_ORDER, TYPE_SINGULAR
from ui.components.memory_rows import MemoryActions, MemoryRows, Row, RowFacts, row_data
from ui.components.merge_dialog import open_merge_dialog
from ui.components.plain_button import PlainButton
from ui.components.type_chips import TypeChips
from ui.session import in_thread, tab_action

PAGE_SIZE = 20
MORE_SIZE = 40

Many = Callable[[list[Memory]], Awaitable[None]]


@dataclass(frozen=True)
class BulkActions:
    delete: Many
    hide: Many
    change_type: Callable[[list[Memory], MemoryType], Awaitable[None]]
    merged: Callable[[], Awaitable[None]]  # after two were merged into one (the dialog writes)


@dataclass(frozen=True)
class Loaded:
    """A page of memories with their rows as the browser draws them (put in words in the worker
    thread that read them, not on the event loop)."""

    items: list[Memory]
    rows: dict[int, Row]

    def pairs(self) -> Iterator[tuple[Memory, Row]]:
        for memory in self.items:
            yield memory, self.rows[memory.id]


@dataclass(frozen=True)
class ListData:
    view: MemoryView
    rows: Loaded


def load_list(session: Session, user: User, query: MemoryQuery) -> ListData:
    view = memory_view(session, user, query=query)
    return ListData(view, _rows(session, user, view.items))


def _rows(session: Session, user: User, items: list[Memory]) -> Loaded:
    usage = usage_counts(session, user, [m.id for m in items])
    received = source_dates(session, user, items)
    return Loaded(items, {m.id: row_data(m, RowFacts(usage.get(m.id), received.get(m.id))) for m in items})


def _more(session: Session, user: User, query: MemoryQuery, after: MemoryCursor, *, many: bool) -> Loaded:
    return _rows(session, user, list_more(session, user, query=query, after=after, many=many))


def _count_text(view: MemoryView) -> str:
    return f"{COUNT_CAP:,}+" if view.capped else f"{view.total:,}"


class MemoryList:
    def __init__(
        self,
        filters: MemoryFilters,
        bar: FilterBar,
        actions: MemoryActions,
        bulk: BulkActions,
        *,
        data: ListData,
        on_add: Callable[[], Awaitable[None] | None],
        on_clear_filters: Callable[[], Awaitable[None] | None],
    ) -> None:
        self.filters = filters
        self.bar = bar
        self.actions = actions
        self.bulk = bulk
        self.on_add = on_add
        self.on_clear_filters = on_clear_filters
        self.data = data
        self.shown: list[Memory] = list(data.rows.items)
        self.row_of: dict[int, Row] = dict(data.rows.rows)
        self.selecting = False
        self.selected: dict[int, Memory] = {}
        self._showing_selection = False
        self._reloads = 0  # reloads started; only the newest one's answer is shown
        # Built once and updated in place: the chips, the tools, the rows, "Show more". The selection
        # bar and the empty list's message are built the first time they are needed.
        self.chips = TypeChips(self.bar.choose_type).mark("type-chips")
        self.show_counts()
        with ui.element("div").classes("mr-list-tools") as tools:
            bar.controls()
            self.select_button = PlainButton(
                "Select",
                icon="checklist",
                color="brand",
                props="flat dense no-caps",
                on_click=self.toggle_selecting,
            ).mark("select-memories")
        self._tools = tools
        self._bulk_bar: ui.element | None = None
        self.rows = MemoryRows(self.actions, self._select).mark("memory-list")
        self.more = PlainButton(color="brand", props="flat no-caps", on_click=self.show_more).classes("self-center")
        self.more.mark("more-memories")
        self._empty: ui.element | None = None
        self.render()

    # ---- loading ----

    async def reload(self, *, focus_at: int | None = None) -> None:
        """Read the first page again; with `focus_at`, move focus to the row now at that place.

        Reloads overlap when filters change quickly (clear the search, then pick a type): each one
        reads in a worker thread, and only the newest one's answer is shown; an older answer that
        arrives late is dropped, or it would show the list of filters no longer chosen."""
        self._reloads += 1
        mine = self._reloads
        query = self.filters.query(limit=max(PAGE_SIZE, min(len(self.shown), 200)))
        data = await in_thread(lambda s, u: load_list(s, u, query))
        if mine != self._reloads:
            return
        self.data = data
        self.shown = list(self.data.rows.items)
        self.row_of = dict(data.rows.rows)
        shown_ids = {m.id for m in self.shown}
        self.selected = {i: m for i, m in self.selected.items() if i in shown_ids}
        self.show_counts()
        self.show_selection()
        self.render()
        if focus_at is not None:
            self.focus_row(focus_at)

    def focus_row(self, index: int) -> bool:
        """Focus the row at `index` (or the last one); False when the list is empty."""
        if not self.shown:
            return False
        memory = self.shown[min(index, len(self.shown) - 1)]
        focus_selector(self.select_button.client, f'[data-memory="{memory.id}"]')
        return True

    def index_of(self, memory: Memory) -> int | None:
        return next((i for i, m in enumerate(self.shown) if m.id == memory.id), None)

    # ---- type chips ----

    def show_counts(self) -> None:
        view, chosen = self.data.view, self.filters.types[0] if self.filters.types else None
        if view.per_type:
            self.chips.show(view.counts, chosen)
        else:  # more than COUNT_CAP matches: not counted per type (memory_lists.MemoryView.per_type)
            self.chips.show_uncounted(f"{COUNT_CAP:,}+", chosen, _count_text(view))

    # ---- selection ----

    def toggle_selecting(self) -> None:
        self.selecting = not self.selecting
        self.selected.clear()
        self.select_button.set_text("Done" if self.selecting else "Select")
        self.bulk_bar()
        if self.shown:
            self.rows.show(self.data_rows(), selecting=self.selecting, selected=set())

    def _select(self, memory: Memory, value: bool) -> None:
        if value:
            self.selected[memory.id] = memory
        else:
            self.selected.pop(memory.id, None)
        self.show_selection()

    def _select_all(self, value: bool) -> None:
        if self._showing_selection:
            return  # the box was set to show the selection, not ticked by the athlete
        self.selected = {m.id: m for m in self.shown} if value else {}
        self.show_selection()
        self.rows.mark_selected(set(self.selected))

    def _chosen(self) -> list[Memory]:
        return list(self.selected.values())

    def bulk_bar(self) -> None:
        """Shown while selecting, built the first time selecting starts; a tick only updates it
        (`show_selection`)."""
        if self._bulk_bar is not None:
            self._bulk_bar.set_visibility(self.selecting)
            self.show_selection()
            return
        if not self.selecting:
            return
        self._bulk_bar = _placed_after(
            self._tools,
            lambda: ui.element("div").classes("mr-bulk").props('role="toolbar" aria-label="Selected memories"'),
        )
        with self._bulk_bar:
            self.select_all = ui.checkbox("All shown", on_change=lambda e: self._select_all(bool(e.value)))
            self.select_all.props("dense").mark("memories-select-all")
            self.selected_count = ui.label().classes("mr-meta").mark("selected-count")
            delete = ui.button("Delete", icon="delete_outline", color="danger").props("flat dense no-caps")
            delete.on_click(lambda: self._bulk(delete, self.bulk.delete(self._chosen()))).mark("bulk-delete")
            hide = ui.button("Hide from coach", icon="visibility_off", color="meta").props("flat dense no-caps")
            hide.on_click(lambda: self._bulk(hide, self.bulk.hide(self._chosen()))).mark("bulk-hide")
            retype = ui.button("Change type", icon="category", color="meta").props("flat dense no-caps")
            retype.mark("bulk-type")
            with retype, ui.menu().props('auto-close role="menu"'):
                for memory_type in TYPE_ORDER:
                    ui.menu_item(
                        TYPE_SINGULAR[memory_type],
                        on_click=lambda t=memory_type: self._bulk(retype, self.bulk.change_type(self._chosen(), t)),
                    ).props('role="menuitem"').mark(f"bulk-type-{memory_type.value}")
            self.merge_button = ui.button("Merge", icon="merge", color="meta").props("flat dense no-caps")
            self.merge_button.on_click(self._merge).mark("bulk-merge")
            self.acting_buttons = (delete, hide, retype)
        self.show_selection()

    def show_selection(self) -> None:
        """The bar's count, "All shown" and which actions apply, for the selection as it is now."""
        if not self.selecting:
            return
        count = len(self.selected)
        self._showing_selection = True
        try:
            self.select_all.set_value(bool(self.shown) and count == len(self.shown))
        finally:
            self._showing_selection = False
        self.selected_count.set_text(f"{count} selected")
        self.merge_button.set_enabled(count == 2)
        for button in self.acting_buttons:
            button.set_enabled(count > 0)

    def _merge(self) -> None:
        chosen = self._chosen()
        if len(chosen) == 2:
            open_merge_dialog(chosen[0], chosen[1], self._merged)

    async def _merged(self) -> None:
        self.selected.clear()
        await self.bulk.merged()

    @tab_action
    async def _bulk(self, button: ui.button, work: Awaitable[None]) -> None:
        await busy(button, lambda: work)
        self.selected.clear()
        self.show_selection()

    # ---- the list ----

    def render(self) -> None:
        """The rows and "Show more" for the list as read, or the message of an empty list."""
        if not self.shown:
            self.rows.set_visibility(False)
            self.more.set_visibility(False)
            self._show_empty()
            return
        if self._empty is not None:
            self._empty.set_visibility(False)
        self.rows.set_visibility(True)
        self.rows.show(self.data_rows(), selecting=self.selecting, selected=set(self.selected))
        self._update_more(more=self.data.view.total > len(self.shown))

    def data_rows(self) -> Iterator[tuple[Memory, Row]]:
        """The shown memories with their rows (the first page's, then each "show more"'s)."""
        for memory in self.shown:
            yield memory, self.row_of[memory.id]

    def _update_more(self, *, more: bool) -> None:
        """'Show more' with how many are left; a search counted only up to COUNT_CAP says how many of
        its more than COUNT_CAP matches are shown (it is shown while the last page came back full)."""
        view, shown = self.data.view, len(self.shown)
        if not view.capped:
            self.more.set_text(f"Show more ({view.total - shown} more)")
        elif shown <= COUNT_CAP:
            self.more.set_text(f"Show more ({shown:,} of {COUNT_CAP:,}+ shown)")
        else:
            self.more.set_text("Show more")
        self.more.set_visibility(more)

    async def show_more(self) -> None:
        if not self.shown:
            return
        query = self.filters.query(limit=MORE_SIZE)
        after = MemoryCursor.after(self.shown[-1])
        self.more.props("loading")
        reloads = self._reloads
        many = self.data.view.capped
        loaded = await in_thread(lambda s, u: _more(s, u, query, after, many=many))
        self.more.props(remove="loading")
        if reloads != self._reloads:  # the list was read again meanwhile: these rows follow an older one
            return
        self.row_of.update(loaded.rows)
        self.rows.append(loaded.pairs(), selected=set(self.selected))
        known = {m.id for m in self.shown}
        self.shown.extend(m for m in loaded.items if m.id not in known)
        full = len(loaded.items) == MORE_SIZE
        self._update_more(
            more=full if self.data.view.capped else bool(loaded.items) and self.data.view.total > len(self.shown)
        )

    def _show_empty(self) -> None:
        """What an empty list says: built again each time, it depends on whether filters are set."""
        if self._empty is None:
            self._empty = _placed_after(
                self.more, lambda: ui.column().classes("mr-empty w-full items-center gap-2").mark("memories-empty")
            )
        self._empty.clear()
        self._empty.set_visibility(True)
        with self._empty:
            if self.filters.active:
                ui.icon("search_off", size="40px").props('aria-hidden="true"')
                ui.label("No memories match your search or filters.")
                ui.button("Clear filters", color="brand", on_click=self.on_clear_filters).props("flat")
            else:
                ui.icon("psychology_alt", size="40px").props('aria-hidden="true"')
                ui.label("Your coach doesn't remember anything about you yet.")
                ui.label("Add what matters, or confirm what your coach proposes.").classes("mr-muted text-sm")
                ui.button("Add memory", icon="add", on_click=self.on_add)


E = TypeVar("E", bound=ui.element)


def _placed_after(anchor: ui.element, build: Callable[[], E]) -> E:
    """An element built later than the page, in its place: right after `anchor`."""
    slot = anchor.parent_slot
    assert slot is not None
    with slot:
        element = build()
    return element.move(target_index=slot.children.index(anchor) + 1)
