"""Dedup reads its candidates as rows (domain/memory_rows.py), not through the ORM: within one unit
of work it must still see what that unit already did, as a query would, on SQLite and PostgreSQL."""

from __future__ import annotations

from sqlalchemy import Engine, select

from domain import memories, proposals
from domain.audit import verify_chain
from domain.enums import MemoryStatus, MemoryType, SourceKind
from domain.ingest import ingest
from domain.models import Memory, Proposal, User
from domain.schemas import MemoryEdit, ProposalEdit
from domain.visibility import with_inactive
from persistence.uow import unit_of_work
from tests.factories import make_memory


def _proposals(engine: Engine, athlete: User, *texts: str) -> list[Proposal]:
    made: list[Proposal] = []
    with unit_of_work(engine) as session:
        for n, text in enumerate(texts):
            result = ingest(session, athlete=athlete, kind=SourceKind.ACTIVITY_NOTE, reference=f"act_{n}", text=text)
            made += result.proposals
    return made


def _all_memories(engine: Engine) -> list[Memory]:
    with unit_of_work(engine, read_only=True) as session:
        return list(session.scalars(select(Memory).order_by(Memory.id).execution_options(**with_inactive())))


def test_one_fact_confirmed_twice_in_one_unit_makes_one_memory_seen_twice(engine: Engine, athlete: User) -> None:
    first, second = _proposals(engine, athlete, "I prefer morning runs.", "I prefer running before work.")
    with unit_of_work(engine) as session:
        made = proposals.confirm(session, athlete, proposal_id=first.id)
        again = proposals.confirm(
            session, athlete, proposal_id=second.id, edits=ProposalEdit(content="Prefers morning runs")
        )
        assert again is made  # the memory this unit made, seen as the same object
    [memory] = _all_memories(engine)
    assert (memory.content, memory.occurrences) == ("Prefers morning runs", 2)
    with unit_of_work(engine, read_only=True) as session:
        assert verify_chain(session).ok


def test_an_injury_confirmed_after_another_in_one_selection_replaces_it(engine: Engine, athlete: User) -> None:
    older, newer = _proposals(
        engine, athlete, "Left knee pain after the long run.", "My knee was sore again on the stairs today."
    )
    with unit_of_work(engine) as session:
        proposals.confirm_many(session, athlete, proposal_ids=[older.id, newer.id])
    first, second = _all_memories(engine)
    assert first.type == second.type == MemoryType.INJURY_HISTORY
    assert (first.status, first.superseded_by_id) == (MemoryStatus.ARCHIVED, second.id)
    assert second.status == MemoryStatus.ACTIVE


def test_a_memory_edited_in_the_same_unit_is_judged_by_its_new_words(engine: Engine, athlete: User) -> None:
    memory = make_memory(engine, athlete, "Prefers evening runs")
    [proposal] = _proposals(engine, athlete, "I prefer morning runs.")
    with unit_of_work(engine) as session:
        changes = MemoryEdit(content="Prefers morning runs")
        memories.edit_memory(session, athlete, memory_id=memory.id, changes=changes, expected_version=1)
        confirmed = proposals.confirm(session, athlete, proposal_id=proposal.id)
        assert confirmed is session.get(Memory, memory.id)  # the session's own object, not a second copy
    [stored] = _all_memories(engine)
    assert (stored.content, stored.occurrences, stored.version) == ("Prefers morning runs", 2, 3)


def test_a_memory_deleted_in_the_same_unit_is_no_candidate(engine: Engine, athlete: User) -> None:
    memory = make_memory(engine, athlete, "Prefers morning runs")
    [proposal] = _proposals(engine, athlete, "I prefer morning runs.")
    with unit_of_work(engine) as session:
        memories.delete_memory(session, athlete, memory_id=memory.id)
        confirmed = proposals.confirm(session, athlete, proposal_id=proposal.id)
    assert confirmed.id != memory.id
    deleted, new = _all_memories(engine)
    assert (deleted.status, new.status, new.occurrences) == (MemoryStatus.DELETED, MemoryStatus.ACTIVE, 1)
