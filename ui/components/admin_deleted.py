"""Admin tab "Deleted": soft-deleted memories across athletes; restore or delete for good."""

from __future__ import annotations

from dataclasses import replace

from nicegui import ui
from sqlalchemy.orm import Session

from domain.admin_deleted import DeletedPage, DeletedQuery, delete_permanently, list_deleted, restore_selected
from domain.memories import restore_memory
from domain.models import User
from domain.users import athlete_choices
from ui.components.admin_common import date_input, pager, parse_day, set_aria_label, when
from ui.components.labels import TYPE_SINGULAR
from ui.components.text import clip
from ui.components.timeago import time_ago
from ui.session import attempt, read

PAGE_SIZE = 20
ALL = 0


class DeletedTab:
    def __init__(self) -> None:
        self.query = DeletedQuery(page_size=PAGE_SIZE)
        self.selected: set[int] = set()
        self.page_data: DeletedPage | None = None
        self.restore_ids: list[int] = []
        self.delete_row: tuple[int, str, str] | None = None  # memory id, username, content
        athletes = read(athlete_choices)
        with ui.row().classes("items-end gap-2 w-full").mark("deleted-filters"):
            self.text = ui.input("Search deleted memories").props("outlined dense clearable").classes("w-64")
            self.text.on("keydown.enter", self.search)
            self.athlete = ui.select({ALL: "All athletes", **athletes}, value=ALL, label="Athlete")
            self.athlete.props("outlined dense").classes("w-44")
            self.since = date_input("Deleted from")
            self.until = date_input("Deleted until")
            ui.button("Search", icon="search", on_click=self.search).props("no-caps unelevated color=teal-8").mark(
                "deleted-search"
            )
        self.restore_dialog = self._restore_dialog()
        self.delete_dialog = self._delete_dialog()
        self.results()

    async def load(self) -> None:
        query = self.query
        self.page_data = (await attempt(lambda s, u: list_deleted(s, u, query=query))).value
        visible = {row.memory_id for row in self.page_data.rows} if self.page_data else set()
        self.selected &= visible
        self.results.refresh()

    async def search(self) -> None:
        self.query = DeletedQuery(
            text=self.text.value or "",
            athlete_id=self.athlete.value or None,
            deleted_from=parse_day(self.since.value),
            deleted_to=parse_day(self.until.value),
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
                "Restore selected", icon="restore", on_click=lambda: self.ask_restore(sorted(self.selected))
            ).props("no-caps outline color=teal-8")
            self.restore_many.mark("restore-selected")
            self.selection_note = ui.label("").classes("mr-muted").props('aria-live="polite"')
            self.show_selection()
        if not data.rows:
            ui.label("No deleted memories match.").classes("mr-muted").mark("deleted-empty")
        for row in data.rows:
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
                        deleted = f"Deleted {time_ago(row.deleted_at)}" if row.deleted_at else "Deleted"
                        ui.label(f"{deleted} by {row.deleted_by or 'unknown'}").tooltip(when(row.deleted_at))
                with ui.row().classes("gap-1 no-wrap"):
                    ui.button("Restore", on_click=lambda mid=row.memory_id: self.ask_restore([mid])).props(
                        "no-caps flat"
                    ).classes("mr-btn-brand")
                    ui.button(
                        "Delete permanently",
                        on_click=lambda r=row: self.ask_delete(r.memory_id, r.athlete_username, r.content),
                    ).props("no-caps flat").classes("mr-btn-danger")
        pager(
            status=f"Page {data.page} of {data.pages} · {data.total:,} deleted",
            on_previous=(lambda: self.go_to(data.page - 1)) if data.page > 1 else None,
            on_next=(lambda: self.go_to(data.page + 1)) if data.page < data.pages else None,
            marker="deleted-pager",
        )

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
    def _restore_dialog(self) -> ui.dialog:
        with ui.dialog() as dialog, ui.card().classes("w-96").mark("restore-dialog"):
            self.restore_title = ui.label("").classes("text-lg font-semibold")
            ui.label("The memory goes back to the athlete's page. The restore is audited.").classes("mr-muted")
            self.reason = ui.input("Reason (optional)").props("outlined dense maxlength=500").classes("w-full")
            self.reason.on("keydown.enter", self.restore)
            with ui.row().classes("justify-end w-full"):
                ui.button("Cancel", on_click=dialog.close).props("flat no-caps").classes("mr-btn-meta")
                ui.button("Restore", on_click=self.restore).props("no-caps unelevated color=teal-8").mark(
                    "restore-confirm"
                )
        return dialog

    def ask_restore(self, memory_ids: list[int]) -> None:
        if not memory_ids:
            return
        self.restore_ids = memory_ids
        count = len(memory_ids)
        self.restore_title.set_text("Restore this memory?" if count == 1 else f"Restore {count} memories?")
        self.reason.set_value("")
        self.restore_dialog.open()

    async def restore(self) -> None:
        ids, reason = self.restore_ids, self.reason.value
        if len(ids) == 1:
            done = await attempt(lambda s, u: [restore_memory(s, u, memory_id=ids[0], reason=reason)])
        else:
            done = await attempt(lambda s, u: restore_selected(s, u, memory_ids=ids, reason=reason))
        if not done.ok:
            return
        self.restore_dialog.close()
        self.selected -= set(ids)
        ui.notify("Memory restored." if len(ids) == 1 else f"{len(ids)} memories restored.", type="positive")
        await self.load()

    # Delete permanently: the admin types the athlete's username to confirm.
    def _delete_dialog(self) -> ui.dialog:
        with ui.dialog() as dialog, ui.card().classes("w-[28rem]").mark("delete-dialog"):
            ui.label("Delete permanently?").classes("text-lg font-semibold")
            self.delete_preview = ui.label("").classes("mr-memory-text")
            self.delete_hint = ui.label("")
            self.typed = ui.input("Athlete's username").props("outlined dense autocomplete=off").classes("w-full")
            self.typed.on("keydown.enter", self.delete)
            self.delete_reason = ui.input("Reason (optional)").props("outlined dense maxlength=500").classes("w-full")
            with ui.row().classes("justify-end w-full"):
                ui.button("Cancel", on_click=dialog.close).props("flat no-caps").classes("mr-btn-meta")
                ui.button("Delete permanently", on_click=self.delete).props("no-caps unelevated color=negative").mark(
                    "delete-confirm"
                )
        return dialog

    def ask_delete(self, memory_id: int, username: str, content: str) -> None:
        self.delete_row = (memory_id, username, content)
        self.delete_preview.set_text(content)
        self.delete_hint.set_text(
            f"This cannot be undone: the memory is removed and its content redacted from the audit log. "
            f"Type {username} to confirm."
        )
        self.typed.set_value("")
        self.delete_reason.set_value("")
        self.delete_dialog.open()

    async def delete(self) -> None:
        if self.delete_row is None:
            return
        memory_id = self.delete_row[0]
        typed, reason = self.typed.value or "", self.delete_reason.value

        def remove(session: Session, admin: User) -> bool:
            delete_permanently(session, admin, memory_id=memory_id, typed_username=typed, reason=reason)
            return True

        if not (await attempt(remove)).ok:
            return
        self.delete_dialog.close()
        self.delete_row = None
        self.delete_preview.set_text("")
        self.selected.discard(memory_id)
        ui.notify("Memory deleted permanently.", type="positive")
        await self.load()
