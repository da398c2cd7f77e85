"""'To review': pending proposals with their count, one by one or a selection at once.

A confirm or a reject can be undone for a while (domain.proposals.REOPEN_WINDOW,
domain.confirm_undo): the section hands the page a message and the undo through `on_undoable` (the
page shows them in its one undo bar). After a
confirm or reject, keyboard focus moves to the next proposal's Confirm (the previous one when it was
the last; the empty state when none is left).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Iterator
from contextlib import contextmanager

from nicegui import ui
from sqlalchemy.orm import Session

from domain import confirm_undo, proposals
from domain.models import User
from domain.proposals import PendingItem, PendingPage
from ui import runtime
from ui.components.busy import busy
from ui.components.focus import focus
from ui.components.proposal_card import CardParts, ProposalActions, proposal_card
from ui.components.proposal_dialog import open_proposal_dialog
from ui.components.text import clip
from ui.session import attempt, in_thread, tab_action

PAGE_SIZE = 10
MAX_SHOWN = 200  # list_pending's largest page
Undo = Callable[[], Awaitable[None]]
Undoable = Callable[[str, Undo], None]
"""(message, undo): the page shows the message with an Undo button that calls `undo` (ui.components.undo_bar)."""


def load_pending(session: Session, user: User, limit: int = PAGE_SIZE) -> PendingPage:
    """The first page of 'To review', read in a worker thread before the section is built."""
    max_age = runtime.current().settings.proposal_max_age
    return proposals.list_pending(session, user, limit=min(limit, MAX_SHOWN), max_age=max_age)


class ReviewSection:
    def __init__(
        self,
        page: PendingPage,
        on_decided: Callable[[], Awaitable[None]],
        on_undoable: Undoable | None = None,
    ) -> None:
        self.on_decided = on_decided
        self.on_undoable = on_undoable
        self.limit = PAGE_SIZE
        self.selected: set[int] = set()
        self.keep_both: set[int] = set()
        self.cards: dict[int, CardParts] = {}
        self.empty: ui.element | None = None
        self.actions = ProposalActions(
            confirm=self.confirm,
            edit=self.edit,
            reject=self.reject,
            select=self.select,
            keep_both=self.choose_keep_both,
        )
        self.page = page
        self._reloads = 0
        self._deciding: set[int] = set()  # proposals whose decision is on its way (a double click sends two)

    def _load(self, session: Session, user: User) -> PendingPage:
        return load_pending(session, user, self.limit)

    async def reload(self) -> None:
        """Only the newest of overlapping reloads is shown (as in ui.components.memory_list)."""
        self._reloads += 1
        mine = self._reloads
        page = await in_thread(self._load)
        if mine != self._reloads:
            return
        self.page = page
        self.render.refresh()

    @ui.refreshable_method
    def render(self) -> None:
        page = self.page
        shown = {item.proposal.id for item in page.items}
        self.selected &= shown
        self.keep_both = set()  # the cards are new: their "Keep both" boxes start unticked
        self.cards = {}
        self.empty = None
        with ui.row().classes("w-full items-center justify-between gap-2"):
            with ui.row().classes("items-center gap-2"):
                ui.label("To review").classes("mr-section-title").props('role="heading" aria-level="2"')
                ui.label(str(page.total)).classes("mr-count mr-count-review").mark("review-count").props(
                    f'aria-label="{page.total} pending"'
                )
            if page.items:
                self._bulk_bar()
        if not page.items:
            with ui.column().classes("mr-empty w-full items-center gap-1").mark("review-empty") as self.empty:
                self.empty.props('tabindex="-1"')  # focus lands here after the last decision
                ui.icon("task_alt", size="40px").classes("text-positive").props('aria-hidden="true"')
                ui.label("All caught up: nothing is waiting for your review.")
                ui.label("New suggestions from your notes and messages will appear here.").classes("mr-muted text-sm")
            return
        for item in page.items:
            self.cards[item.proposal.id] = proposal_card(item, self.actions, selected=item.proposal.id in self.selected)
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
            self.confirm_selected = ui.button("Confirm selected", icon="done_all").mark("confirm-selected")
            self.confirm_selected.on_click(lambda: busy(self.confirm_selected, self.confirm_many))
            self.reject_selected = (
                ui.button("Reject selected", icon="clear_all", color="danger").props("outline").mark("reject-selected")
            )
            self.reject_selected.on_click(lambda: busy(self.reject_selected, self.reject_many))

    def _update_bulk(self) -> None:
        count = len(self.selected)
        for button in (self.confirm_selected, self.reject_selected):
            button.set_enabled(count > 0)
        self.confirm_selected.set_text(f"Confirm selected ({count})" if count else "Confirm selected")
        self.reject_selected.set_text(f"Reject selected ({count})" if count else "Reject selected")

    def _select_all(self, value: bool) -> None:
        for card in self.cards.values():
            card.select.value = value  # each change calls select()

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

    def _neighbours(self, proposal_id: int) -> list[int]:
        """Where focus goes once `proposal_id` is decided: the proposals after it, then those before it."""
        ids = [item.proposal.id for item in self.page.items]
        if proposal_id not in ids:
            return ids
        at = ids.index(proposal_id)
        return ids[at + 1 :] + ids[:at][::-1]

    def _focus_first(self, candidates: list[int]) -> None:
        for proposal_id in candidates:
            card = self.cards.get(proposal_id)
            if card is not None:
                focus(card.confirm)
                return
        if self.empty is not None:
            focus(self.empty)

    @tab_action
    async def confirm(self, item: PendingItem, keep_both: bool) -> None:
        on_conflict: proposals.OnConflict = "keep_both" if keep_both else "replace"
        after = self._neighbours(item.proposal.id)
        ids = [item.proposal.id]
        with self._first_decision(ids) as first:
            if not first:
                return
            outcome = await attempt(
                lambda s, u: proposals.confirm(s, u, proposal_id=item.proposal.id, on_conflict=on_conflict)
            )
            await self._undoable(
                outcome.ok, f"Confirmed: '{clip(item.proposal.content)}'", lambda: self.undo_confirm(ids)
            )
        self._focus_first(after)

    @tab_action
    async def reject(self, item: PendingItem) -> None:
        after = self._neighbours(item.proposal.id)
        ids = [item.proposal.id]
        with self._first_decision(ids) as first:
            if not first:
                return
            outcome = await attempt(lambda s, u: proposals.reject(s, u, proposal_id=item.proposal.id))
            await self._undoable(
                outcome.ok, f"Rejected: '{clip(item.proposal.content)}'", lambda: self.undo_reject(ids)
            )
        self._focus_first(after)

    @contextmanager
    def _first_decision(self, ids: Iterable[int]) -> Iterator[bool]:
        """Whether this is the only decision on way for these proposals: the second click of a double click
        finds them taken and does nothing (it would confirm them again, and say they already were)."""
        wanted = set(ids)
        if wanted & self._deciding:
            yield False
            return
        self._deciding |= wanted
        try:
            yield True
        finally:
            self._deciding -= wanted

    async def _undoable(self, ok: bool, message: str, undo: Undo) -> None:
        if ok:
            self.offer_undo(message, undo)
        await self.on_decided()

    def offer_undo(self, message: str, undo: Undo) -> None:
        if self.on_undoable is not None:
            self.on_undoable(message, undo)
        else:
            ui.notify(message, type="positive")

    async def undo_confirm(self, ids: list[int]) -> None:
        """Put back what the confirms did and the proposals in 'To review' (domain.confirm_undo)."""
        max_age = runtime.current().settings.proposal_max_age
        outcome = await attempt(lambda s, u: confirm_undo.undo_confirm_many(s, u, proposal_ids=ids, max_age=max_age))
        if outcome.ok:
            ui.notify("Confirm undone: back in To review.", type="positive")
        await self.on_decided()
        self._focus_first(ids)

    async def undo_reject(self, ids: list[int]) -> None:
        """Bring rejected proposals back to 'To review' (the athlete's own, within the undo window)."""
        outcome = await attempt(lambda s, u: [proposals.reopen_rejected(s, u, proposal_id=i) for i in ids])
        if outcome.ok:
            ui.notify(
                "Back in To review." if len(ids) > 1 else "Back in To review: you can decide again.", type="positive"
            )
        await self.on_decided()
        self._focus_first(ids)

    def edit(self, item: PendingItem) -> None:
        ids = [item.proposal.id]
        open_proposal_dialog(
            item, self.on_decided, on_confirmed=lambda message: self.offer_undo(message, lambda: self.undo_confirm(ids))
        )

    @tab_action
    async def confirm_many(self) -> None:
        ids = sorted(self.selected)
        keep_both = self.keep_both & set(ids)
        with self._first_decision(ids) as first:
            if not first:
                return
            outcome = await attempt(lambda s, u: proposals.confirm_many(s, u, proposal_ids=ids, keep_both=keep_both))
            self.selected.clear()
            await self._undoable(outcome.ok, f"Confirmed {outcome.value} proposals.", lambda: self.undo_confirm(ids))
        self._focus_first([item.proposal.id for item in self.page.items])

    @tab_action
    async def reject_many(self) -> None:
        ids = sorted(self.selected)
        with self._first_decision(ids) as first:
            if not first:
                return
            outcome = await attempt(lambda s, u: proposals.reject_many(s, u, proposal_ids=ids))
            self.selected.clear()
            await self._undoable(outcome.ok, f"Rejected {outcome.value} proposals.", lambda: self.undo_reject(ids))
        self._focus_first([item.proposal.id for item in self.page.items])
