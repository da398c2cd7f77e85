"""'To review': pending proposals with their count, one by one or a selection at once."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from nicegui import ui
from sqlalchemy.orm import Session

from domain import proposals
from domain.models import User
from domain.proposals import PendingItem, PendingPage
from ui import runtime
from ui.components.proposal_card import ProposalActions, proposal_card
from ui.components.proposal_dialog import open_proposal_dialog
from ui.session import attempt, in_thread, read, tab_action

PAGE_SIZE = 10
MAX_SHOWN = 200  # list_pending's largest page


class ReviewSection:
    def __init__(self, on_decided: Callable[[], Awaitable[None]]) -> None:
        self.on_decided = on_decided
        self.limit = PAGE_SIZE
        self.selected: set[int] = set()
        self.keep_both: set[int] = set()
        self.checkboxes: dict[int, ui.checkbox] = {}
        self.actions = ProposalActions(
            confirm=self.confirm,
            edit=self.edit,
            reject=self.reject,
            select=self.select,
            keep_both=self.choose_keep_both,
        )
        self.page = read(self._load)

    def _load(self, session: Session, user: User) -> PendingPage:
        max_age = runtime.current().settings.proposal_max_age
        return proposals.list_pending(session, user, limit=min(self.limit, MAX_SHOWN), max_age=max_age)

    async def reload(self) -> None:
        self.page = await in_thread(self._load)
        self.render.refresh()

    @ui.refreshable_method
    def render(self) -> None:
        page = self.page
        shown = {item.proposal.id for item in page.items}
        self.selected &= shown
        self.keep_both = set()  # the cards are new: their "Keep both" boxes start unticked
        self.checkboxes = {}
        with ui.row().classes("w-full items-center justify-between gap-2"):
            with ui.row().classes("items-center gap-2"):
                ui.label("To review").classes("mr-section-title").props('role="heading" aria-level="2"')
                ui.label(str(page.total)).classes("mr-count mr-count-review").mark("review-count").props(
                    f'aria-label="{page.total} pending"'
                )
            if page.items:
                self._bulk_bar()
        if not page.items:
            with ui.column().classes("mr-empty w-full items-center gap-1").mark("review-empty"):
                ui.icon("task_alt", size="40px").classes("text-positive").props('aria-hidden="true"')
                ui.label("All caught up: nothing is waiting for your review.")
                ui.label("New suggestions from your notes and messages will appear here.").classes("mr-muted text-sm")
            return
        for item in page.items:
            self.checkboxes[item.proposal.id] = proposal_card(
                item, self.actions, selected=item.proposal.id in self.selected
            )
        if page.total > len(page.items) and len(page.items) >= MAX_SHOWN:
            ui.label(f"Showing the newest {MAX_SHOWN}; decide on some to see older ones.").classes(
                "mr-muted text-sm self-center"
            )
        elif page.total > len(page.items):
            more = f"Show more ({page.total - len(page.items)} more)"
            ui.button(more, color="brand", on_click=self.show_more).props("flat").classes("self-center").mark(
                "review-more"
            )
        self._update_bulk()

    def _bulk_bar(self) -> None:
        with ui.row().classes("items-center gap-2"):
            self.select_all = (
                ui.checkbox("Select all", on_change=lambda e: self._select_all(bool(e.value)))
                .props("dense")
                .mark("select-all")
            )
            self.confirm_selected = ui.button("Confirm selected", icon="done_all", on_click=self.confirm_many).mark(
                "confirm-selected"
            )
            self.reject_selected = (
                ui.button("Reject selected", icon="clear_all", color="danger", on_click=self.reject_many)
                .props("outline")
                .mark("reject-selected")
            )

    def _update_bulk(self) -> None:
        count = len(self.selected)
        for button in (self.confirm_selected, self.reject_selected):
            button.set_enabled(count > 0)
        self.confirm_selected.set_text(f"Confirm selected ({count})" if count else "Confirm selected")
        self.reject_selected.set_text(f"Reject selected ({count})" if count else "Reject selected")

    def _select_all(self, value: bool) -> None:
        for checkbox in self.checkboxes.values():
            checkbox.value = value  # each change calls select()

    def select(self, proposal_id: int, value: bool) -> None:
        if value:
            self.selected.add(proposal_id)
        else:
            self.selected.discard(proposal_id)
        self._update_bulk()

    def choose_keep_both(self, proposal_id: int, value: bool) -> None:
        if value:
            self.keep_both.add(proposal_id)
        else:
            self.keep_both.discard(proposal_id)

    @tab_action
    async def show_more(self) -> None:
        self.limit += PAGE_SIZE * 2
        await self.reload()

    async def _decided(self, ok: bool, message: str) -> None:
        if ok:
            ui.notify(message, type="positive")
        await self.on_decided()

    @tab_action
    async def confirm(self, item: PendingItem, keep_both: bool) -> None:
        on_conflict: proposals.OnConflict = "keep_both" if keep_both else "replace"
        outcome = await attempt(
            lambda s, u: proposals.confirm(s, u, proposal_id=item.proposal.id, on_conflict=on_conflict)
        )
        await self._decided(outcome.ok, f"Confirmed: '{item.proposal.content}'")

    @tab_action
    async def reject(self, item: PendingItem) -> None:
        outcome = await attempt(lambda s, u: proposals.reject(s, u, proposal_id=item.proposal.id))
        await self._decided(outcome.ok, f"Rejected: '{item.proposal.content}'")

    def edit(self, item: PendingItem) -> None:
        open_proposal_dialog(item, self.on_decided)

    @tab_action
    async def confirm_many(self) -> None:
        ids = sorted(self.selected)
        keep_both = self.keep_both & set(ids)
        outcome = await attempt(lambda s, u: proposals.confirm_many(s, u, proposal_ids=ids, keep_both=keep_both))
        self.selected.clear()
        await self._decided(outcome.ok, f"Confirmed {outcome.value} proposals.")

    @tab_action
    async def reject_many(self) -> None:
        ids = sorted(self.selected)
        outcome = await attempt(lambda s, u: proposals.reject_many(s, u, proposal_ids=ids))
        self.selected.clear()
        await self._decided(outcome.ok, f"Rejected {outcome.value} proposals.")
