"""From text to pending proposals to memories, on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import Engine, func, select

from domain import memories, proposals
from domain.enums import MemoryConfidence, MemorySource, MemoryStatus, MemoryType, ProposalStatus, SourceKind
from domain.errors import InvalidInput, NotFound, PermissionDenied
from domain.ingest import find_athlete, ingest
from domain.models import AuditEvent, Memory, Proposal, SourceText, User
from domain.schemas import ProposalEdit
from domain.types import utcnow
from domain.visibility import with_inactive
from persistence.uow import unit_of_work
from tests.factories import make_memory


def send(
    engine: Engine, athlete: User, text: str, reference: str = "act_1", kind: SourceKind = SourceKind.ACTIVITY_NOTE
) -> list[Proposal]:
    with unit_of_work(engine) as session:
        return ingest(session, athlete=athlete, kind=kind, reference=reference, text=text).proposals


def pending(engine: Engine, athlete: User) -> list[proposals.PendingItem]:
    with unit_of_work(engine, read_only=True) as session:
        return proposals.list_pending(session, athlete).items


def count(engine: Engine, model: type[object]) -> int:
    with unit_of_work(engine, read_only=True) as session:
        return session.scalar(select(func.count()).select_from(model)) or 0  # type: ignore[arg-type]


def test_ingest_stores_evidence_and_pending_proposals(engine: Engine, athlete: User) -> None:
    text = "Good session. I prefer morning runs, the streets are quiet."
    made = send(engine, athlete, text, kind=SourceKind.USER_MESSAGE, reference="2026-11-20T07:00:00Z")
    assert [p.content for p in made] == ["Prefers morning runs"]
    [item] = pending(engine, athlete)
    assert item.source is not None and item.source.text == text
    start, end = item.proposal.evidence_start, item.proposal.evidence_end
    assert start is not None and end is not None and "prefer morning runs" in text[start:end]
    assert item.proposal.source == MemorySource.USER_MESSAGE
    assert item.preview.outcome == "new"


def test_same_reference_twice_creates_nothing_new(engine: Engine, athlete: User) -> None:
    send(engine, athlete, "I prefer morning runs.")
    events = count(engine, AuditEvent)
    assert send(engine, athlete, "I prefer morning runs.") == []
    assert send(engine, athlete, "Completely different text about my knee pain.") == []
    assert (count(engine, SourceText), count(engine, Proposal), count(engine, AuditEvent)) == (1, 1, events)


def test_a_proposal_equal_to_one_pending_is_not_added_twice(engine: Engine, athlete: User) -> None:
    send(engine, athlete, "I prefer morning runs.", reference="a")
    assert send(engine, athlete, "I prefer morning runs!", reference="b") == []
    assert len(pending(engine, athlete)) == 1


def test_empty_text_yields_nothing_and_too_long_text_is_refused(engine: Engine, athlete: User) -> None:
    assert send(engine, athlete, "   \n ") == []
    with pytest.raises(InvalidInput, match="at most 20,000 characters"):
        send(engine, athlete, "knee pain. " * 2000)
    with pytest.raises(InvalidInput, match="Kind: unknown value 'tweet'"), unit_of_work(engine) as session:
        ingest(session, athlete=athlete, kind="tweet", reference="x", text="I prefer morning runs.")
    with pytest.raises(InvalidInput, match="Unknown athlete 'nobody'"), unit_of_work(engine) as session:
        find_athlete(session, "nobody")
    assert (count(engine, SourceText), count(engine, Proposal)) == (0, 0)


def test_confirm_new_creates_a_memory_and_marks_the_proposal(engine: Engine, athlete: User) -> None:
    [proposal] = send(engine, athlete, "I prefer morning runs.")
    with unit_of_work(engine) as session:
        memory = proposals.confirm(session, athlete, proposal_id=proposal.id)
    with unit_of_work(engine, read_only=True) as session:
        stored = session.get(Proposal, proposal.id)
        listed = memories.list_memories(session, athlete).items
    assert stored is not None and stored.status == ProposalStatus.CONFIRMED and stored.memory_id == memory.id
    assert [(m.content, m.source, m.source_reference) for m in listed] == [
        ("Prefers morning runs", MemorySource.ACTIVITY_NOTE, "act_1")
    ]
    assert pending(engine, athlete) == []


def test_seen_before_counts_again_and_reaches_high_confidence_at_three(engine: Engine, athlete: User) -> None:
    existing = make_memory(engine, athlete, "Prefers morning runs", occurrences=2, confidence=MemoryConfidence.LOW)
    [proposal] = send(engine, athlete, "I prefer morning runs.")
    with unit_of_work(engine) as session:
        preview = proposals.preview_confirm(session, athlete, proposal_id=proposal.id)
    assert (preview.outcome, preview.occurrences_after) == ("seen_before", 3)
    with unit_of_work(engine) as session:
        memory = proposals.confirm(session, athlete, proposal_id=proposal.id)
    assert memory.id == existing.id
    assert (memory.occurrences, memory.confidence) == (3, MemoryConfidence.HIGH)
    with unit_of_work(engine, read_only=True) as session:
        assert memories.list_memories(session, athlete).total == 1


def test_replaces_supersedes_the_old_memory_and_keeps_it_in_history(engine: Engine, athlete: User) -> None:
    old = make_memory(engine, athlete, "Occasional knee soreness", type=MemoryType.INJURY_HISTORY, tags=["body:knee"])
    [proposal] = send(engine, athlete, "Left knee pain started around km 15 of the long run.")
    with unit_of_work(engine) as session:
        preview = proposals.preview_confirm(session, athlete, proposal_id=proposal.id)
    assert preview.outcome == "replaces"
    assert preview.memory is not None and preview.memory.content == "Occasional knee soreness"
    with unit_of_work(engine) as session:
        new = proposals.confirm(session, athlete, proposal_id=proposal.id)
    with unit_of_work(engine, read_only=True) as session:
        archived = session.get(Memory, old.id, execution_options=with_inactive())
        history = memories.memory_history(session, athlete, memory_id=new.id)
        active = memories.list_memories(session, athlete).items
    assert archived is not None and archived.status == MemoryStatus.ARCHIVED
    assert archived.superseded_by_id == new.id
    assert [m.id for m in active] == [new.id]
    assert new.occurrences == 2, "the new memory carries the old one's count on"
    assert history[0].reason == f"Confirmed proposal #{proposal.id}, replacing memory #{old.id}"
    assert history[0].after is not None and history[0].after["occurrences"] == 2, "the carried count is audited"
    with unit_of_work(engine, read_only=True) as session:
        old_history = memories.memory_history(session, athlete, memory_id=old.id)
    assert [(e.action, e.reason) for e in old_history][-1] == ("supersede", f"Replaced by memory #{new.id}")


def test_keep_both_leaves_the_old_memory_active(engine: Engine, athlete: User) -> None:
    make_memory(engine, athlete, "Occasional knee soreness", type=MemoryType.INJURY_HISTORY, tags=["body:knee"])
    [proposal] = send(engine, athlete, "Left knee pain started around km 15 of the long run.")
    with unit_of_work(engine) as session:
        proposals.confirm(session, athlete, proposal_id=proposal.id, on_conflict="keep_both")
    with unit_of_work(engine, read_only=True) as session:
        contents = sorted(m.content for m in memories.list_memories(session, athlete).items)
    assert contents == ["Left knee pain started around km 15 of the long run", "Occasional knee soreness"]


def test_edit_then_confirm_uses_the_athletes_words(engine: Engine, athlete: User) -> None:
    [proposal] = send(engine, athlete, "I prefer morning runs.")
    edits = ProposalEdit(content="Prefers runs before 7 am", tags=["time:morning", "time:early"])
    with unit_of_work(engine) as session:
        memory = proposals.confirm(session, athlete, proposal_id=proposal.id, edits=edits)
    assert (memory.content, memory.tags, memory.confidence) == (
        "Prefers runs before 7 am",
        ["time:morning", "time:early"],
        MemoryConfidence.HIGH,
    )


def test_reject_and_bulk_decisions(engine: Engine, athlete: User) -> None:
    made = send(engine, athlete, "I prefer morning runs. I love hill repeats. My calf was sore again.")
    assert len(made) == 3
    with unit_of_work(engine) as session:
        proposals.reject(session, athlete, proposal_id=made[0].id)
    with unit_of_work(engine) as session:
        assert proposals.confirm_many(session, athlete, proposal_ids=[p.id for p in made[1:]]) == 2
    with unit_of_work(engine, read_only=True) as session:
        statuses = [session.get(Proposal, p.id).status for p in made]  # type: ignore[union-attr]
        assert memories.list_memories(session, athlete).total == 2
    assert statuses == [ProposalStatus.REJECTED, ProposalStatus.CONFIRMED, ProposalStatus.CONFIRMED]
    assert send(engine, athlete, "I prefer morning runs.", reference="again") == [], "a rejection sticks"


def test_a_failing_bulk_confirm_changes_nothing(engine: Engine, athlete: User) -> None:
    made = send(engine, athlete, "I prefer morning runs. I love hill repeats.")
    events = count(engine, AuditEvent)
    with pytest.raises(NotFound), unit_of_work(engine) as session:
        proposals.confirm_many(session, athlete, proposal_ids=[made[0].id, 999_999])
    assert len(pending(engine, athlete)) == 2
    assert (count(engine, Memory), count(engine, AuditEvent)) == (0, events)


def test_only_the_owning_athlete_decides(engine: Engine, athlete: User, other_athlete: User, admin: User) -> None:
    [proposal] = send(engine, athlete, "I prefer morning runs.")
    with pytest.raises(NotFound), unit_of_work(engine) as session:
        proposals.confirm(session, other_athlete, proposal_id=proposal.id)
    with pytest.raises(NotFound), unit_of_work(engine) as session:
        proposals.reject(session, other_athlete, proposal_id=proposal.id)
    with pytest.raises(PermissionDenied), unit_of_work(engine) as session:
        proposals.confirm(session, admin, proposal_id=proposal.id)
    with pytest.raises(PermissionDenied), unit_of_work(engine) as session:
        proposals.confirm(session, None, proposal_id=proposal.id)
    with unit_of_work(engine, read_only=True) as session:
        assert proposals.list_pending(session, other_athlete).total == 0
    assert len(pending(engine, athlete)) == 1


def test_old_pending_proposals_expire(engine: Engine, athlete: User) -> None:
    [proposal] = send(engine, athlete, "I prefer morning runs.")
    with unit_of_work(engine) as session:
        assert proposals.expire_stale(session, now=utcnow() + timedelta(days=31)) == 1
    with unit_of_work(engine, read_only=True) as session:
        stored = session.get(Proposal, proposal.id)
    assert stored is not None and stored.status == ProposalStatus.EXPIRED


def test_a_recurring_injury_becomes_one_insight_proposal(engine: Engine, athlete: User) -> None:
    send(engine, athlete, "My left knee hurt after the long run.", reference="r1")
    send(engine, athlete, "Knee pain again on the downhill section.", reference="r2")
    third = send(engine, athlete, "The knee was aching from km 8 on the trail run.", reference="r3")
    insights = [p for p in third if p.type == MemoryType.INSIGHT]
    assert len(insights) == 1 and "body:knee" in insights[0].tags
    assert insights[0].source == MemorySource.PATTERN_ANALYSIS and len(insights[0].evidence) >= 3
    fourth = send(engine, athlete, "Sore knee once more after intervals.", reference="r4")
    assert [p for p in fourth if p.type == MemoryType.INSIGHT] == [], "no duplicate insight"
