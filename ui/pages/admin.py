"""/admin: the admin console. Tabs load (and record the admin's view) when they are opened."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Protocol

from nicegui import ui

from domain.enums import Role
from ui.components.admin_audit import AuditTab
from ui.components.admin_deleted import DeletedTab
from ui.components.admin_retention import RetentionTab
from ui.components.admin_tokens import TokensTab
from ui.components.admin_users import UsersTab
from ui.components.frame import frame
from ui.pages.guard import page_user


class Tab(Protocol):
    def load(self) -> Awaitable[None]: ...


@ui.page("/admin")
async def admin_page() -> None:
    user = page_user(Role.ADMIN)
    if user is None:
        return
    with frame(user, "Admin"):
        ui.label("Admin console").classes("text-2xl font-semibold")
        with ui.tabs().classes("w-full").props("align=left") as tabs:
            ui.tab("deleted", "Deleted", icon="restore_from_trash")
            ui.tab("audit", "Audit log", icon="history")
            ui.tab("users", "Users", icon="group")
            ui.tab("retention", "Retention", icon="auto_delete")
            ui.tab("tokens", "Tokens", icon="key")
        views: dict[str, Tab] = {}
        with ui.tab_panels(tabs, value="deleted").classes("w-full") as panels:
            with ui.tab_panel("deleted").classes("gap-3"):
                views["deleted"] = DeletedTab()
            with ui.tab_panel("audit").classes("gap-3"):
                audit = AuditTab()
                views["audit"] = audit
            with ui.tab_panel("users").classes("gap-3"):
                views["users"] = UsersTab()
            with ui.tab_panel("retention").classes("gap-3"):
                views["retention"] = RetentionTab()
            with ui.tab_panel("tokens").classes("gap-3"):
                views["tokens"] = TokensTab()

        async def show(name: str) -> None:
            if name == "audit":
                audit.check_chain()
            await views[name].load()

        panels.on_value_change(lambda event: show(str(event.value)))
        await views["deleted"].load()
