"""One pending proposal: statement, type, confidence, tags, evidence, what confirming will do."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from nicegui import ui

from domain.dedup import ConfirmPreview
from domain.proposals import PendingItem
from ui.components.evidence import evidence_block
from ui.components.labels import CONFIDENCE_COLORS, CONFIDENCE_LABELS, TYPE_ICONS, TYPE_SINGULAR
from ui.components.memory_card import tag_chips

OUTCOME_ICONS = {"new": "fiber_new", "seen_before": "repeat", "replaces": "swap_horiz"}


def outcome_text(preview: ConfirmPreview) -> str:
    if preview.outcome == "seen_before":
        return f"seen before — will count again ({preview.occurrences_after}×)"
    if preview.outcome == "replaces" and preview.memory is not None:
        return f"replaces: '{preview.memory.content}'"
    return "new"


@dataclass(frozen=True)
class ProposalActions:
    confirm: Callable[[PendingItem, bool], Awaitable[None]]  # (item, keep_both)
    edit: Callable[[PendingItem], None]
    reject: Callable[[PendingItem], Awaitable[None]]
    select: Callable[[int, bool], None]
    keep_both: Callable[[int, bool], None]  # the card's "Keep both" choice changed


def outcome_line(preview: ConfirmPreview, on_keep_both: Callable[[bool], None] | None = None) -> ui.checkbox | None:
    """'If you confirm: …'; for a replacement, also the 'Keep both' choice (returned)."""
    with ui.row().classes(f"items-center gap-2 mr-outcome mr-outcome-{preview.outcome}").mark("outcome"):
        ui.icon(OUTCOME_ICONS[preview.outcome], size="18px").props('aria-hidden="true"')
        ui.label("If you confirm:").classes("text-sm")
        ui.label(outcome_text(preview)).classes("text-sm font-medium mr-memory-text")
        if preview.outcome == "replaces":
            keep = ui.checkbox("Keep both").props("dense").mark("keep-both")
            if on_keep_both is not None:
                keep.on_value_change(lambda e: on_keep_both(bool(e.value)))
            return keep
    return None


def proposal_card(item: PendingItem, actions: ProposalActions, *, selected: bool) -> ui.checkbox:
    """Build the card; return its selection checkbox."""
    proposal = item.proposal
    with ui.card().classes("mr-card mr-proposal w-full gap-2").props("flat").mark(f"proposal-{proposal.id}"):
        with ui.row().classes("w-full items-start justify-between no-wrap gap-2"):
            ui.label(proposal.content).classes("mr-memory-text text-base font-medium").mark("proposal-content")
            select = (
                ui.checkbox("Select", value=selected, on_change=lambda e: actions.select(proposal.id, bool(e.value)))
                .props("dense")
                .classes("shrink-0")
                .mark("proposal-select")
            )
        with ui.row().classes("items-center gap-x-3 gap-y-1 text-sm mr-muted"):
            with ui.row().classes("items-center gap-1 no-wrap"):
                ui.icon(TYPE_ICONS[proposal.type], size="18px").props('aria-hidden="true"')
                ui.label(TYPE_SINGULAR[proposal.type])
            ui.label(CONFIDENCE_LABELS[proposal.confidence]).classes(
                f"mr-pill text-white bg-{CONFIDENCE_COLORS[proposal.confidence]}"
            )
            tag_chips(proposal.tags)
        evidence_block(proposal, item.source)
        keep_both = outcome_line(item.preview, lambda value: actions.keep_both(proposal.id, value))
        with ui.row().classes("gap-2 mr-actions"):
            ui.button(
                "Confirm", icon="check", on_click=lambda: actions.confirm(item, bool(keep_both and keep_both.value))
            ).mark("proposal-confirm")
            ui.button("Edit", icon="edit", color="brand", on_click=lambda: actions.edit(item)).props("flat").mark(
                "proposal-edit"
            )
            ui.button("Reject", icon="close", color="danger", on_click=lambda: actions.reject(item)).props("flat").mark(
                "proposal-reject"
            )
    return select
