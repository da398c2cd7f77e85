"""/admin: the admin console. The open tab is in the address (/admin?tab=audit), so a link or a
reload opens it again; switching tabs updates the address without a reload. Tabs load (and record
the admin's view) when they are opened."""

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
from ui.components.data_transfer import AdminImportTab
from ui.components.frame import frame
from ui.pages.guard import page_user

TABS = {  # the address's name for a tab: its label and icon
    "deleted": ("Deleted", "restore_from_trash"),
    "audit": ("Audit log", "history"),
    "users": ("Users", "group"),
    "cleanup": ("Clean-up", "auto_delete"),
    "tokens": ("Tokens", "key"),
    "import": ("Import", "upload_file"),
}
FIRST_TAB = "deleted"


class Tab(Protocol):
    def load(self) -> Awaitable[None]: ...


def tab_address(name: str) -> str:
    return f"/admin?tab={name}"


@ui.page("/admin")
async def admin_page(tab: str = FIRST_TAB) -> None:
    user = await page_user(Role.ADMIN)
    if user is None:
        return
    opened = tab if tab in TABS else FIRST_TAB
    with frame(user, "Admin"):
        ui.label("Admin console").classes("text-2xl font-semibold").props('role="heading" aria-level="1"')
        with ui.tabs().classes("w-full").props("align=left") as tabs:
            for name, (label, icon) in TABS.items():
                ui.tab(name, label, icon=icon).mark(f"tab-{name}")
        views: dict[str, Tab] = {}
        with ui.tab_panels(tabs, value=opened).classes("w-full") as panels:
            with ui.tab_panel("deleted").classes("gap-3"):
                views["deleted"] = DeletedTab()
            with ui.tab_panel("audit").classes("gap-3"):
                audit = AuditTab()
                views["audit"] = audit
            with ui.tab_panel("users").classes("gap-3"):
                views["users"] = UsersTab()
            with ui.tab_panel("cleanup").classes("gap-3"):
                views["cleanup"] = RetentionTab()
            with ui.tab_panel("tokens").classes("gap-3"):
                views["tokens"] = TokensTab()
            with ui.tab_panel("import").classes("gap-3"):
                views["import"] = AdminImportTab()

        async def show(name: str) -> None:
            if name == "audit":
                audit.check_chain()
            await views[name].load()

        async def switched(name: str) -> None:
            ui.navigate.history.replace(tab_address(name))
            await show(name)

        panels.on_value_change(lambda event: switched(str(event.value)))
        await show(opened)
