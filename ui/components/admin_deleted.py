"""Admin tab "Deleted": soft-deleted memories across athletes; restore or delete permanently.

Filters apply as they change (the text once typing pauses). Every row's controls name the memory
they act on, for a screen reader; a dialog's bad input is shown at its field."""

from __future__ import annotations

from dataclasses import replace
from functools import partial

from nicegui import ui
from sqlalchemy.orm import Session

from domain.admin_deleted import (
    DeletedPage,
    DeletedQuery,
    DeletedRow,
    delete_permanently,
    list_deleted,
    restore_selected,
)
from domain.memories import restore_memory
from domain.models import User
from ui.components.admin_common import DayInput, Latest, Pager, attempt_at, day_text, live_text, set_aria_label, when
from ui.components.dialogs import one_at_a_time, titled_dialog
from ui.components.fragment import Fragment
from ui.components.labels import TYPE_SINGULAR
from ui.components.text import clip
from ui.components.timeago import time_ago
from ui.components.turns import build_in_turns, building_turn
from ui.session import attempt

RESTORE_DIALOG = "restore-dialog"
DELETE_DIALOG = "delete-dialog"

PAGE_SIZE = 20
ALL = 0


class DeletedTab:
    def __init__(self, athletes: dict[int, str]) -> None:
        """`athletes`: id → username, for the athlete filter (read with the page, off the event loop)."""
        self.query = DeletedQuery(page_size=PAGE_SIZE)
        self.selected: set[int] = set()
        self.page_data: DeletedPage | None = None
        self.cards: Fragment | None = None  # where `load` builds the cards `results` makes room for
        self.latest = Latest()
        with ui.row().classes("items-start gap-2 w-full").mark("deleted-filters"):
            self.text = live_text("Search deleted memories", self.search).mark("deleted-search")
            self.athlete = ui.select({ALL: "All athletes", **athletes}, value=ALL, label="Athlete")
            self.athlete.props("dense").classes("w-44").on_value_change(self.search)
            self.since = DayInput("Deleted from", on_change=self.search)
            self.until = DayInput("Deleted until", on_change=self.search)
        self.results()
        self.pager = Pager(marker="deleted-pager", on_page=self.go_to)

    async def load(self) -> None:
        query = self.query
        ticket = self.latest.ticket()
        data = (await attempt(lambda s, u: list_deleted(s, u, query=query))).value
        if not self.latest.is_current(ticket):
            return  # a newer choice of filters is on its way
        self.page_data = data
        visible = {row.memory_id for row in data.rows} if data else set()
        self.selected &= visible
        async with building_turn():  # the buttons above the cards (ui/components/turns.py)
            await self.results.refresh()  # awaited: built here, in the turn (else in a task of its own)
        if data is not None and self.cards is not None:
            current = partial(self.latest.is_current, ticket)
            if not await build_in_turns(data.rows, self._card, into=self.cards, wanted=current):
                return  # a newer load replaces these cards
            status = f"Page {data.page} of {data.pages} · {data.total:,}{'+' if data.capped else ''} deleted"
            self.pager.show(page=data.page, pages=data.pages, status=status)

    async def search(self) -> None:
        self.query = DeletedQuery(
            text=self.text.value or "",
            athlete_id=self.athlete.value or None,
            deleted_from=self.since.day,
            deleted_to=self.until.day,
            page=1,
            page_size=PAGE_SIZE,
        )
        await self.load()

    async def go_to(self, page: int) -> None:
        self.query = replace(self.query, page=page)
        await self.load()

    @ui.refreshable_method
    def results(self) -> None:
        data = self.page_data
        if data is None:
            return
        with ui.row().classes("items-center gap-2"):
            self.restore_many = ui.button(
                "Restore selected",
                icon="restore",
                color="brand",
                on_click=lambda: self.ask_restore(sorted(self.selected)),
            ).props("outline")
            self.restore_many.mark("restore-selected")
            self.selection_note = ui.label("").classes("mr-muted").props('aria-live="polite"')
            self.show_selection()
        if not data.rows:
            ui.label("No deleted memories match.").classes("mr-muted").mark("deleted-empty")
        self.cards = Fragment()  # up to 20 cards of a dozen elements each, built a few per turn by `load`

    def _card(self, row: DeletedRow) -> None:
        with (
            ui.card().classes("mr-card w-full").props("flat bordered").mark(f"deleted-{row.memory_id}"),
            ui.row().classes("items-start gap-3 w-full no-wrap"),
        ):
            box = ui.checkbox(value=row.memory_id in self.selected)
            box.on_value_change(lambda e, mid=row.memory_id: self.toggle(mid, bool(e.value)))
            set_aria_label(box, f"Select: {clip(row.content)}")
            with ui.column().classes("gap-1 grow"):
                ui.label(row.content).classes("mr-memory-text")
                with ui.row().classes("gap-3 mr-muted text-sm"):
                    ui.label(f"{row.athlete_name} ({row.athlete_username})")
                    ui.label(TYPE_SINGULAR[row.type])
                    deleted = f"Deleted {day_text(row.deleted_at)}" if row.deleted_at else "Deleted"
                    ago = f" ({time_ago(row.deleted_at)})" if row.deleted_at else ""
                    ui.label(f"{deleted}{ago} by {row.deleted_by or 'unknown'}").tooltip(when(row.deleted_at))
            with ui.row().classes("gap-1 no-wrap"):
                restore = ui.button(
                    "Restore", color="brand", on_click=lambda mid=row.memory_id: self.ask_restore([mid])
                ).props("flat")
                set_aria_label(restore, f"Restore: {clip(row.content)}")
                delete = ui.button(
                    "Delete permanently",
                    color="danger",
                    on_click=lambda r=row: self.ask_delete(r.memory_id, r.athlete_username, r.content),
                ).props("flat")
                set_aria_label(delete, f"Delete permanently: {clip(row.content)}")

    def toggle(self, memory_id: int, checked: bool) -> None:
        if checked:
            self.selected.add(memory_id)
        else:
            self.selected.discard(memory_id)
        self.show_selection()

    def show_selection(self) -> None:
        """Updated in place, so the checkbox just used keeps the keyboard focus."""
        count = len(self.selected)
        self.restore_many.set_enabled(count > 0)
        self.selection_note.set_text(f"{count} selected" if count else "")

    # Restore, one or several, with an optional reason.
    @one_at_a_time(RESTORE_DIALOG)
    def ask_restore(self, memory_ids: list[int]) -> None:
        if not memory_ids:
            return
        count = len(memory_ids)

        async def restore() -> None:
            reason = reason_input.value
            fields = {"reason": reason_input}
            if count == 1:
                done = await attempt_at(
                    lambda s, u: [restore_memory(s, u, memory_id=memory_ids[0], reason=reason)], fields
                )
            else:
                done = await attempt_at(
                    lambda s, u: restore_selected(s, u, memory_ids=memory_ids, reason=reason), fields
                )
            if not done.ok:
                return
            dialog.close()
            self.selected -= set(memory_ids)
            ui.notify("Memory restored." if count == 1 else f"{count} memories restored.", type="positive")
            await self.load()

        title = "Restore this memory?" if count == 1 else f"Restore {count} memories?"
        with titled_dialog(title, marker=RESTORE_DIALOG) as dialog:
            ui.label("The memory goes back to the athlete's page. The restore is audited.").classes("mr-muted")
            reason_input = ui.input("Reason (optional)").props("dense autofocus maxlength=500").classes("w-full")
            reason_input.on("keydown.enter", restore)
            with ui.row().classes("justify-end w-full gap-2"):
                ui.button("Cancel", color="meta", on_click=dialog.close).props("flat")
                ui.button("Restore", on_click=restore).mark("restore-confirm")

    # Delete permanently: the admin types the athlete's username to confirm.
    @one_at_a_time(DELETE_DIALOG)
    def ask_delete(self, memory_id: int, username: str, content: str) -> None:
        async def delete() -> None:
            typed, reason = typed_input.value or "", reason_input.value

            def remove(session: Session, admin: User) -> bool:
                delete_permanently(session, admin, memory_id=memory_id, typed_username=typed, reason=reason)
                return True

            if not (await attempt_at(remove, {"confirmation": typed_input, "reason": reason_input})).ok:
                return
            dialog.close()
            self.selected.discard(memory_id)
            ui.notify("Memory deleted permanently.", type="positive")
            await self.load()

        with titled_dialog("Delete permanently?", marker=DELETE_DIALOG) as dialog:
            ui.label(content).classes("mr-memory-text")
            ui.label(
                "This cannot be undone: the memory is removed and its content redacted from the audit log. "
                f"Type {username} to confirm."
            )
            typed_input = ui.input("Athlete's username").props("dense autofocus autocomplete=off").classes("w-full")
            typed_input.on("keydown.enter", delete)
            reason_input = ui.input("Reason (optional)").props("dense maxlength=500").classes("w-full")
            with ui.row().classes("justify-end w-full gap-2"):
                ui.button("Cancel", color="meta", on_click=dialog.close).props("flat")
                ui.button("Delete permanently", color="negative", on_click=delete).mark("delete-confirm")
