"""'Edit' on a proposal: change statement, type or tags, see what confirming will do, then 'Confirm'.

"If you confirm" follows the typing: ~300 ms after the athlete pauses, asked in a worker thread, an
answer overtaken by newer typing dropped (ui.components.live)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from nicegui import ui

from domain import proposals
from domain.dedup import ConfirmPreview
from domain.errors import DomainError, InvalidInput
from domain.proposals import PendingItem
from domain.schemas import ProposalEdit
from ui.components.busy import busy
from ui.components.dialogs import one_at_a_time, titled_dialog
from ui.components.live import Debounced
from ui.components.memory_form import MemoryForm
from ui.components.proposal_card import outcome_line
from ui.components.text import clip
from ui.session import DatabaseTrouble, in_thread, write

PROPOSAL_DIALOG = "proposal-dialog"


def _only_changes(item: PendingItem, edits: ProposalEdit) -> ProposalEdit:
    """Keep only what the athlete changed, so an untouched proposal confirms as proposed."""
    proposal = item.proposal
    return ProposalEdit(
        content=edits.content if edits.content != proposal.content else None,
        type=edits.type if edits.type != proposal.type else None,
        tags=edits.tags if edits.tags is not None and list(edits.tags) != list(proposal.tags) else None,
    )


class _KeepBoth:
    """The dialog's current "Keep both" box; the preview replaces it when the edits change."""

    box: ui.checkbox | None = None

    @property
    def chosen(self) -> bool:
        return self.box is not None and bool(self.box.value)


@one_at_a_time(PROPOSAL_DIALOG)
def open_proposal_dialog(
    item: PendingItem,
    on_done: Callable[[], Awaitable[None]],
    on_confirmed: Callable[[str], None] | None = None,
) -> None:
    """`on_confirmed` gets the message to show once the proposal is confirmed (the page's undo bar)."""
    proposal = item.proposal
    keep = _KeepBoth()

    def edits() -> ProposalEdit:
        return _only_changes(item, form.parse(ProposalEdit))

    async def compute_preview() -> ConfirmPreview | None:
        """What confirming the fields as they stand would do; None while they do not parse."""
        try:
            wanted = edits()
            return await in_thread(lambda s, u: proposals.preview_confirm(s, u, proposal_id=proposal.id, edits=wanted))
        except DomainError:
            return None

    def show_preview(preview: ConfirmPreview) -> None:
        chosen = keep.chosen
        outcome.clear()
        with outcome:
            keep.box = outcome_line(preview)
        if keep.box is not None and chosen:
            keep.box.value = True  # the athlete's "Keep both" survives their typing

    async def confirm() -> None:
        try:
            wanted = edits()
            await write(
                lambda s, u: proposals.confirm(
                    s,
                    u,
                    proposal_id=proposal.id,
                    edits=wanted,
                    on_conflict="keep_both" if keep.chosen else "replace",
                )
            )
        except InvalidInput as error:
            if error.field:
                form.show_error(error)
                return
            ui.notify(str(error), type="negative")
        except DatabaseTrouble as error:  # nothing happened: keep the dialog and the athlete's edits
            ui.notify(str(error), type="negative")
            return
        except DomainError as error:
            ui.notify(str(error), type="negative")
        else:
            message = f"Confirmed: '{clip(wanted.content or proposal.content)}'"
            if on_confirmed is not None:
                on_confirmed(message)
            else:
                ui.notify(message, type="positive")
        dialog.close()
        await on_done()

    with titled_dialog("Edit proposal", marker=PROPOSAL_DIALOG) as dialog:
        form = MemoryForm(proposal.content, proposal.type, proposal.tags)
        # Updated as the athlete types (debounced, off the event loop); read out politely.
        outcome = ui.column().classes("w-full").props('role="status" aria-live="polite"').mark("dialog-outcome")
        with outcome:
            keep.box = outcome_line(item.preview)
        live = Debounced(compute_preview, show_preview)
        for field in (form.content, form.type, form.tags):
            field.on_value_change(live.changed)
        form.tags.on("input-value", live.changed)  # a tag being typed counts too (MemoryForm.typed_tag)
        with ui.row().classes("w-full justify-end gap-2"):
            ui.button("Cancel", color="meta", on_click=dialog.close).props("flat")
            button = ui.button("Confirm", icon="check").mark("dialog-confirm")
            button.on_click(lambda: busy(button, confirm))
