"""Undoing a confirm: each of the three things a confirm does is put back (SQLite and PostgreSQL)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import timedelta

import pytest
from sqlalchemy import Engine, func, select

from domain import confirm_undo, memories, proposals
from domain.actors import SYSTEM
from domain.audit import verify_chain
from domain.audit_deep import compare_memories
from domain.enums import AuditAction, MemoryConfidence, MemoryStatus, MemoryType, ProposalStatus
from domain.errors import EditConflict, InvalidInput, NotFound, PermissionDenied
from domain.models import Memory, Proposal, User
from domain.schemas import MemoryEdit
from domain.types import utcnow
from domain.visibility import with_inactive
from persistence.uow import in_transaction, unit_of_work
from tests.factories import make_memory
from tests.integration.test_review_confidence import confirm, propose, stored

KNEE = ("body:knee",)


def undo(engine: Engine, athlete: User, proposal_id: int) -> None:
    with unit_of_work(engine) as session:
        confirm_undo.undo_confirm(session, athlete, proposal_id=proposal_id)


def pending_ids(engine: Engine, athlete: User) -> list[int]:
    with unit_of_work(engine, read_only=True) as session:
        return [item.proposal.id for item in proposals.list_pending(session, athlete).items]


def active_contents(engine: Engine, athlete: User) -> list[str]:
    with unit_of_work(engine, read_only=True) as session:
        return sorted(
            session.scalars(
                select(Memory.content).where(Memory.athlete_id == athlete.id, Memory.status == MemoryStatus.ACTIVE)
            )
        )


def assert_log_agrees(engine: Engine) -> None:
    with unit_of_work(engine, read_only=True) as session:
        assert verify_chain(session).ok
        report = compare_memories(session, SYSTEM)
        assert report.ok, report.summary()


def test_undoing_a_confirm_that_made_a_memory_removes_it_and_brings_the_proposal_back(
    engine: Engine, athlete: User
) -> None:
    proposal_id = propose(engine, athlete, "Prefers trail runs")
    memory = confirm(engine, athlete, proposal_id)
    undo(engine, athlete, proposal_id)
    assert active_contents(engine, athlete) == []
    assert pending_ids(engine, athlete) == [proposal_id]
    with unit_of_work(engine, read_only=True) as session:
        proposal = session.get(Proposal, proposal_id)
        assert proposal is not None
        assert (proposal.content, proposal.memory_id, proposal.decided_at) == ("Prefers trail runs", None, None)
        assert session.get(Memory, memory.id, execution_options=with_inactive()) is None
    assert_log_agrees(engine)
    assert stored(engine, confirm(engine, athlete, proposal_id).id).content == "Prefers trail runs"  # decide again


def test_undoing_a_confirm_that_counted_again_gives_the_count_back(engine: Engine, athlete: User) -> None:
    existing = make_memory(engine, athlete, "Prefers trail runs", confidence=MemoryConfidence.LOW)
    proposal_id = propose(engine, athlete, "Prefers trail runs")
    assert confirm(engine, athlete, proposal_id).id == existing.id
    assert (stored(engine, existing.id).occurrences, stored(engine, existing.id).confidence) == (
        2,
        MemoryConfidence.HIGH,
    )
    undo(engine, athlete, proposal_id)
    after = stored(engine, existing.id)
    assert (after.occurrences, after.confidence, after.status) == (1, MemoryConfidence.LOW, MemoryStatus.ACTIVE)
    assert pending_ids(engine, athlete) == [proposal_id]
    with unit_of_work(engine, read_only=True) as session:
        last = memories.memory_history(session, athlete, memory_id=existing.id)[-1]
    assert (last.action, last.reason) == (AuditAction.CONFIRM_UNDO, confirm_undo.REASON)
    assert_log_agrees(engine)


def test_undoing_a_confirm_that_replaced_a_memory_brings_the_old_one_back(engine: Engine, athlete: User) -> None:
    old = confirm(
        engine, athlete, propose(engine, athlete, "Sore knee", memory_type=MemoryType.INJURY_HISTORY, tags=KNEE)
    )
    proposal_id = propose(engine, athlete, "Knee pain on hills", memory_type=MemoryType.INJURY_HISTORY, tags=KNEE)
    newer = confirm(engine, athlete, proposal_id)
    assert stored(engine, old.id).status == MemoryStatus.ARCHIVED
    undo(engine, athlete, proposal_id)
    back = stored(engine, old.id)
    assert (back.status, back.superseded_by_id, back.content) == (MemoryStatus.ACTIVE, None, "Sore knee")
    assert active_contents(engine, athlete) == ["Sore knee"]
    with unit_of_work(engine, read_only=True) as session:
        assert session.get(Memory, newer.id, execution_options=with_inactive()) is None
    assert_log_agrees(engine)


def test_a_selection_confirmed_at_once_is_undone_at_once(engine: Engine, athlete: User) -> None:
    first = propose(engine, athlete, "Prefers trail runs")
    again = propose(engine, athlete, "Prefers trail runs")  # counts the first one's memory again
    other = propose(engine, athlete, "Evenings suit me best")
    with unit_of_work(engine) as session:
        proposals.confirm_many(session, athlete, proposal_ids=[first, again, other])
    assert active_contents(engine, athlete) == ["Evenings suit me best", "Prefers trail runs"]
    with unit_of_work(engine) as session:
        assert confirm_undo.undo_confirm_many(session, athlete, proposal_ids=[first, again, other]) == 3
    assert active_contents(engine, athlete) == []
    assert sorted(pending_ids(engine, athlete)) == sorted([first, again, other])
    assert_log_agrees(engine)


def test_a_memory_changed_after_the_confirm_is_left_as_it_is(engine: Engine, athlete: User) -> None:
    proposal_id = propose(engine, athlete, "Prefers trail runs")
    memory = confirm(engine, athlete, proposal_id)
    with unit_of_work(engine) as session:
        memories.edit_memory(
            session,
            athlete,
            memory_id=memory.id,
            changes=MemoryEdit(content="Prefers trail runs in the hills"),
            expected_version=stored(engine, memory.id).version,
        )
    with unit_of_work(engine) as session, pytest.raises(EditConflict, match="changed after you confirmed"):
        confirm_undo.undo_confirm(session, athlete, proposal_id=proposal_id)
    assert active_contents(engine, athlete) == ["Prefers trail runs in the hills"]
    assert pending_ids(engine, athlete) == []


def test_undo_is_for_the_athlete_who_confirmed_soon_after_and_only_for_a_confirm(
    engine: Engine, athlete: User, other_athlete: User
) -> None:
    proposal_id = propose(engine, athlete, "Prefers trail runs")
    with unit_of_work(engine) as session, pytest.raises(InvalidInput):
        confirm_undo.undo_confirm(session, athlete, proposal_id=proposal_id)  # still pending
    confirm(engine, athlete, proposal_id)
    with unit_of_work(engine) as session, pytest.raises(NotFound):
        confirm_undo.undo_confirm(session, other_athlete, proposal_id=proposal_id)
    later = utcnow() + proposals.REOPEN_WINDOW + timedelta(seconds=1)
    with unit_of_work(engine) as session, pytest.raises(PermissionDenied, match="Too late"):
        confirm_undo.undo_confirm(session, athlete, proposal_id=proposal_id, now=later)
    with unit_of_work(engine) as session, pytest.raises(InvalidInput):
        confirm_undo.undo_confirm_many(session, athlete, proposal_ids=[])
    assert active_contents(engine, athlete) == ["Prefers trail runs"]
    undo(engine, athlete, proposal_id)
    with unit_of_work(engine) as session, pytest.raises(InvalidInput):
        confirm_undo.undo_confirm(session, athlete, proposal_id=proposal_id)  # undone already: pending
    with unit_of_work(engine, read_only=True) as session:
        status = session.scalar(select(Proposal.status).where(Proposal.id == proposal_id))
        proposal_count = session.scalar(
            select(func.count()).select_from(Proposal).where(Proposal.athlete_id == athlete.id)
        )
    assert (status, proposal_count) == (ProposalStatus.PENDING, 1)


def _race(*works: Callable[[], object]) -> list[object]:
    """Run each `work` in its own thread, released together; what each returned or raised."""
    start = threading.Barrier(len(works), timeout=10)
    results: list[object] = [None] * len(works)

    def run(i: int) -> None:
        start.wait()
        try:
            results[i] = works[i]()
        except Exception as error:  # the outcome under test
            results[i] = error

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(works))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return results


def test_two_tabs_undoing_one_confirm_at_once_undo_it_once(engine: Engine, athlete: User) -> None:
    old = confirm(
        engine, athlete, propose(engine, athlete, "Sore knee", memory_type=MemoryType.INJURY_HISTORY, tags=KNEE)
    )
    proposal_id = propose(engine, athlete, "Knee pain on hills", memory_type=MemoryType.INJURY_HISTORY, tags=KNEE)
    confirm(engine, athlete, proposal_id)

    def undo_in_a_tab() -> object:
        return in_transaction(engine, lambda s: confirm_undo.undo_confirm(s, athlete, proposal_id=proposal_id).status)

    results = _race(undo_in_a_tab, undo_in_a_tab)
    outcomes = sorted(type(result).__name__ for result in results)
    # one undoes it; the other finds it pending already, or (PostgreSQL) changed under it
    assert outcomes in (["InvalidInput", "ProposalStatus"], ["EditConflict", "ProposalStatus"]), results
    assert active_contents(engine, athlete) == ["Sore knee"]
    assert stored(engine, old.id).status == MemoryStatus.ACTIVE
    assert pending_ids(engine, athlete) == [proposal_id]
    assert_log_agrees(engine)


def test_an_undo_racing_an_edit_of_the_memory_leaves_one_of_them_whole(engine: Engine, athlete: User) -> None:
    existing = make_memory(engine, athlete, "Prefers trail runs", confidence=MemoryConfidence.LOW)
    proposal_id = propose(engine, athlete, "Prefers trail runs")
    confirm(engine, athlete, proposal_id)
    version = stored(engine, existing.id).version

    def undo() -> object:
        return in_transaction(engine, lambda s: confirm_undo.undo_confirm(s, athlete, proposal_id=proposal_id))

    def edit() -> object:
        return in_transaction(
            engine,
            lambda s: memories.edit_memory(
                s,
                athlete,
                memory_id=existing.id,
                changes=MemoryEdit(content="Prefers hilly trails"),
                expected_version=version,
            ),
        )

    undone, edited = _race(undo, edit)
    after = stored(engine, existing.id)
    if isinstance(edited, EditConflict):  # the undo went first: the count is back, the edit was refused
        assert not isinstance(undone, Exception), undone
        assert (after.content, after.occurrences, after.confidence) == ("Prefers trail runs", 1, MemoryConfidence.LOW)
        assert pending_ids(engine, athlete) == [proposal_id]
    else:  # the edit went first: the undo was refused, the edit stands
        assert isinstance(undone, EditConflict), undone
        assert (after.content, after.occurrences) == ("Prefers hilly trails", 2)
        assert pending_ids(engine, athlete) == []
    assert_log_agrees(engine)


def test_an_undo_racing_an_edit_of_the_memory_it_made_ends_in_one_of_them(engine: Engine, athlete: User) -> None:
    proposal_id = propose(engine, athlete, "Prefers trail runs")
    memory = confirm(engine, athlete, proposal_id)
    version = stored(engine, memory.id).version

    def undo() -> object:
        return in_transaction(engine, lambda s: confirm_undo.undo_confirm(s, athlete, proposal_id=proposal_id))

    def edit() -> object:
        changes = MemoryEdit(content="Prefers hilly trails")
        return in_transaction(
            engine,
            lambda s: memories.edit_memory(s, athlete, memory_id=memory.id, changes=changes, expected_version=version),
        )

    undone, edited = _race(undo, edit)
    if isinstance(undone, EditConflict):  # the edit went first: it stands, the confirm stays
        assert not isinstance(edited, Exception), edited
        assert active_contents(engine, athlete) == ["Prefers hilly trails"]
        assert pending_ids(engine, athlete) == []
    else:  # the undo went first: the memory is gone, the edit was told so
        assert isinstance(edited, (EditConflict, NotFound)), edited
        assert active_contents(engine, athlete) == []
        assert pending_ids(engine, athlete) == [proposal_id]
    assert_log_agrees(engine)


def test_no_undo_that_would_bring_back_a_suggestion_only_to_expire_it(engine: Engine, athlete: User) -> None:
    proposal_id = propose(engine, athlete, "Prefers trail runs")
    with unit_of_work(engine) as session:
        proposal = session.get(Proposal, proposal_id)
        assert proposal is not None
        proposal.created_at = utcnow() - proposals.DEFAULT_MAX_AGE + timedelta(minutes=1)
    confirm(engine, athlete, proposal_id)
    later = utcnow() + timedelta(minutes=2)  # still within the undo window, past the suggestion's life
    with unit_of_work(engine) as session, pytest.raises(PermissionDenied, match="expire as soon as it is back"):
        confirm_undo.undo_confirm(session, athlete, proposal_id=proposal_id, now=later)
    assert active_contents(engine, athlete) == ["Prefers trail runs"]  # the memory stays
