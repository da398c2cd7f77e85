"""Admin tab "Users": accounts with role, status and last login; create, reset, disable, change role.

The search applies as the admin types; bad input is shown at the field it is about; every row's
buttons name the account they act on, for a screen reader."""

from __future__ import annotations

from functools import partial

from nicegui import ui

from domain.enums import Role
from domain.models import User
from domain.users import UserPage, change_role, create_user, list_users, reset_password, set_disabled
from ui.components.admin_common import Latest, Pager, attempt_at, day_text, live_text, set_aria_label, when
from ui.components.dialogs import one_at_a_time, titled_dialog
from ui.components.fragment import Fragment
from ui.components.timeago import time_ago
from ui.components.turns import build_in_turns, building_turn
from ui.components.typed_submit import on_submit
from ui.session import attempt

RESET_DIALOG = "reset-dialog"

PAGE_SIZE = 20
ROLE_LABELS = {Role.ATHLETE: "Athlete", Role.ADMIN: "Admin"}
ANY_ROLE = ""


class UsersTab:
    def __init__(self) -> None:
        self.text_filter = ""
        self.role_filter: Role | None = None
        self.page_number = 1
        self.page_data: UserPage | None = None
        self.cards: Fragment | None = None  # where `load` builds the cards `results` makes room for
        self.latest = Latest()
        self._create_form()
        with ui.row().classes("items-start gap-2 w-full").mark("user-filters"):
            self.search = live_text("Search users", self.apply).mark("users-search")
            self.role = ui.select({ANY_ROLE: "All roles", **ROLE_LABELS}, value=ANY_ROLE, label="Role")
            self.role.props("dense").classes("w-36").on_value_change(self.apply)
        self.results()
        self.pager = Pager(marker="users-pager", on_page=self.go_to)

    async def load(self) -> None:
        text, role, page = self.text_filter, self.role_filter, self.page_number
        ticket = self.latest.ticket()
        outcome = await attempt(lambda s, u: list_users(s, u, text=text, role=role, page=page, page_size=PAGE_SIZE))
        if not self.latest.is_current(ticket):
            return  # a newer search is on its way
        self.page_data = data = outcome.value
        async with building_turn():  # ui/components/turns.py
            await self.results.refresh()  # awaited: built here, in the turn (else in a task of its own)
        if data is not None and self.cards is not None:
            current = partial(self.latest.is_current, ticket)
            if not await build_in_turns(data.users, self._user_row, into=self.cards, wanted=current):
                return  # a newer load replaces these cards
            self.pager.show(
                page=data.page, pages=data.pages, status=f"Page {data.page} of {data.pages} · {data.total:,} users"
            )

    async def apply(self) -> None:
        self.text_filter = self.search.value or ""
        self.role_filter = Role(self.role.value) if self.role.value else None
        self.page_number = 1
        await self.load()

    async def go_to(self, page: int) -> None:
        self.page_number = page
        await self.load()

    @ui.refreshable_method
    def results(self) -> None:
        data = self.page_data
        if data is None:
            return
        if not data.users:
            ui.label("No users match.").classes("mr-muted")
        self.cards = Fragment()  # up to 20 cards of a dozen elements each, built a few per turn by `load`

    def _user_row(self, user: User) -> None:
        with (
            ui.card().classes("mr-card w-full").props("flat bordered").mark(f"user-{user.username}"),
            ui.row().classes("items-center gap-3 w-full"),
        ):
            with ui.column().classes("gap-0 grow"):
                ui.label(f"{user.display_name} ({user.username})").classes("font-medium")
                with ui.row().classes("gap-3 mr-muted text-sm"):
                    ui.label(ROLE_LABELS[user.role])
                    ui.label("Disabled" if user.disabled else "Active").classes("text-danger" if user.disabled else "")
                    last = f"Last login {time_ago(user.last_login_at)}" if user.last_login_at else "Never logged in"
                    ui.label(last).tooltip(when(user.last_login_at))
                    ui.label(f"Since {day_text(user.created_at)}")
            with ui.row().classes("gap-1"):
                reset = ui.button(
                    "Reset password", color="brand", on_click=lambda u=user: self.ask_reset(u.id, u.username)
                ).props("flat")
                toggle = ui.button(
                    "Enable" if user.disabled else "Disable",
                    color="brand" if user.disabled else "danger",
                    on_click=lambda u=user: self.toggle_disabled(u.id, not u.disabled),
                ).props("flat")
                target = Role.ATHLETE if user.role == Role.ADMIN else Role.ADMIN
                role = ui.button(
                    f"Make {ROLE_LABELS[target].lower()}",
                    color="brand",
                    on_click=lambda u=user, r=target: self.set_role(u.id, r),
                ).props("flat")
                for button in (reset, toggle, role):
                    set_aria_label(button, f"{button.text}: {user.username}")

    async def toggle_disabled(self, user_id: int, disabled: bool) -> None:
        changed = await attempt(lambda s, u: set_disabled(s, u, user_id=user_id, disabled=disabled).username)
        if changed.ok:
            ui.notify(f"{changed.value} {'disabled' if disabled else 'enabled'}.", type="positive")
            await self.load()

    async def set_role(self, user_id: int, role: Role) -> None:
        changed = await attempt(lambda s, u: change_role(s, u, user_id=user_id, role=role).username)
        if changed.ok:
            ui.notify(f"{changed.value} is now {ROLE_LABELS[role].lower()}.", type="positive")
            await self.load()

    # Create an account.
    def _create_form(self) -> None:
        with (
            ui.expansion("New user", icon="person_add").classes("w-full").mark("create-user"),
            ui.row().classes("items-end gap-2 w-full"),
        ):
            self.new_username = ui.input("Username").props("dense autocomplete=off")
            self.new_name = ui.input("Display name").props("dense autocomplete=off")
            self.new_role = ui.select(ROLE_LABELS, value=Role.ATHLETE, label="Role").props("dense").classes("w-32")
            self.new_password = ui.input("Initial password", password=True, password_toggle_button=True)
            self.new_password.props("dense autocomplete=new-password")
            self.create_button = ui.button("Create user", icon="add").mark("user-create")
            on_submit(
                [(self.create_button, "click")], (self.new_username, self.new_name, self.new_password), self.create
            )

    async def create(self) -> None:
        username, password = self.new_username.value or "", self.new_password.value or ""
        name, role = self.new_name.value or None, Role(self.new_role.value)
        fields = {"username": self.new_username, "display_name": self.new_name, "password": self.new_password}
        self.create_button.props("loading")
        try:
            created = await attempt_at(
                lambda s, u: (
                    create_user(s, u, username=username, password=password, role=role, display_name=name).username
                ),
                fields,
            )
        finally:
            self.create_button.props(remove="loading")
        if not created.ok:
            return
        for field in (self.new_username, self.new_name, self.new_password):
            field.set_value("")
        ui.notify(f"Created {ROLE_LABELS[role].lower()} {created.value}.", type="positive")
        await self.load()

    # Reset a password (ends that user's sessions).
    @one_at_a_time(RESET_DIALOG)
    def ask_reset(self, user_id: int, username: str) -> None:
        async def reset() -> None:
            password = new_password.value or ""
            done = await attempt_at(
                lambda s, u: reset_password(s, u, user_id=user_id, new_password=password).id,
                {"password": new_password},
                fallback=new_password,
            )
            if not done.ok:
                return
            dialog.close()
            ui.notify(f"Password of {username} reset; their sessions ended.", type="positive")
            await self.load()

        with titled_dialog(f"Reset the password of {username}", marker=RESET_DIALOG) as dialog:
            ui.label("Their open sessions end; tell them the new password another way.").classes("mr-muted")
            new_password = ui.input("New password", password=True, password_toggle_button=True)
            new_password.props("dense autofocus autocomplete=new-password").classes("w-full")
            new_password.on("keydown.enter", reset)
            with ui.row().classes("justify-end w-full gap-2"):
                ui.button("Cancel", color="meta", on_click=dialog.close).props("flat")
                ui.button("Set password", on_click=reset).mark("reset-confirm")
