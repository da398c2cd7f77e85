"""The evidence of an imported proposal: the file and entry it came from, and the memory's own dates."""

from __future__ import annotations

from nicegui import ui

from domain.import_marks import read_marks
from domain.models import Proposal


def imported_evidence(proposal: Proposal) -> None:
    lines = proposal.evidence or []
    with ui.row().classes("items-center gap-1 mr-muted text-sm"):
        ui.icon("upload_file", size="18px").props('aria-hidden="true"')
        ui.label(lines[0] if lines else "Imported from a file").mark("evidence")
    marks = read_marks(proposal)
    if marks is None:
        return
    details = [f"Recorded {marks.created_at:%d %b %Y}"]
    if marks.updated_at.date() != marks.created_at.date():
        details.append(f"updated {marks.updated_at:%d %b %Y}")
    if marks.occurrences > 1:
        details.append(f"seen {marks.occurrences} times")
    if marks.hidden:
        details.append("hidden from your coach")
    ui.label(" · ".join(details)).classes("mr-muted text-xs").mark("import-details")
