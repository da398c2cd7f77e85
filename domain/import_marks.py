"""What an imported proposal carries beyond a proposal's own fields: the memory's own dates, how
often it was seen, and whether it was hidden from the coach.

They are kept as plain lines in the proposal's `evidence` (shown to the athlete as "where this came
from"), so confirming an imported proposal gives a memory with its original dates instead of today's.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from domain.models import Memory, Proposal

IMPORT_EXTRACTOR = "import"
"""`Proposal.extractor` of every imported proposal: "import:m13", "import:pam", "import:text"."""
_RECORDED = "Recorded "
_UPDATED = "Updated "
_SEEN = "Seen "
HIDDEN_LINE = "Hidden from coach"


@dataclass(frozen=True)
class ImportMarks:
    created_at: datetime
    updated_at: datetime
    occurrences: int = 1
    hidden: bool = False


def is_imported(proposal: Proposal) -> bool:
    return proposal.extractor.split(":", 1)[0] == IMPORT_EXTRACTOR


def evidence_lines(origin: str, marks: ImportMarks) -> list[str]:
    lines = [origin, _RECORDED + marks.created_at.isoformat(), _UPDATED + marks.updated_at.isoformat()]
    if marks.occurrences > 1:
        lines.append(f"{_SEEN}{marks.occurrences} times")
    if marks.hidden:
        lines.append(HIDDEN_LINE)
    return lines


def _when(line: str, prefix: str) -> datetime | None:
    try:
        value = datetime.fromisoformat(line.removeprefix(prefix))
    except ValueError:
        return None
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def read_marks(proposal: Proposal) -> ImportMarks | None:
    if not is_imported(proposal):
        return None
    created = updated = None
    occurrences, hidden = 1, False
    for line in proposal.evidence or []:
        if line.startswith(_RECORDED):
            created = _when(line, _RECORDED)
        elif line.startswith(_UPDATED):
            updated = _when(line, _UPDATED)
        elif line.startswith(_SEEN) and line.removeprefix(_SEEN).split(" ", 1)[0].isdigit():
            occurrences = max(1, int(line.removeprefix(_SEEN).split(" ", 1)[0]))
        elif line == HIDDEN_LINE:
            hidden = True
    if created is None:
        return None
    return ImportMarks(created, updated or created, occurrences, hidden)


def apply_import_marks(memory: Memory, proposal: Proposal) -> None:
    """A memory confirmed from an imported proposal keeps its own dates, count and coach visibility."""
    marks = read_marks(proposal)
    if marks is None:
        return
    memory.created_at, memory.updated_at = marks.created_at, max(marks.updated_at, marks.created_at)
    memory.occurrences = max(memory.occurrences or 1, marks.occurrences)
    memory.hidden_from_coach = marks.hidden
