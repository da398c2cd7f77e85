"""One pending proposal: statement, type, confidence, tags, evidence, what confirming will do."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from nicegui import ui

from domain.dedup import ConfirmPreview
from domain.proposals import PendingItem
from ui.components.busy import busy
from ui.components.evidence import evidence_block
from ui.components.labels import CONFIDENCE_COLORS, PROPOSAL_CONFIDENCE_LABELS, TYPE_ICONS, TYPE_SINGULAR
from ui.components.text import clip
from ui.components.words import tag_words

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


def tag_chips(tags: list[str]) -> None:
    for tag in tags:
        ui.label(tag_words(tag)).classes("mr-tag")


@dataclass(frozen=True)
class CardParts:
    """What the review needs of a built card: its selection box and its Confirm button (focus goes there)."""

    select: ui.checkbox
    confirm: ui.button


def proposal_card(item: PendingItem, actions: ProposalActions, *, selected: bool) -> CardParts:
    """Build the card; return its selection checkbox and Confirm button."""
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
            select.props["aria-label"] = f"Select proposal: {clip(proposal.content)}"  # any text, not a props string
        with ui.row().classes("items-center gap-x-3 gap-y-1 text-sm mr-muted"):
            with ui.row().classes("items-center gap-1 no-wrap"):
                ui.icon(TYPE_ICONS[proposal.type], size="18px").props('aria-hidden="true"')
                ui.label(TYPE_SINGULAR[proposal.type])
            ui.label(PROPOSAL_CONFIDENCE_LABELS[proposal.confidence]).classes(
                f"mr-pill text-white bg-{CONFIDENCE_COLORS[proposal.confidence]}"
            )
            tag_chips(proposal.tags)
        evidence_block(proposal, item.source)
        keep_both = outcome_line(item.preview, lambda value: actions.keep_both(proposal.id, value))
        with ui.row().classes("gap-2 mr-actions"):
            confirm = ui.button("Confirm", icon="check").mark("proposal-confirm")
            confirm.on_click(lambda: busy(confirm, lambda: actions.confirm(item, bool(keep_both and keep_both.value))))
            ui.button("Edit", icon="edit", color="brand", on_click=lambda: actions.edit(item)).props("flat").mark(
                "proposal-edit"
            )
            reject = ui.button("Reject", icon="close", color="danger").props("flat").mark("proposal-reject")
            reject.on_click(lambda: busy(reject, lambda: actions.reject(item)))
    return CardParts(select, confirm)
