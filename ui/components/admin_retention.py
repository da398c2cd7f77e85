"""Admin tab "Clean-up": what a clean-up would remove now (retention periods), then "Clean up now"
removes exactly that. One name for the action on the tab, in its dialog and in its notices."""

from __future__ import annotations

from nicegui import ui

from domain.actors import Actor
from domain.retention import PurgePlan, plan_purge, run_purge
from persistence.settings import retention_periods
from ui import runtime
from ui.components.admin_common import day_text, when
from ui.components.admin_words import CLEAN_UP
from ui.components.dialogs import one_at_a_time, titled_dialog
from ui.components.text import clip
from ui.components.turns import building_turn
from ui.session import attempt

PURGE_DIALOG = "purge-dialog"

SHOWN = 20


class RetentionTab:
    def __init__(self, *, actor: Actor | None = None) -> None:
        """`actor`: who plans and runs the clean-up; by default the logged-in admin. The desktop window's
        owner runs it as the application itself (ui/pages/account.py)."""
        self.actor = actor
        self.plan: PurgePlan | None = None
        ui.label(
            "A clean-up removes what is older than the retention periods. Audit events are never removed: "
            "the chain keeps every one, and each memory a clean-up removes leaves an audit event of its own."
        ).classes("mr-muted")
        self.summary()

    async def load(self) -> None:
        periods = retention_periods(runtime.current().settings)
        self.plan = (await attempt(lambda s, u: plan_purge(s, self.actor or u, periods=periods))).value
        async with building_turn():
            await self.summary.refresh()  # awaited: built here, in the turn (else in a task of its own)

    @ui.refreshable_method
    def summary(self) -> None:
        plan = self.plan
        if plan is None:
            return
        ui.label(f"A clean-up now ({when(plan.now)}) would remove:").classes("font-medium")
        with ui.column().classes("gap-1").mark("purge-plan"):
            for line in plan.lines():
                ui.label(line)
        if plan.archived:
            ui.label("Replaced (archived) memories due:").classes("font-medium mt-2")
            with ui.column().classes("gap-1").mark("purge-memories"):
                for item in plan.archived[:SHOWN]:
                    archived = day_text(item.archived_at) if item.archived_at else "—"
                    ui.label(f"{clip(item.content, 80)} · archived {archived} · memory #{item.memory_id}")
                if len(plan.archived) > SHOWN:
                    ui.label(f"… and {len(plan.archived) - SHOWN:,} more").classes("mr-muted")
        with ui.row().classes("gap-2"):
            ui.button("Check again", icon="refresh", color="brand", on_click=self.load).props("flat")
            run_button = ui.button(CLEAN_UP, icon="delete_sweep", color="negative", on_click=self.ask_to_run)
            run_button.set_enabled(not plan.is_empty)
            run_button.mark("cleanup-run")

    @one_at_a_time(PURGE_DIALOG)
    def ask_to_run(self) -> None:
        with titled_dialog(f"{CLEAN_UP}?", marker=PURGE_DIALOG) as dialog:
            ui.label("It removes exactly what is listed, for good.").classes("mr-muted")
            with ui.row().classes("justify-end w-full gap-2"):
                ui.button("Cancel", color="meta", on_click=dialog.close).props("flat")
                ui.button(CLEAN_UP, color="negative", on_click=lambda: self.run(dialog)).mark("cleanup-confirm")

    async def run(self, dialog: ui.dialog) -> None:
        plan = self.plan
        if plan is None:
            return
        result = await attempt(lambda s, u: run_purge(s, self.actor or u, plan=plan))
        dialog.close()
        if result.value is None:
            return
        ui.notify("Cleaned up. " + " ".join(result.value.lines()), type="positive")
        await self.load()
