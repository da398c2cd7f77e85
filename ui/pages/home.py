"""/: the Context page. The athlete sees, reviews and corrects what the coach remembers.

Layout: a title row (Add memory, download/import), "What my coach sees", then a sticky header with
the search box and two tabs, "To review (N)" and "Memories (N)" (the tab is kept in the URL as
`?view=review|memories`), and the chosen view under it. The page's data is read in a worker thread
before anything is built. The memory list (20 rows) is always built; "To review" only when it is
first shown, with the page or when its tab is opened.
"""

from __future__ import annotations

from dataclasses import dataclass

from nicegui import ui
from sqlalchemy.orm import Session

from domain import coach_context, memories
from domain.enums import MemoryType, Role
from domain.errors import DomainError
from domain.models import Memory, User
from domain.overview import Overview, overview
from domain.proposals import PendingPage
from domain.schemas import MemoryEdit
from ui import runtime
from ui.components.coach_panel import CoachPanel
from ui.components.data_transfer import transfer_buttons
from ui.components.filters import FilterBar, MemoryFilters
from ui.components.frame import frame
from ui.components.history_dialog import open_history_dialog
from ui.components.labels import TYPE_SINGULAR
from ui.components.memory_dialog import open_add_dialog, open_edit_dialog
from ui.components.memory_list import PAGE_SIZE, BulkActions, ListData, MemoryList, load_list
from ui.components.memory_rows import MemoryActions
from ui.components.overview import OverviewPanel
from ui.components.plain_button import PlainButton
from ui.components.review import ReviewSection, load_pending
from ui.components.text import clip
from ui.components.turns import PAGE_RESPONSE_TIMEOUT_S, building_turn
from ui.components.undo_bar import UndoBar
from ui.components.view_panels import ViewPanels
from ui.components.view_tabs import ViewTabs
from ui.pages.guard import page_user_with
from ui.session import SessionEnded, attempt, in_thread, tab_action

MAX_ID = 2**63 - 1
VIEWS = ("memories", "review")
DEFAULT_VIEW = "memories"


@dataclass(frozen=True)
class PageData:
    overview: Overview
    memories: ListData
    pending: PendingPage | None  # read only when the page opens on 'To review'


def _overview(session: Session, user: User, counts: dict[MemoryType, int] | None = None) -> Overview:
    return overview(session, user, proposal_max_age=runtime.current().settings.proposal_max_age, counts=counts)


def _page_data(session: Session, user: User, filters: MemoryFilters, view: str) -> PageData:
    """What the page shows when it opens. Its list counts every type of the athlete's active
    memories when no filter narrows it (it opens unfiltered), and the overview takes those counts."""
    memories = load_list(session, user, filters.query(limit=PAGE_SIZE))
    unfiltered = not (filters.text.strip() or filters.sources or filters.confidences)  # types: counted anyway
    counts = memories.view.counts if unfiltered else None
    pending = load_pending(session, user) if view == "review" else None
    return PageData(_overview(session, user, counts), memories, pending)


@ui.page("/", response_timeout=PAGE_RESPONSE_TIMEOUT_S)
async def context_page(memory: str | None = None, view: str | None = None) -> None:
    filters = MemoryFilters()
    view = view if view in VIEWS else DEFAULT_VIEW
    admitted = await page_user_with(Role.ATHLETE, lambda s, u: _page_data(s, u, filters, view))
    if admitted is None:
        return
    user, data = admitted
    async with building_turn():  # a bounded share of a loop turn per page's elements (ui/components/turns.py)
        with frame(user, "Your memory"):
            page = ContextPage(filters, data, view)
    if memory is not None:  # a link to one memory opens its history (only one's own: others are "not found")
        # at most 19 digits: int() refuses a string of over 4,300 digits with an error, not "not found"
        memory_id = int(memory) if memory.isascii() and memory.isdigit() and len(memory) <= 19 else 0
        if 1 <= memory_id <= MAX_ID:
            page.history(memory_id)
        else:
            ui.notify("Memory not found.", type="warning")


class ContextPage:
    def __init__(self, filters: MemoryFilters, data: PageData, view: str) -> None:
        self.filters = filters
        self.bar = FilterBar(filters, self.filters_changed)
        self.review: ReviewSection | None = None
        self._review_loading = False
        with ui.row().classes("w-full items-center justify-between gap-2"):
            ui.label("What your coach remembers").classes("text-2xl font-semibold").props(
                'role="heading" aria-level="1"'
            )
            with ui.element("div").classes("mr-title-actions"):
                transfer_buttons(on_imported=self.imported)  # Download my memory, Import (ui.components.data_transfer)
                PlainButton("Add memory", icon="add", on_click=self.add).mark("add-memory")
        self.coach = CoachPanel(open_memory=self.history)  # What my coach sees (ui.components.coach_panel)
        with ui.element("div").classes("mr-sticky").mark("sticky-header"):
            self.bar.search_box()
            self.tabs = ViewTabs(view, show=lambda shown: self.panels.show(shown), on_change=self.view_changed)
            with self.tabs.classes("mr-tabs").mark("views"):
                with self.tabs.tab("review", label="To review", icon="pending_actions").mark("tab-review"):
                    self.pending = ui.label().classes("mr-count mr-count-review").mark("overview-pending")
                with self.tabs.tab("memories", label="Memories", icon="psychology").mark("tab-memories"):
                    self.total = ui.label().classes("mr-count").mark("overview-memories")
        self.panels = ViewPanels(view)
        with self.panels:
            with self.panels.panel("review"):
                self.review_section = (
                    ui.element("section").classes("mr-section mr-review w-full").props('aria-label="To review"')
                )
            with (
                self.panels.panel("memories"),
                ui.element("section").classes("mr-section w-full").props('aria-label="Memories"').mark("memories"),
            ):
                ui.label("Memories").classes("mr-sr-only").props('role="heading" aria-level="2"')
                actions = MemoryActions(
                    edit=self.edit,
                    delete=self.delete,
                    history=lambda m: self.history(m.id),
                    toggle_hidden=self.toggle_hidden,
                )
                bulk = BulkActions(
                    delete=self.delete_many,
                    hide=self.hide_many,
                    change_type=self.change_type,
                    merged=self.memories_changed,
                )
                self.memories = MemoryList(
                    filters,
                    self.bar,
                    actions,
                    bulk,
                    data=data.memories,
                    on_add=self.add,
                    on_clear_filters=self.clear_filters,
                )
                self.learned = OverviewPanel(data.overview)
        self.counts(data.overview)
        self.undo = UndoBar()
        if data.pending is not None:
            self._build_review(data.pending)

    def _build_review(self, pending: PendingPage) -> None:
        """'To review' is built when it is first shown (with the page, or when its tab is opened):
        most visits never open it, and ten proposal cards with their evidence are the page's
        heaviest part."""
        if self.review is not None:
            return
        with self.review_section:
            self.review = ReviewSection(pending, on_decided=self.changed, on_undoable=self.undo.show)
            self.review.render()

    async def _open_review(self) -> None:
        if self.review is not None or self._review_loading:
            return
        self._review_loading = True
        with self.review_section:
            waiting = ui.spinner(size="lg").classes("self-center").props('aria-label="Loading"')
        try:
            pending = await in_thread(load_pending)
        except SessionEnded:
            return  # logged out meanwhile: the tab is on its way to the login page
        except DomainError as error:
            ui.notify(str(error), type="negative")
            return
        finally:
            self._review_loading = False
            waiting.delete()
        self._build_review(pending)

    def counts(self, data: Overview) -> None:
        self.pending.set_text(str(data.pending))
        self.pending.props["aria-label"] = f"{data.pending} waiting"
        total = sum(data.counts.values())
        self.total.set_text(str(total))

    async def view_changed(self) -> None:
        ui.navigate.history.replace(f"/?view={self.tabs.value}")
        if self.tabs.value == "review":
            await self._open_review()

    async def filters_changed(self) -> None:
        if self.tabs.value != "memories":  # a search shows its results
            self.tabs.set_value("memories")
        await self.memories.reload()

    async def clear_filters(self) -> None:
        await self.bar.clear()

    async def memories_changed(self, *, focus_at: int | None = None) -> None:
        data = await in_thread(_overview)
        self.counts(data)
        self.learned.update(data)
        await self.memories.reload(focus_at=focus_at)
        if focus_at is not None and not self.memories.shown:
            self.undo.focus()
        await self.coach.reload()

    async def changed(self) -> None:
        if self.review is not None:
            await self.review.reload()
        await self.memories_changed()

    async def imported(self) -> None:
        """An import made proposals: show them, in 'To review'."""
        await self.changed()
        self.tabs.set_value("review")  # builds the view if it was never shown (view_changed)

    def add(self) -> None:
        open_add_dialog(self.memories_changed)

    def edit(self, memory: Memory) -> None:
        open_edit_dialog(memory, self.memories_changed)

    def history(self, memory_id: int) -> None:
        open_history_dialog(memory_id, self.memories_changed)

    @tab_action
    async def delete(self, memory: Memory) -> None:
        at = self.memories.index_of(memory)
        outcome = await attempt(
            lambda s, u: memories.delete_memory(s, u, memory_id=memory.id, expected_version=memory.version)
        )
        if outcome.ok:
            self.undo.show(f"Deleted '{clip(memory.content)}'", lambda: self.undo_delete(memory))
        await self.memories_changed(focus_at=at if outcome.ok else None)

    @tab_action
    async def toggle_hidden(self, memory: Memory) -> None:
        """Hide a memory from the coach, or show it again; it stays on the page either way."""
        hidden = not memory.hidden_from_coach
        outcome = await attempt(
            lambda s, u: coach_context.set_hidden(
                s, u, memory_id=memory.id, hidden=hidden, expected_version=memory.version
            )
        )
        if outcome.ok:
            if hidden:
                ui.notify(f"Hidden from your coach: '{clip(memory.content)}'", type="positive")
            else:
                ui.notify(f"Your coach can see '{clip(memory.content)}' again", type="positive")
        await self.memories_changed()

    async def undo_delete(self, memory: Memory) -> None:
        outcome = await attempt(lambda s, u: memories.undo_delete(s, u, memory_id=memory.id))
        if outcome.ok:
            ui.notify(f"Brought back '{clip(memory.content)}'", type="positive")
        await self.memories_changed()

    # ---- on a selection: one write for all of them (all or nothing) ----

    async def delete_many(self, chosen: list[Memory]) -> None:
        pairs = [(m.id, m.version) for m in chosen]
        outcome = await attempt(
            lambda s, u: [memories.delete_memory(s, u, memory_id=i, expected_version=v) for i, v in pairs]
        )
        if outcome.ok:
            ids = [i for i, _ in pairs]
            self.undo.show(_count_text("Deleted", len(ids)), lambda: self.undo_delete_many(ids))
        await self.memories_changed()

    async def undo_delete_many(self, ids: list[int]) -> None:
        outcome = await attempt(lambda s, u: [memories.undo_delete(s, u, memory_id=i) for i in ids])
        if outcome.ok:
            ui.notify(_count_text("Brought back", len(ids)), type="positive")
        await self.memories_changed()

    async def hide_many(self, chosen: list[Memory]) -> None:
        pairs = [(m.id, m.version) for m in chosen if not m.hidden_from_coach]
        outcome = await attempt(
            lambda s, u: [
                coach_context.set_hidden(s, u, memory_id=i, hidden=True, expected_version=v) for i, v in pairs
            ]
        )
        if outcome.ok:
            ui.notify(_count_text("Hidden from your coach:", len(chosen)), type="positive")
        await self.memories_changed()

    async def change_type(self, chosen: list[Memory], memory_type: MemoryType) -> None:
        pairs = [(m.id, m.version) for m in chosen if m.type != memory_type]
        change = MemoryEdit(type=memory_type)
        outcome = await attempt(
            lambda s, u: [memories.edit_memory(s, u, memory_id=i, changes=change, expected_version=v) for i, v in pairs]
        )
        if outcome.ok:
            ui.notify(f"{_count_text('Moved', len(chosen))} to {TYPE_SINGULAR[memory_type]}", type="positive")
        await self.memories_changed()


def _count_text(verb: str, count: int) -> str:
    return f"{verb} {count} {'memory' if count == 1 else 'memories'}"
