"""Admin tab "Retention": what a purge would remove now, then "Run purge" removes exactly that."""

from __future__ import annotations

from nicegui import ui

from domain.retention import PurgePlan, plan_purge, run_purge
from persistence.settings import retention_periods
from ui import runtime
from ui.components.admin_common import when
from ui.components.dialogs import titled_dialog
from ui.components.text import clip
from ui.session import attempt

SHOWN = 20


class RetentionTab:
    def __init__(self) -> None:
        self.plan: PurgePlan | None = None
        ui.label(
            "Audit events are never purged: the chain keeps every one. A purged archived memory leaves an "
            "audit event of its own."
        ).classes("mr-muted")
        self.summary()

    async def load(self) -> None:
        periods = retention_periods(runtime.current().settings)
        self.plan = (await attempt(lambda s, u: plan_purge(s, u, periods=periods))).value
        self.summary.refresh()

    @ui.refreshable_method
    def summary(self) -> None:
        plan = self.plan
        if plan is None:
            return
        ui.label(f"A purge now ({when(plan.now)}) would remove:").classes("font-medium")
        with ui.column().classes("gap-1").mark("purge-plan"):
            for line in plan.lines():
                ui.label(line)
        if plan.archived:
            ui.label("Archived memories due:").classes("font-medium mt-2")
            with ui.column().classes("gap-1").mark("purge-memories"):
                for item in plan.archived[:SHOWN]:
                    ui.label(f"#{item.memory_id} · archived {when(item.archived_at)} · {clip(item.content, 80)}")
                if len(plan.archived) > SHOWN:
                    ui.label(f"… and {len(plan.archived) - SHOWN:,} more").classes("mr-muted")
        with ui.row().classes("gap-2"):
            ui.button("Check again", icon="refresh", color="brand", on_click=self.load).props("flat")
            run_button = ui.button("Run purge", icon="delete_sweep", color="negative", on_click=self.ask_to_run)
            run_button.set_enabled(not plan.is_empty)

    def ask_to_run(self) -> None:
        with titled_dialog("Run the purge?", marker="purge-dialog") as dialog:
            ui.label("It removes exactly what is listed, for good.").classes("mr-muted")
            with ui.row().classes("justify-end w-full gap-2"):
                ui.button("Cancel", color="meta", on_click=dialog.close).props("flat")
                ui.button("Purge now", color="negative", on_click=lambda: self.run(dialog))

    async def run(self, dialog: ui.dialog) -> None:
        plan = self.plan
        if plan is None:
            return
        result = await attempt(lambda s, u: run_purge(s, u, plan=plan))
        dialog.close()
        if result.value is None:
            return
        ui.notify(" ".join(result.value.lines()), type="positive")
        await self.load()
