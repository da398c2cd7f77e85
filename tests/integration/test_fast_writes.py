"""The write path's short cuts (issue 9: rows read on the driver's cursor, new memories built without
the ORM's constructor, the unit of work as a plain class) change nothing a person sees, on SQLite and
PostgreSQL: what was stored reads back as stored, two tabs saving at once end in one save and one
clear conflict, search follows each write at once, dedup still recognises a fact, a failed write
leaves nothing behind."""

from __future__ import annotations

import threading
from datetime import UTC

import pytest
from sqlalchemy import Engine, func, select

from domain import memories, proposals
from domain.enums import AuditAction, MemoryStatus, MemoryType, SourceKind
from domain.errors import EditConflict
from domain.ingest import ingest
from domain.memory_lists import MemoryQuery
from domain.memory_writes import CONFLICT_MESSAGE, load_memory
from domain.models import AuditEvent, Memory, User
from domain.schemas import MemoryCreate, MemoryEdit
from persistence.uow import unit_of_work


def _add(
    engine: Engine,
    athlete: User,
    content: str,
    memory_type: MemoryType = MemoryType.PREFERENCE,
    tags: tuple[str, ...] = (),
) -> int:
    data = MemoryCreate(content=content, type=memory_type, tags=list(tags))
    with unit_of_work(engine) as session:
        return memories.add_memory(session, athlete, data=data).id


def _found(engine: Engine, athlete: User, words: str) -> list[str]:
    with unit_of_work(engine, read_only=True) as session:
        page = memories.list_memories(session, athlete, query=MemoryQuery(text=words))
        return [memory.content for memory in page.items]


def test_a_memory_opened_for_editing_holds_what_was_stored(engine: Engine, athlete: User) -> None:
    """Its words, type, tags, state and dates (in UTC) as a query of the ORM reads them."""
    memory_id = _add(engine, athlete, "Knee aches on the stairs — früh", MemoryType.INJURY_HISTORY, ("body:knee",))
    with unit_of_work(engine, read_only=True) as session:
        fast = load_memory(session, memory_id)
        assert fast is not None
        mine = {column: getattr(fast, column) for column in Memory.__table__.columns.keys()}  # noqa: SIM118
    with unit_of_work(engine, read_only=True) as session:
        stored = session.get_one(Memory, memory_id)
        theirs = {column: getattr(stored, column) for column in Memory.__table__.columns.keys()}  # noqa: SIM118
    assert mine == theirs
    assert (mine["type"], mine["tags"], mine["status"]) == (
        MemoryType.INJURY_HISTORY,
        ["body:knee"],
        MemoryStatus.ACTIVE,
    )
    assert mine["created_at"].tzinfo is UTC and mine["hidden_from_coach"] is False


def test_two_tabs_saving_one_memory_at_once_give_one_save_and_one_clear_conflict(engine: Engine, athlete: User) -> None:
    memory_id = _add(engine, athlete, "Prefers morning runs")
    start = threading.Barrier(2)
    outcomes: dict[str, str] = {}

    def save(words: str) -> None:
        start.wait()
        try:
            with unit_of_work(engine) as session:
                memories.edit_memory(
                    session, athlete, memory_id=memory_id, changes=MemoryEdit(content=words), expected_version=1
                )
            outcomes[words] = "saved"
        except EditConflict as conflict:
            outcomes[words] = str(conflict)

    tabs = [threading.Thread(target=save, args=(words,)) for words in ("Prefers dawn runs", "Prefers dusk runs")]
    for tab in tabs:
        tab.start()
    for tab in tabs:
        tab.join(timeout=60)
    assert sorted(outcomes.values()) == sorted(["saved", CONFLICT_MESSAGE])
    [winner] = [words for words, outcome in outcomes.items() if outcome == "saved"]
    with unit_of_work(engine, read_only=True) as session:
        stored = session.get_one(Memory, memory_id)
        assert (stored.content, stored.version) == (winner, 2)
        edits = session.scalar(
            select(func.count()).where(AuditEvent.target_id == memory_id, AuditEvent.action == AuditAction.EDIT)
        )
        assert edits == 1


def test_search_follows_each_write_at_once(engine: Engine, athlete: User) -> None:
    memory_id = _add(engine, athlete, "Swims in the lake on Sundays", tags=("time:weekend",))
    assert _found(engine, athlete, "lake") == ["Swims in the lake on Sundays"]
    with unit_of_work(engine) as session:
        changes = MemoryEdit(content="Swims in the sea on Sundays")
        memories.edit_memory(session, athlete, memory_id=memory_id, changes=changes, expected_version=1)
    assert _found(engine, athlete, "lake") == []
    assert _found(engine, athlete, "sea") == ["Swims in the sea on Sundays"]
    with unit_of_work(engine) as session:
        memories.delete_memory(session, athlete, memory_id=memory_id)
    assert _found(engine, athlete, "sea") == []


def test_a_fact_the_athlete_added_is_counted_again_when_the_coach_proposes_it(engine: Engine, athlete: User) -> None:
    memory_id = _add(engine, athlete, "Prefers morning runs")
    with unit_of_work(engine) as session:
        result = ingest(
            session, athlete=athlete, kind=SourceKind.ACTIVITY_NOTE, reference="n1", text="I prefer morning runs."
        )
        [proposal] = result.proposals
    with unit_of_work(engine, read_only=True) as session:
        assert proposals.preview_confirm(session, athlete, proposal_id=proposal.id).outcome == "seen_before"
    with unit_of_work(engine) as session:
        confirmed = proposals.confirm(session, athlete, proposal_id=proposal.id)
    assert (confirmed.id, confirmed.occurrences) == (memory_id, 2)


def test_a_write_that_fails_half_way_leaves_nothing_and_the_next_one_works(engine: Engine, athlete: User) -> None:
    with pytest.raises(RuntimeError), unit_of_work(engine) as session:
        memories.add_memory(session, athlete, data=MemoryCreate(content="Lost on the way", type="preference"))
        raise RuntimeError("the tab went away")
    memory_id = _add(engine, athlete, "Kept")
    with unit_of_work(engine, read_only=True) as session:
        contents = session.scalars(select(Memory.content).where(Memory.athlete_id == athlete.id)).all()
        assert contents == ["Kept"]
        assert session.scalar(select(func.count()).where(AuditEvent.target_id == memory_id)) == 1
