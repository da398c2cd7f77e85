"""The evidence of a proposal: an excerpt of its note or message, the matched words marked."""

from __future__ import annotations

from dataclasses import dataclass

from nicegui import ui

from domain.enums import SourceKind
from domain.import_marks import is_imported
from domain.models import Proposal, SourceText
from ui.components.import_evidence import imported_evidence
from ui.components.text import mark, span
from ui.components.timeago import time_ago

CONTEXT_CHARS = 90
FALLBACK_CHARS = 240
KIND_LABELS = {SourceKind.ACTIVITY_NOTE: "Activity note", SourceKind.USER_MESSAGE: "Message"}
KIND_ICONS = {SourceKind.ACTIVITY_NOTE: "directions_run", SourceKind.USER_MESSAGE: "chat"}


@dataclass(frozen=True)
class Segment:
    text: str
    marked: bool = False


def _flat(text: str) -> str:
    return " ".join(text.split())


def _snap_left(text: str, index: int) -> int:
    if index <= 0:
        return 0
    space = text.find(" ", index)
    return index if space == -1 else space + 1


def _snap_right(text: str, index: int) -> int:
    if index >= len(text):
        return len(text)
    space = text.rfind(" ", 0, index)
    return index if space == -1 else space


def excerpt(text: str, start: int | None, end: int | None, *, context: int = CONTEXT_CHARS) -> list[Segment]:
    """Segments around the evidence span [start, end): ellipses where the text was cut."""
    if start is None or end is None or not 0 <= start < end <= len(text):
        short = text[:FALLBACK_CHARS]
        return [Segment(_flat(short) + ("…" if len(text) > FALLBACK_CHARS else ""))]
    left = _snap_left(text, start - context) if start > context else 0
    right = _snap_right(text, end + context) if end + context < len(text) else len(text)
    segments = [
        Segment(
            ("…" if left > 0 else "") + _flat(text[left:start]) + (" " if text[start - 1 : start].isspace() else "")
        ),
        Segment(_flat(text[start:end]), marked=True),
        Segment(
            (" " if text[end : end + 1].isspace() else "") + _flat(text[end:right]) + ("…" if right < len(text) else "")
        ),
    ]
    return [s for s in segments if s.text.strip()]


def evidence_block(proposal: Proposal, source: SourceText | None) -> None:
    with ui.column().classes("mr-evidence w-full gap-1"):
        if source is None and is_imported(proposal):  # from a file (ui.components.import_evidence)
            imported_evidence(proposal)
            return
        if source is None and proposal.evidence:
            pattern_evidence(proposal.evidence)
            return
        if source is None:
            ui.label("The note this came from is no longer stored.").classes("mr-muted text-sm")
            return
        with ui.row().classes("items-center gap-1 mr-muted text-sm"):
            ui.icon(KIND_ICONS.get(source.kind, "notes"), size="18px").props('aria-hidden="true"')
            when = source.received_at
            ui.label(f"{KIND_LABELS.get(source.kind, 'Note')} · {when:%d %b %Y} · {time_ago(when)}")
            if source.kind == SourceKind.ACTIVITY_NOTE:
                ui.label(source.reference).classes("mr-ref")
        with ui.element("blockquote").classes("mr-quote").mark("evidence"):
            for segment in excerpt(source.text, proposal.evidence_start, proposal.evidence_end):
                mark(segment.text) if segment.marked else span(segment.text)


def pattern_evidence(references: list[str]) -> None:
    """What a pattern-analysis proposal rests on: the notes and memories it counted."""
    with ui.row().classes("items-center gap-1 mr-muted text-sm"):
        ui.icon("insights", size="18px").props('aria-hidden="true"')
        ui.label(f"Pattern across {len(references)} observations")
    with ui.row().classes("items-center gap-1").mark("evidence"):
        ui.label("Based on:").classes("text-sm")
        for reference in references:
            ui.label(reference).classes("mr-ref")
