"""Helpers for the Context page tests (no tests here): test data written straight into a database,
and small steps of the simulated user."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from nicegui import ui
from nicegui.element_filter import ElementFilter
from nicegui.testing import User as SimulatedUser
from nicegui.testing.user_interaction import UserInteraction
from sqlalchemy import Engine, select

from domain.actors import SystemActor
from domain.dedup import normalize
from domain.enums import MemoryConfidence, MemorySource, MemoryStatus, MemoryType, ProposalStatus, SourceKind
from domain.models import Memory, Proposal, SourceText, User
from domain.types import utcnow
from domain.visibility import with_inactive
from persistence.engine import make_engine
from persistence.uow import unit_of_work
from tests.ui.conftest import log_in
from ui.components.filter_controls import FilterControls
from ui.components.memory_rows import MemoryRows
from ui.components.type_chips import TypeChips


@contextmanager
def database(url: str) -> Iterator[Engine]:
    engine = make_engine(url)
    try:
        yield engine
    finally:
        engine.dispose()


def athlete(engine: Engine, username: str) -> User:
    with unit_of_work(engine, read_only=True) as session:
        return session.scalars(select(User).where(User.username == username)).one()


def memory_by_content(engine: Engine, username: str, content: str) -> Memory:
    owner = athlete(engine, username)
    with unit_of_work(engine, read_only=True) as session:
        return session.scalars(
            select(Memory)
            .where(Memory.athlete_id == owner.id, Memory.content == content)
            .execution_options(**with_inactive())
        ).one()


def proposal(engine: Engine, proposal_id: int) -> Proposal:
    with unit_of_work(engine, read_only=True) as session:
        found = session.get(Proposal, proposal_id)
        assert found is not None
        return found


@dataclass(frozen=True)
class Note:
    """A proposal to create, with the note it came from; `evidence` must occur in `text`."""

    content: str
    memory_type: MemoryType
    text: str
    evidence: str
    tags: tuple[str, ...] = ()
    confidence: MemoryConfidence = MemoryConfidence.MEDIUM
    kind: SourceKind = SourceKind.ACTIVITY_NOTE


SEEN_BEFORE = Note(
    "Prefers morning runs",
    MemoryType.PREFERENCE,
    "Honestly I prefer morning runs, the evening is chaos.",
    "I prefer morning runs",
    ("time:morning",),
    kind=SourceKind.USER_MESSAGE,
)
REPLACES = Note(
    "Left knee pain after long runs",
    MemoryType.INJURY_HISTORY,
    "Long run today. Left knee pain after long runs again, walked the last km.",
    "Left knee pain after long runs",
    ("body:knee",),
    MemoryConfidence.LOW,
)
NEW = Note(
    "Swims on Fridays to recover",
    MemoryType.CONTEXT,
    "Easy day. I swim on Fridays to recover, it helps a lot.",
    "I swim on Fridays to recover",
    ("context:swimming",),
)
UNSAFE = Note(
    "Says <script>alert(1)</script> often",
    MemoryType.CONTEXT,
    "Note: <script>alert(1)</script> is what I say when the watch dies.",
    "<script>alert(1)</script>",
)


def add_proposals(engine: Engine, username: str, notes: list[Note]) -> list[int]:
    """Pending proposals for `username`, the first of `notes` newest; returns their ids in that order."""
    owner = athlete(engine, username)
    ids: list[int] = []
    now = utcnow()
    with unit_of_work(engine) as session:
        for index, note in enumerate(notes):
            when = now - timedelta(milliseconds=index)
            source = SourceText(
                athlete_id=owner.id,
                kind=note.kind,
                reference=f"test-{when.timestamp()}-{index}",
                text=note.text,
                received_at=when - timedelta(days=2),
            )
            session.add(source)
            session.flush()
            start = note.text.index(note.evidence)
            values: dict[str, Any] = {
                "athlete_id": owner.id,
                "source_text_id": source.id,
                "type": note.memory_type,
                "content": note.content,
                "normalized_content": normalize(note.content),
                "source": MemorySource(note.kind.value),
                "source_reference": source.reference,
                "confidence": note.confidence,
                "tags": list(note.tags),
                "evidence_start": start,
                "evidence_end": start + len(note.evidence),
                "evidence": [note.evidence],
                "extractor": "test",
                "status": ProposalStatus.PENDING,
                "created_at": when,
            }
            item = Proposal(**values)
            session.add(item)
            session.flush()
            ids.append(item.id)
    return ids


def add_memories(engine: Engine, username: str, count: int, *, prefix: str = "Generated memory") -> None:
    """Many memories at once, spread over types and the last months (through the one write path)."""
    from domain.memory_writes import insert_memory

    owner = athlete(engine, username)
    types = list(MemoryType)
    now = utcnow()
    with unit_of_work(engine) as session:
        for index in range(count):
            when = now - timedelta(hours=index * 3)
            insert_memory(
                session,
                SystemActor("test"),
                Memory(
                    athlete_id=owner.id,
                    type=types[index % len(types)],
                    content=f"{prefix} {index}: easy run notes",
                    source=MemorySource.ACTIVITY_NOTE,
                    confidence=list(MemoryConfidence)[index % 3],
                    occurrences=1 + index % 4,
                    tags=[],
                    status=MemoryStatus.ACTIVE,
                    created_at=when,
                    updated_at=when,
                ),
                action="import",
            )


def set_value(user: SimulatedUser, marker: str, value: Any) -> None:
    for element in user.find(marker=marker).elements:
        element.value = value


def texts(user: SimulatedUser, marker: str) -> list[str]:
    return [element.text for element in sorted(user.find(marker=marker).elements, key=lambda e: e.id)]


async def eventually(check: Callable[[], bool], timeout: float = 10.0) -> None:
    """Wait for a refresh that runs as a background task (like should_see does for text)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            if check():
                return
        except AssertionError:
            pass
        if time.monotonic() > deadline:
            raise AssertionError("the page did not reach the expected state")
        await asyncio.sleep(0.05)


async def open_context(user: SimulatedUser) -> None:
    """Log in as alex and open the Context page on 'To review' (built when shown); the memories are
    there too."""
    await log_in(user, "alex")
    await user.should_see("What your coach remembers")
    await user.open("/?view=review")
    await user.should_see(marker="review-count")


def dialogs_closed(user: SimulatedUser, marker: str) -> bool:
    """Closed, though still in the tree: the browser's 'hide' event, which removes them, never comes here."""
    with user:
        return not any(dialog.value for dialog in ElementFilter(kind=ui.dialog, marker=marker, local_scope=False))


# The memory list is one element whose rows are data (ui/components/memory_rows.py); the browser
# draws each row and sends back what the athlete did to it as an event with the row's id. These
# helpers read the rows as the browser gets them and send the events a click in it would send.
MENU_ITEMS = {"Edit": "edit", "History": "history", "Hide from coach": "toggle_hidden",
              "Show to coach": "toggle_hidden", "Delete": "delete"}  # fmt: skip


def memory_list(user: SimulatedUser) -> MemoryRows | None:
    found = [e for e in user.find(kind=MemoryRows).elements if not e.is_deleted]
    return found[0] if found else None


def memory_rows(user: SimulatedUser) -> list[dict[str, Any]]:
    """The rows the list shows, in order (none when the list is empty)."""
    element = memory_list(user)
    return element.shown_rows() if element is not None else []


def memory_row(user: SimulatedUser, memory_id: int) -> dict[str, Any] | None:
    return next((row for row in memory_rows(user) if row["id"] == memory_id), None)


def listed(user: SimulatedUser) -> list[str]:
    """The statements of the memories listed, in order."""
    return [row["text"] for row in memory_rows(user)]


def memory_action(user: SimulatedUser, memory_id: int, item: str) -> None:
    """Click Edit, or pick `item` from a memory's "more" menu ("History", "Hide from coach",
    "Show to coach", "Delete"); the menu offers to hide only a shown memory and to show only a hidden one."""
    row = memory_row(user, memory_id)
    assert row is not None, f"memory {memory_id} is not listed"
    if item in ("Hide from coach", "Show to coach"):
        assert row["hidden"] == (item == "Show to coach"), f"the menu does not offer {item!r}"
    element = memory_list(user)
    assert element is not None
    UserInteraction(user, {element}, None).trigger("action", {"id": memory_id, "action": MENU_ITEMS[item]})


def tick_memory(user: SimulatedUser, memory_id: int, value: bool = True) -> None:
    """Tick (or untick) a memory's box in selection mode."""
    row = memory_row(user, memory_id)
    assert row is not None, f"memory {memory_id} is not listed"
    element = memory_list(user)
    assert element is not None and element.props["selecting"], "the list is not in selection mode"
    UserInteraction(user, {element}, None).trigger("select", {"id": memory_id, "value": value})


def show_type(user: SimulatedUser, memory_type: str | None) -> None:
    """Press a type chip above the list (None: "All")."""
    [chips] = user.find(kind=TypeChips).elements
    UserInteraction(user, {chips}, None).trigger("choose", {"value": memory_type or ""})


def choose_filters(
    user: SimulatedUser,
    *,
    sources: list[str] | None = None,
    confidences: list[str] | None = None,
    sort: str | None = None,
) -> None:
    """Pick in the Source, Confidence or Sort by field above the list; the browser sends all three
    fields' values with each pick (ui/components/filter_controls.py)."""
    [fields] = user.find(kind=FilterControls).elements
    chosen = json.loads(fields.props["chosen"])
    picked = {"sources": sources, "confidences": confidences, "sort": sort}
    chosen.update({key: value for key, value in picked.items() if value is not None})
    UserInteraction(user, {fields}, None).trigger("change", chosen)


def chosen_filters(user: SimulatedUser) -> dict[str, Any]:
    """What the Source, Confidence and Sort by fields show."""
    [fields] = user.find(kind=FilterControls).elements
    return dict(json.loads(fields.props["chosen"]))
