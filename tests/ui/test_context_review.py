"""The Context page's 'To review' section in NiceGUI's User fixture: confirm, edit, reject, bulk."""

from __future__ import annotations

from datetime import timedelta

import pytest
from nicegui import ui
from nicegui.testing import User
from sqlalchemy import Engine, select

from domain import proposals
from domain.enums import MemoryStatus, MemoryType, ProposalStatus
from domain.ingest import ingest
from domain.models import Memory, Proposal
from domain.types import utcnow
from persistence.uow import unit_of_work
from tests.ui.context_support import (
    NEW,
    REPLACES,
    SEEN_BEFORE,
    UNSAFE,
    add_proposals,
    athlete,
    database,
    eventually,
    memory_by_content,
    memory_row,
    open_context,
    proposal,
    set_value,
)


def reject_all_pending(engine: Engine, username: str) -> None:
    """Start from an empty review list, whatever the demo data proposed."""
    owner = athlete(engine, username)
    with unit_of_work(engine) as session:
        ids = session.scalars(
            select(Proposal.id).where(Proposal.athlete_id == owner.id, Proposal.status == ProposalStatus.PENDING)
        ).all()
        if ids:
            proposals.reject_many(session, owner, proposal_ids=list(ids))


async def test_each_proposal_says_what_confirming_will_do_and_shows_its_evidence(user: User, app_database: str) -> None:
    with database(app_database) as engine:
        seen, replaces, new = add_proposals(engine, "alex", [SEEN_BEFORE, REPLACES, NEW])
    await open_context(user)
    await user.should_see("To review")
    with user.scope(marker=f"proposal-{seen}"):
        await user.should_see("seen before — will count again (3×)")
        await user.should_see("I prefer morning runs")  # the marked evidence
        await user.should_see("Preference")
        await user.should_see("Mornings")  # time:morning, in words
    with user.scope(marker=f"proposal-{replaces}"):
        await user.should_see("replaces: 'Occasional knee soreness'")
        await user.should_see("Keep both")
        await user.should_see("Low confidence")
    with user.scope(marker=f"proposal-{new}"):
        await user.should_see("new")
        await user.should_not_see("Keep both")
    marked = [e.text for e in user.find(kind=ui.element, marker="evidence").elements for e in e.descendants()]
    assert "I swim on Fridays to recover" in marked


async def test_note_text_is_shown_as_text_not_html(user: User, app_database: str) -> None:
    with database(app_database) as engine:
        (unsafe,) = add_proposals(engine, "alex", [UNSAFE])
    await open_context(user)
    with user.scope(marker=f"proposal-{unsafe}"):
        await user.should_see("Says <script>alert(1)</script> often")
        await user.should_see("<script>alert(1)</script>")
    await user.should_not_see(kind=ui.html)


async def test_confirm_counts_a_seen_before_memory_again(user: User, app_database: str) -> None:
    with database(app_database) as engine:
        (seen,) = add_proposals(engine, "alex", [SEEN_BEFORE])
        before = memory_by_content(engine, "alex", "Prefers morning runs")
        await open_context(user)
        with user.scope(marker=f"proposal-{seen}"):
            user.find(marker="proposal-confirm").click()
        await user.should_see("Confirmed: 'Prefers morning runs'")
        assert proposal(engine, seen).status == ProposalStatus.CONFIRMED
        after = memory_by_content(engine, "alex", "Prefers morning runs")
    assert (after.id, after.occurrences) == (before.id, before.occurrences + 1)
    await user.should_not_see(marker=f"proposal-{seen}")
    await eventually(lambda: "Seen 3×" in card_texts(user, after.id))


def card_texts(user: User, memory_id: int) -> list[str]:
    row = memory_row(user, memory_id)
    return [str(row[key]) for key in ("text", "meta", "seen", "usage")] if row is not None else []


async def test_keep_both_confirms_without_replacing(user: User, app_database: str) -> None:
    with database(app_database) as engine:
        (first,) = add_proposals(engine, "alex", [REPLACES])
        await open_context(user)
        with user.scope(marker=f"proposal-{first}"):
            set_value(user, "keep-both", True)
            user.find(marker="proposal-confirm").click()
        await user.should_see("Confirmed: 'Left knee pain after long runs'")
        old = memory_by_content(engine, "alex", "Occasional knee soreness")
        assert old.status == MemoryStatus.ACTIVE  # kept both
    await user.should_see("Occasional knee soreness")


async def test_confirm_selected_honours_each_cards_keep_both(user: User, app_database: str) -> None:
    with database(app_database) as engine:
        reject_all_pending(engine, "alex")
        replaces, new = add_proposals(engine, "alex", [REPLACES, NEW])
        await open_context(user)
        with user.scope(marker=f"proposal-{replaces}"):
            set_value(user, "keep-both", True)
            user.find(marker="proposal-select").click()
        with user.scope(marker=f"proposal-{new}"):
            user.find(marker="proposal-select").click()
        user.find(marker="confirm-selected").click()
        await user.should_see("Confirmed 2 proposals.")
        old = memory_by_content(engine, "alex", "Occasional knee soreness")
    assert old.status == MemoryStatus.ACTIVE  # kept both, as the card said


async def test_confirm_that_replaces_archives_the_old_memory(user: User, app_database: str) -> None:
    with database(app_database) as engine:
        (replaces,) = add_proposals(engine, "alex", [REPLACES])
        await open_context(user)
        with user.scope(marker=f"proposal-{replaces}"):
            user.find(marker="proposal-confirm").click()
        await user.should_see("Confirmed: 'Left knee pain after long runs'")
        old = memory_by_content(engine, "alex", "Occasional knee soreness")
    assert old.status == MemoryStatus.ARCHIVED
    await user.should_not_see("Occasional knee soreness")


async def test_edit_then_confirm_saves_the_athletes_wording(user: User, app_database: str) -> None:
    with database(app_database) as engine:
        (new,) = add_proposals(engine, "alex", [NEW])
        await open_context(user)
        with user.scope(marker=f"proposal-{new}"):
            user.find(marker="proposal-edit").click()
        await user.should_see("Edit proposal")
        with user.scope(marker="proposal-dialog"):
            user.find(marker="field-content").clear()
            user.find(marker="field-content").click()  # nothing to click; the field just has focus
            user.find(marker="dialog-confirm").click()
            await user.should_see("Content: must not be empty")
            assert proposal(engine, new).status == ProposalStatus.PENDING
            user.find(marker="field-content").type("Swims every Friday to recover")
            set_value(user, "field-type", MemoryType.PREFERENCE.value)
            set_value(user, "field-tags", ["context:swimming, time:friday"])  # one chip pasted: split at the comma
            user.find(marker="dialog-confirm").click()
        await user.should_see("Confirmed: 'Swims every Friday to recover'")
        decided = proposal(engine, new)
        assert decided.status == ProposalStatus.CONFIRMED
        with unit_of_work(engine, read_only=True) as session:
            memory = session.get(Memory, decided.memory_id)
            assert memory is not None
    assert (memory.content, memory.type, memory.tags) == (
        "Swims every Friday to recover",
        MemoryType.PREFERENCE,
        ["context:swimming", "time:friday"],
    )
    await user.should_see("Swims every Friday to recover")


async def test_reject_removes_the_proposal_and_keeps_memories_unchanged(user: User, app_database: str) -> None:
    with database(app_database) as engine:
        (new,) = add_proposals(engine, "alex", [NEW])
        await open_context(user)
        with user.scope(marker=f"proposal-{new}"):
            user.find(marker="proposal-reject").click()
        await user.should_see("Rejected: 'Swims on Fridays to recover'")
        assert proposal(engine, new).status == ProposalStatus.REJECTED
        owner = athlete(engine, "alex")
        with unit_of_work(engine, read_only=True) as session:
            made = session.scalars(select(Memory).where(Memory.athlete_id == owner.id, Memory.content == NEW.content))
            assert made.all() == []
    await user.should_not_see(marker=f"proposal-{new}")


async def test_bulk_confirm_and_reject_a_selection_then_the_kind_empty_state(user: User, app_database: str) -> None:
    with database(app_database) as engine:
        reject_all_pending(engine, "alex")
        seen, new, unsafe = add_proposals(engine, "alex", [SEEN_BEFORE, NEW, UNSAFE])
        await open_context(user)
        for proposal_id in (seen, new):
            with user.scope(marker=f"proposal-{proposal_id}"):
                user.find(marker="proposal-select").click()
        await user.should_see("Confirm selected (2)")
        user.find(marker="confirm-selected").click()
        await user.should_see("Confirmed 2 proposals.")
        assert {proposal(engine, p).status for p in (seen, new)} == {ProposalStatus.CONFIRMED}
        assert proposal(engine, unsafe).status == ProposalStatus.PENDING
        await user.should_not_see(marker=f"proposal-{seen}")  # the list is read again: its bar is built anew
        user.find(marker="select-all").click()
        user.find(marker="reject-selected").click()
        await user.should_see("All caught up: nothing is waiting for your review.")
        assert proposal(engine, unsafe).status == ProposalStatus.REJECTED
        owner = athlete(engine, "alex")
        with unit_of_work(engine, read_only=True) as session:
            left = session.scalars(
                select(Proposal).where(Proposal.athlete_id == owner.id, Proposal.status == ProposalStatus.PENDING)
            ).all()
    assert left == []
    # the counts are refreshed after the list: wait for them as a person would glance again
    await eventually(lambda: [label.text for label in user.find(marker="review-count").elements] == ["0"])
    await eventually(lambda: [label.text for label in user.find(marker="overview-pending").elements] == ["0"])


async def test_bulk_buttons_need_a_selection(user: User, app_database: str) -> None:
    with database(app_database) as engine:
        add_proposals(engine, "alex", [NEW])
    await open_context(user)
    user.find(marker="confirm-selected").click()  # disabled: nothing happens
    await user.should_see(marker="proposal-confirm")


async def test_an_insight_proposal_shows_the_observations_it_rests_on(user: User, app_database: str) -> None:
    with database(app_database) as engine:
        owner = athlete(engine, "alex")
        notes = {
            "act_a1": "Right Achilles was tight after the hills.",
            "act_a2": "Achilles pain again this morning.",
            "act_a3": "Sore Achilles on the cooldown.",
        }
        with unit_of_work(engine) as session:
            for reference, text in notes.items():
                ingest(session, athlete=owner, kind="activity_note", reference=reference, text=text)
        await open_context(user)
    await user.should_see("Recurring right Achilles issues: 3 observations")
    await user.should_see("Based on:")
    await user.should_see("act_a3")


def age_proposal(engine: Engine, proposal_id: int, days: int) -> None:
    with unit_of_work(engine) as session:
        stored = session.get(Proposal, proposal_id)
        assert stored is not None
        stored.created_at = utcnow() - timedelta(days=days)


async def test_proposals_past_the_default_age_are_not_offered(user: User, app_database: str) -> None:
    with database(app_database) as engine:
        (old,) = add_proposals(engine, "alex", [NEW])
        age_proposal(engine, old, days=45)
        await open_context(user)
    await user.should_not_see(marker=f"proposal-{old}")


@pytest.fixture
def sixty_day_proposals(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORY_REVIEW_PROPOSAL_MAX_AGE_DAYS", "60")


async def test_the_configured_proposal_age_decides_what_is_offered(
    sixty_day_proposals: None, user: User, app_database: str
) -> None:
    with database(app_database) as engine:
        (old,) = add_proposals(engine, "alex", [NEW])
        age_proposal(engine, old, days=45)
        await open_context(user)
    await user.should_see(marker=f"proposal-{old}")
