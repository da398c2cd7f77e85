"""Admin tab "Tokens": the coaching system's API tokens; create one (its secret shown once), revoke one.

A bad name or scope is shown at its field; each Revoke button names its token for a screen reader."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from nicegui import ui

from domain.api_tokens import create_token, list_tokens, revoke_token
from domain.enums import ApiScope
from domain.models import ApiToken
from ui.components.admin_common import attempt_at, day_text, set_aria_label, when
from ui.components.dialogs import one_at_a_time, titled_dialog
from ui.components.timeago import time_ago
from ui.components.turns import building_turn
from ui.components.typed_submit import on_submit
from ui.session import attempt

REVOKE_DIALOG = "revoke-dialog"

SCOPE_LABELS = {ApiScope.INGEST: "ingest (send notes in)", ApiScope.READ: "read (memories, context)"}


def _scope_words(scope: str) -> str:
    try:
        return SCOPE_LABELS[ApiScope(scope)]
    except ValueError:
        return scope


@dataclass(frozen=True)
class TokenRow:
    id: int
    name: str
    scopes: str
    created_at: datetime
    created_by: str | None
    last_used_at: datetime | None
    revoked_at: datetime | None

    @classmethod
    def of(cls, token: ApiToken) -> TokenRow:
        return cls(
            token.id,
            token.name,
            ", ".join(_scope_words(scope) for scope in token.scopes),
            token.created_at,
            token.created_by,
            token.last_used_at,
            token.revoked_at,
        )


class TokensTab:
    def __init__(self) -> None:
        self.rows: list[TokenRow] | None = None
        ui.label(
            "Tokens let the coaching system send notes in and read memory over the API. "
            "A token's secret is shown once, when it is made; only its hash is kept."
        ).classes("mr-muted")
        self._create_form()
        self.table()

    async def load(self) -> None:
        outcome = await attempt(lambda s, u: [TokenRow.of(t) for t in list_tokens(s, u)])
        self.rows = outcome.value
        async with building_turn():
            await self.table.refresh()  # awaited: built here, in the turn (else in a task of its own)

    def _create_form(self) -> None:
        with (
            ui.expansion("New token", icon="key").classes("w-full").mark("create-token"),
            ui.row().classes("items-end gap-2 w-full"),
        ):
            self.new_name = ui.input("Token name").props("dense autocomplete=off")
            self.new_scopes = (
                ui.select(
                    {scope.value: label for scope, label in SCOPE_LABELS.items()},
                    value=[ApiScope.READ.value],
                    multiple=True,
                    label="Scopes",
                )
                .props("dense")
                .classes("w-72")
            )
            self.create_button = ui.button("Create token", icon="add").mark("token-create")
            on_submit([(self.create_button, "click")], (self.new_name,), self.create)

    async def create(self) -> None:
        name = self.new_name.value or ""
        scopes = [str(s) for s in (self.new_scopes.value or [])]
        self.create_button.props("loading")
        try:
            made = await attempt_at(
                lambda s, u: (create_token(s, u, name=name, scopes=scopes).secret, name),
                {"name": self.new_name, "scopes": self.new_scopes},
            )
        finally:
            self.create_button.props(remove="loading")
        if made.value is None:
            return
        secret, token_name = made.value
        self.new_name.set_value("")
        self._show_secret(token_name, secret)
        await self.load()

    def _show_secret(self, name: str, secret: str) -> None:
        with titled_dialog(f"Token '{name}' created", marker="token-secret") as dialog:
            ui.label("Copy it now: it is not shown again.").classes("font-medium")
            field = ui.input("Token", value=secret).props("readonly dense").classes("w-full").mark("token-secret-value")
            with ui.row().classes("justify-end w-full gap-2"):
                ui.button(
                    "Copy token", icon="content_copy", color="brand", on_click=lambda: self._copy(field.value)
                ).props("flat")
                ui.button("Done", on_click=dialog.close)

    @staticmethod
    def _copy(secret: str) -> None:
        ui.clipboard.write(secret)
        ui.notify("Copied.", type="positive")

    @ui.refreshable_method
    def table(self) -> None:
        if self.rows is None:
            return
        if not self.rows:
            ui.label("No tokens yet.").classes("mr-muted")
            return
        with ui.column().classes("gap-2 w-full").mark("token-list"):
            for row in self.rows:
                self._row(row)

    def _row(self, row: TokenRow) -> None:
        with (
            ui.card().classes("mr-card w-full").props("flat bordered").mark(f"token-{row.name}"),
            ui.row().classes("items-center gap-3 w-full"),
        ):
            with ui.column().classes("gap-0 grow"):
                ui.label(f"#{row.id} {row.name}").classes("font-medium")
                with ui.row().classes("gap-3 mr-muted text-sm"):
                    ui.label(f"Scopes: {row.scopes}")
                    created = f"Created {day_text(row.created_at)}" + (
                        f" by {row.created_by}" if row.created_by else ""
                    )
                    ui.label(created).tooltip(when(row.created_at))
                    used = f"Last used {time_ago(row.last_used_at)}" if row.last_used_at else "Never used"
                    ui.label(used).tooltip(when(row.last_used_at))
                    if row.revoked_at:
                        ui.label(f"Revoked {day_text(row.revoked_at)}").classes("text-danger").tooltip(
                            when(row.revoked_at)
                        )
            if row.revoked_at is None:
                revoke = ui.button("Revoke", color="danger", on_click=lambda r=row: self.ask_revoke(r)).props("flat")
                set_aria_label(revoke, f"Revoke: {row.name}")

    @one_at_a_time(REVOKE_DIALOG)
    def ask_revoke(self, row: TokenRow) -> None:
        with titled_dialog(f"Revoke token '{row.name}'?", marker=REVOKE_DIALOG) as dialog:
            ui.label("Calls with it fail from now on (401). This cannot be undone.").classes("mr-muted")
            with ui.row().classes("justify-end w-full gap-2"):
                ui.button("Cancel", color="meta", on_click=dialog.close).props("flat")
                ui.button("Revoke", color="negative", on_click=lambda: self.revoke(row, dialog)).mark("revoke-confirm")

    async def revoke(self, row: TokenRow, dialog: ui.dialog) -> None:
        done = await attempt(lambda s, u: revoke_token(s, u, name_or_id=row.id).id)
        dialog.close()
        if done.ok:
            ui.notify(f"Token '{row.name}' revoked.", type="positive")
            await self.load()
