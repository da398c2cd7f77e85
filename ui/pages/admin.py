"""/admin: the admin console. The open tab is in the address (/admin?tab=audit), so a link or a
reload opens it again; switching tabs updates the address without a reload. A tab is built and
loaded (recording the admin's view) when it is first opened, and loaded again each time.

The names the filters offer (athletes, people) are read in a worker thread with the admin's login,
before anything is built; the page, and later each tab, is built in a turn of its own
(ui/components/turns.py), so an admin opening the console while many pages open does not stall the loop."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol

from nicegui import ui
from sqlalchemy.orm import Session

from domain.enums import Role
from domain.models import User
from domain.users import athlete_choices, user_choices
from ui.components.admin_audit import AuditTab
from ui.components.admin_deleted import DeletedTab
from ui.components.admin_retention import RetentionTab
from ui.components.admin_tokens import TokensTab
from ui.components.admin_users import UsersTab
from ui.components.data_transfer import AdminImportTab
from ui.components.frame import frame
from ui.components.turns import PAGE_RESPONSE_TIMEOUT_S, building_turn
from ui.pages.guard import page_user_with

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


@dataclass(frozen=True)
class ConsoleData:
    """What the console's filters offer, read before the page is built."""

    athletes: dict[int, str]  # id → username
    people: dict[int, str]  # every account, for the audit log's "By"


def _console_data(session: Session, admin: User) -> ConsoleData:
    return ConsoleData(athletes=athlete_choices(session, admin), people=user_choices(session, admin))


BUILDERS: dict[str, Callable[[ConsoleData], Tab]] = {
    "deleted": lambda data: DeletedTab(data.athletes),
    "audit": lambda data: AuditTab(people=data.people, athletes=data.athletes),
    "users": lambda _data: UsersTab(),
    "cleanup": lambda _data: RetentionTab(),
    "tokens": lambda _data: TokensTab(),
    "import": lambda _data: AdminImportTab(),
}


def tab_address(name: str) -> str:
    return f"/admin?tab={name}"


@ui.page("/admin", response_timeout=PAGE_RESPONSE_TIMEOUT_S)
async def admin_page(tab: str = FIRST_TAB) -> None:
    admitted = await page_user_with(Role.ADMIN, _console_data)
    if admitted is None:
        return
    user, data = admitted
    opened = tab if tab in TABS else FIRST_TAB
    async with building_turn():  # a bounded share of a loop turn (ui/components/turns.py)
        with frame(user, "Admin"):
            console = AdminConsole(data, opened)
    await console.show(opened)


class AdminConsole:
    def __init__(self, data: ConsoleData, opened: str) -> None:
        self.data = data
        self.views: dict[str, Tab] = {}
        ui.label("Admin console").classes("text-2xl font-semibold").props('role="heading" aria-level="1"')
        with ui.tabs().classes("w-full").props("align=left") as tabs:
            for name, (label, icon) in TABS.items():
                ui.tab(name, label, icon=icon).mark(f"tab-{name}")
        with ui.tab_panels(tabs, value=opened).classes("w-full") as panels:
            self.panels = {name: ui.tab_panel(name).classes("gap-3") for name in TABS}
        self._build(opened)  # in the page's turn; the others when first opened
        panels.on_value_change(lambda event: self.switched(str(event.value)))

    def _build(self, name: str) -> Tab:
        view = self.views.get(name)
        if view is None:
            with self.panels[name]:
                view = self.views[name] = BUILDERS[name](self.data)
        return view

    async def show(self, name: str) -> None:
        if name not in self.views:
            async with building_turn():
                self._build(name)
        view = self.views[name]
        if isinstance(view, AuditTab):
            view.check_chain()
        await view.load()

    async def switched(self, name: str) -> None:
        ui.navigate.history.replace(tab_address(name))
        await self.show(name)
