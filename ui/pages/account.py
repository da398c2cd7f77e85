"""/account: the athlete's own things beside their memory: what they deleted lately (one click brings
it back), their password, and in the desktop window the checks an admin runs on a server (the audit
log, clean-up), since there the whole database is the owner's.

What was deleted lately is read in a worker thread with the login, before anything is built; the page
is built in a turn of its own (ui/components/turns.py), as the Context page is."""

from __future__ import annotations

from nicegui import ui

from domain import account, memories
from domain.actors import SYSTEM
from domain.audit_checkpoints import record, verify
from domain.enums import Role
from domain.errors import DomainError, InvalidInput
from domain.models import Memory
from domain.recently_deleted import RecentlyDeleted, list_recently_deleted
from ui.auth import log_in
from ui.components.admin_audit import chain_text
from ui.components.admin_common import clear_error, show_error_at
from ui.components.admin_retention import RetentionTab
from ui.components.busy import busy
from ui.components.frame import frame
from ui.components.labels import TYPE_LABELS
from ui.components.text import clip
from ui.components.timeago import time_ago
from ui.components.turns import PAGE_RESPONSE_TIMEOUT_S, building_turn
from ui.components.typed_submit import on_submit
from ui.pages.guard import page_user_with
from ui.session import attempt, in_thread, write
from ui.window import in_desktop_window

RESTORE_DAYS = memories.UNDO_WINDOW.days


@ui.page("/account", response_timeout=PAGE_RESPONSE_TIMEOUT_S)
async def account_page() -> None:
    admitted = await page_user_with(Role.ATHLETE, list_recently_deleted)
    if admitted is None:
        return
    user, deleted = admitted
    desktop = in_desktop_window()
    async with building_turn():  # a bounded share of a loop turn (ui/components/turns.py)
        with frame(user, "Your account"):
            ui.label("Your account").classes("text-2xl font-semibold").props('role="heading" aria-level="1"')
            ui.link("← Back to your memory", "/").mark("back-home")
            RecentlyDeletedSection(deleted)
            if desktop:
                OwnerChecks()
            else:
                PasswordSection()


class RecentlyDeletedSection:
    def __init__(self, deleted: RecentlyDeleted) -> None:
        self.deleted = deleted
        with ui.element("section").classes("mr-section w-full").props('aria-labelledby="recently-deleted-title"'):
            ui.label("Recently deleted").classes("text-lg font-semibold").props(
                'id="recently-deleted-title" role="heading" aria-level="2"'
            )
            ui.label(
                f"What you deleted in the last {RESTORE_DAYS} days. Restore puts a memory back as it was."
            ).classes("mr-muted text-sm")
            self.render()

    @ui.refreshable_method
    def render(self) -> None:
        if not self.deleted.items:
            ui.label(f"Nothing deleted in the last {RESTORE_DAYS} days.").classes("mr-muted").mark("deleted-empty")
            return
        with ui.column().classes("w-full gap-1").mark("recently-deleted"):
            for memory in self.deleted.items:
                self._row(memory)
            if self.deleted.total > len(self.deleted.items):
                more = self.deleted.total - len(self.deleted.items)
                ui.label(f"… and {more:,} older ones: restore the newest first.").classes("mr-muted text-sm")

    def _row(self, memory: Memory) -> None:
        deleted = time_ago(memory.deleted_at) if memory.deleted_at else ""
        with ui.row().classes("w-full items-center justify-between no-wrap gap-2 py-1"):
            with ui.column().classes("gap-0 min-w-0"):
                ui.label(clip(memory.content, 140)).classes("mr-memory-text")
                ui.label(f"{TYPE_LABELS[memory.type]} · deleted {deleted}").classes("mr-muted text-sm")
            restore = ui.button(
                "Restore", icon="restore_from_trash", color="brand", on_click=lambda m=memory: self.restore(m)
            ).props("flat dense")
            # Set as a value, never inside a props string: a quote in the memory would end the value there.
            restore.props["aria-label"] = f"Restore: {clip(memory.content, 60)}"
            restore.mark(f"restore-{memory.id}")

    async def restore(self, memory: Memory) -> None:
        outcome = await attempt(lambda s, u: memories.undo_delete(s, u, memory_id=memory.id))
        if outcome.ok:
            ui.notify(f"Restored '{clip(memory.content)}'", type="positive")
        self.deleted = await in_thread(lambda s, u: list_recently_deleted(s, u))
        async with building_turn():
            await self.render.refresh()  # awaited: built here, in the turn (else in a task of its own)


class PasswordSection:
    def __init__(self) -> None:
        with ui.element("section").classes("mr-section w-full").props('aria-labelledby="password-title"'):
            ui.label("Change password").classes("text-lg font-semibold").props(
                'id="password-title" role="heading" aria-level="2"'
            )
            ui.label("Your other browsers are logged out; this one stays logged in.").classes("mr-muted text-sm")
            with ui.column().classes("gap-2 w-full max-w-sm"):
                self.current = _password_input("Current password", "password-current", "current-password")
                self.new = _password_input("New password", "password-new", "new-password")
                self.repeat = _password_input("New password again", "password-repeat", "new-password")
                self.save = ui.button("Change password", color="brand").mark("password-save")
                on_submit(
                    [(self.save, "click")], (self.current, self.new, self.repeat), lambda: busy(self.save, self.change)
                )

    async def change(self) -> None:
        clear_error(self.current, self.new, self.repeat)
        if not self.current.value:
            return _at(self.current, "Current password: type it first.")
        if self.new.value != self.repeat.value:
            return _at(self.repeat, "The two new passwords differ.")
        current, new = str(self.current.value), str(self.new.value)
        try:
            user = await write(lambda s, u: account.change_own_password(s, u, current=current, new=new))
        except InvalidInput as error:
            return _at(self.current if error.field == "current" else self.new, str(error))
        except DomainError as error:
            ui.notify(str(error), type="negative")
            return None
        log_in(user)  # this browser goes on under the new session epoch
        for field in (self.current, self.new, self.repeat):
            field.set_value("")
        ui.notify("Password changed. Your other browsers are logged out.", type="positive")
        return None


def _password_input(label: str, marker: str, autocomplete: str) -> ui.input:
    field = ui.input(label, password=True, password_toggle_button=True).classes("w-full").mark(marker)
    return field.props(f'autocomplete="{autocomplete}"')


def _at(field: ui.input, message: str) -> None:
    show_error_at(field, message, focus=True)


class OwnerChecks:
    """Desktop window only: the owner runs the admin's audit check and clean-up on their own database."""

    def __init__(self) -> None:
        with ui.element("section").classes("mr-section w-full").props('aria-labelledby="audit-title"'):
            ui.label("Audit log").classes("text-lg font-semibold").props(
                'id="audit-title" role="heading" aria-level="2"'
            )
            ui.label(
                "Every change to your memory is in a log that cannot be rewritten unnoticed. "
                "A check reads the events since the last one."
            ).classes("mr-muted text-sm")
            self.status = ui.label("Not checked yet.").mark("audit-status")
            self.check_button = ui.button("Check now", icon="verified", color="brand")
            self.check_button.on_click(lambda: busy(self.check_button, self.check))
            self.check_button.props("flat").mark("audit-check")
        with ui.element("section").classes("mr-section w-full").props('aria-labelledby="cleanup-title"'):
            ui.label("Clean-up").classes("text-lg font-semibold").props(
                'id="cleanup-title" role="heading" aria-level="2"'
            )
            self.retention = RetentionTab(actor=SYSTEM)
            ui.timer(0, self.retention.load, once=True)  # what a clean-up would remove now

    async def check(self) -> None:
        try:
            report = await in_thread(lambda s, _u: verify(s, SYSTEM))
            stored = await write(lambda s, _u: record(s, SYSTEM, report))
            self.status.set_text(chain_text(stored))
        except DomainError as error:
            self.status.set_text(f"Not checked: {error}")
