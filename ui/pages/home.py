"""/: the Context page. The athlete sees, reviews and corrects what the coach remembers."""

from __future__ import annotations

from nicegui import ui
from sqlalchemy.orm import Session

from domain import memories
from domain.enums import Role
from domain.models import Memory, User
from domain.overview import Overview, overview
from ui import runtime
from ui.components.filters import MemoryFilters, filter_bar
from ui.components.frame import frame
from ui.components.history_dialog import open_history_dialog
from ui.components.memory_card import MemoryActions
from ui.components.memory_dialog import open_add_dialog, open_edit_dialog
from ui.components.memory_list import MemoryList
from ui.components.overview import OverviewPanel
from ui.components.review import ReviewSection
from ui.components.text import clip
from ui.components.undo_bar import UndoBar
from ui.pages.guard import page_user
from ui.session import attempt, in_thread, read, tab_action

MAX_ID = 2**63 - 1


@ui.page("/")
def context_page(memory: str | None = None) -> None:
    user = page_user(Role.ATHLETE)
    if user is None:
        return
    with frame(user, "Your memory"):
        page = ContextPage()
    if memory is not None:  # a link to one memory opens its history (only one's own: others are "not found")
        memory_id = int(memory) if memory.isascii() and memory.isdigit() else 0
        if 1 <= memory_id <= MAX_ID:
            page.history(memory_id)
        else:
            ui.notify("Memory not found.", type="warning")


class ContextPage:
    def __init__(self) -> None:
        self.filters = MemoryFilters()
        with ui.row().classes("w-full items-center justify-between gap-2"):
            ui.label("What your coach remembers").classes("text-2xl font-semibold").props(
                'role="heading" aria-level="1"'
            )
            ui.button("Add memory", icon="add", on_click=self.add).mark("add-memory")
        self.overview = OverviewPanel(read(self._overview))
        with ui.element("section").classes("mr-section mr-review w-full").props('aria-label="To review"'):
            self.review = ReviewSection(on_decided=self.changed)
            self.review.render()
        with ui.element("section").classes("mr-section w-full").props('aria-label="Memories"').mark("memories"):
            ui.label("Memories").classes("mr-section-title").props('role="heading" aria-level="2"')
            clear_filters = filter_bar(self.filters, lambda: self.memories.reload(from_start=True))
            actions = MemoryActions(edit=self.edit, delete=self.delete, history=lambda m: self.history(m.id))
            self.memories = MemoryList(self.filters, actions, on_add=self.add, on_clear_filters=clear_filters)
            self.memories.render()
        self.undo = UndoBar()

    @staticmethod
    def _overview(session: Session, user: User) -> Overview:
        return overview(session, user, proposal_max_age=runtime.current().settings.proposal_max_age)

    async def memories_changed(self) -> None:
        self.overview.update(await in_thread(self._overview))
        await self.memories.reload()

    async def changed(self) -> None:
        await self.review.reload()
        await self.memories_changed()

    def add(self) -> None:
        open_add_dialog(self.memories_changed)

    def edit(self, memory: Memory) -> None:
        open_edit_dialog(memory, self.memories_changed)

    def history(self, memory_id: int) -> None:
        open_history_dialog(memory_id, self.memories_changed)

    @tab_action
    async def delete(self, memory: Memory) -> None:
        outcome = await attempt(
            lambda s, u: memories.delete_memory(s, u, memory_id=memory.id, expected_version=memory.version)
        )
        if outcome.ok:
            self.undo.show(f"Deleted '{clip(memory.content)}'", lambda: self.undo_delete(memory))
        await self.memories_changed()

    async def undo_delete(self, memory: Memory) -> None:
        outcome = await attempt(lambda s, u: memories.undo_delete(s, u, memory_id=memory.id))
        if outcome.ok:
            ui.notify(f"Brought back '{clip(memory.content)}'", type="positive")
        await self.memories_changed()
