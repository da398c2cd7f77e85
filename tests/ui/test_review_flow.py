"""The review side of issue 11 in NiceGUI's User fixture: named checkboxes, reject and its Undo, the
live "If you confirm" preview, Add memory's suggested type and tags, what a memory replaced, and the
label a confirmed memory carries."""

from __future__ import annotations

import asyncio

from nicegui import ui
from nicegui.elements.mixins.value_element import ValueElement
from nicegui.testing import User

from domain.enums import MemoryConfidence, MemoryStatus, MemoryType, ProposalStatus, Role
from tests.ui.conftest import log_in
from tests.ui.context_support import (
    NEW,
    REPLACES,
    SEEN_BEFORE,
    add_proposals,
    database,
    eventually,
    memory_by_content,
    open_context,
    proposal,
    set_value,
)
from ui.components.review import ReviewSection, load_pending
from ui.components.undo_bar import UndoBar
from ui.pages.guard import page_user
from ui.session import read

REVIEW = "/?view=review"  # the page's review view (the page's own layout decides the rest)


def field_value(user: User, marker: str) -> object:
    [element] = user.find(marker=marker).elements
    assert isinstance(element, ValueElement)
    return element.value  # the page's review view (the page's own layout decides the rest)


async def open_review(user: User) -> None:
    await open_context(user)
    await user.open(REVIEW)
    await user.should_see("To review")


def review_with_undo_page() -> None:
    """The review section wired to an undo bar, as the Context page wires it (on_undoable=undo.show)."""

    @ui.page("/test-review-undo")
    async def page() -> None:
        if await page_user(Role.ATHLETE) is None:
            return
        bar = UndoBar()

        async def decided() -> None:
            await section.reload()

        section = ReviewSection(read(load_pending), on_decided=decided, on_undoable=bar.show)
        section.render()


async def test_each_proposal_checkbox_is_named_for_its_proposal(user: User, app_database: str) -> None:
    with database(app_database) as engine:
        (new,) = add_proposals(engine, "alex", [NEW])
    await open_review(user)
    await user.should_see(marker=f"proposal-{new}")
    with user.scope(marker=f"proposal-{new}"):
        [box] = user.find(marker="proposal-select").elements
    assert box.props["aria-label"] == "Select proposal: Swims on Fridays to recover"


async def test_a_reject_can_be_undone_from_the_undo_bar(user: User, app_database: str) -> None:
    review_with_undo_page()
    with database(app_database) as engine:
        (new,) = add_proposals(engine, "alex", [NEW])
        await log_in(user, "alex")
        await user.open("/test-review-undo")
        await user.should_see(marker=f"proposal-{new}")
        with user.scope(marker=f"proposal-{new}"):
            user.find(marker="proposal-reject").click()
        await user.should_see("Rejected: 'Swims on Fridays to recover'")
        await user.should_not_see(marker=f"proposal-{new}")
        assert proposal(engine, new).status == ProposalStatus.REJECTED
        user.find(marker="undo").click()
        await user.should_see("Back in To review: you can decide again.")
        await user.should_see(marker=f"proposal-{new}")
        assert proposal(engine, new).status == ProposalStatus.PENDING


async def test_a_confirm_that_replaced_a_memory_is_undone_from_the_pages_undo_bar(
    user: User, app_database: str
) -> None:
    with database(app_database) as engine:
        (replaces,) = add_proposals(engine, "alex", [REPLACES])
        old = memory_by_content(engine, "alex", "Occasional knee soreness")
        await open_review(user)
        with user.scope(marker=f"proposal-{replaces}"):
            user.find(marker="proposal-confirm").click()
        await user.should_see("Confirmed: 'Left knee pain after long runs'")
        await user.should_not_see(marker=f"proposal-{replaces}")
        assert memory_by_content(engine, "alex", "Occasional knee soreness").status == MemoryStatus.ARCHIVED
        user.find(marker="undo").click()
        await user.should_see("Confirm undone: back in To review.")
        await user.should_see(marker=f"proposal-{replaces}")
        assert proposal(engine, replaces).status == ProposalStatus.PENDING
        back = memory_by_content(engine, "alex", "Occasional knee soreness")
        assert (back.id, back.status) == (old.id, MemoryStatus.ACTIVE)
        with user.scope(marker=f"proposal-{replaces}"):  # and the card says again what confirming would do
            await user.should_see("Occasional knee soreness")


async def test_a_confirm_from_the_edit_dialog_and_a_selection_can_be_undone(user: User, app_database: str) -> None:
    with database(app_database) as engine:
        new, seen = add_proposals(engine, "alex", [NEW, SEEN_BEFORE])
        count_before = memory_by_content(engine, "alex", "Prefers morning runs").occurrences
        await open_review(user)
        with user.scope(marker=f"proposal-{new}"):
            user.find(marker="proposal-edit").click()
        with user.scope(marker="proposal-dialog"):
            user.find(marker="dialog-confirm").click()
        await user.should_see("Confirmed: 'Swims on Fridays to recover'")
        user.find(marker="undo").click()
        # the confirmed card may still be on screen while the undo is saved: wait for the saved state
        await eventually(lambda: proposal(engine, new).status == ProposalStatus.PENDING)
        for proposal_id in (new, seen):
            # the list may still be reloading after the confirm and the undo: each card comes back
            await user.should_see(marker=f"proposal-{proposal_id}")
            with user.scope(marker=f"proposal-{proposal_id}"):
                user.find(marker="proposal-select").click()
        user.find(marker="confirm-selected").click()
        await user.should_see("Confirmed 2 proposals.")
        assert memory_by_content(engine, "alex", "Prefers morning runs").occurrences == count_before + 1
        user.find(marker="undo").click()
        await user.should_see("Confirm undone: back in To review.")
        await user.should_see(marker=f"proposal-{seen}")
        await eventually(lambda: [proposal(engine, i).status for i in (new, seen)] == [ProposalStatus.PENDING] * 2)
        assert memory_by_content(engine, "alex", "Prefers morning runs").occurrences == count_before


async def test_without_an_undo_bar_a_reject_is_still_reported(user: User, app_database: str) -> None:
    with database(app_database) as engine:
        (new,) = add_proposals(engine, "alex", [NEW])
        await open_review(user)
        await user.should_see(marker=f"proposal-{new}")
        with user.scope(marker=f"proposal-{new}"):
            user.find(marker="proposal-reject").click()
        await user.should_see("Rejected: 'Swims on Fridays to recover'")
        assert proposal(engine, new).status == ProposalStatus.REJECTED


async def test_the_preview_follows_the_typing(user: User, app_database: str) -> None:
    with database(app_database) as engine:
        (new,) = add_proposals(engine, "alex", [NEW])
    await open_review(user)
    await user.should_see(marker=f"proposal-{new}")
    with user.scope(marker=f"proposal-{new}"):
        user.find(marker="proposal-edit").click()
    await user.should_see("Edit proposal")
    with user.scope(marker="proposal-dialog"):
        await user.should_see("new")
        user.find(marker="field-content").clear()
        user.find(marker="field-content").type("Prefers morning runs")  # an existing memory, word for word
        await user.should_see("seen before — will count again (3×)")  # no blur needed
        user.find(marker="field-content").clear()
        user.find(marker="field-content").type("Prefers morning runs in the rain")
        await user.should_not_see("seen before — will count again (3×)")
        await user.should_see("new")


async def test_add_memory_suggests_a_type_and_tags_the_athlete_can_change(user: User, app_database: str) -> None:
    await open_context(user)
    user.find(marker="add-memory").click()
    await user.should_see("Add memory")
    with user.scope(marker="add-dialog"):
        user.find(marker="field-content").type("Left knee hurts after long runs")
        await eventually(lambda: field_value(user, "field-type") == "injury_history")
        await user.should_see("Suggested tags:")
        await user.should_see("Knee")  # the suggestion in words
        user.find(marker="suggested-tag").click()
        await eventually(lambda: field_value(user, "field-tags") == ["body:knee"])
        set_value(user, "field-tags", ["body:knee", "Mornings, hotel gyms"])  # typed as words
        await eventually(lambda: field_value(user, "field-tags") == ["body:knee", "time:morning", "topic:hotel gyms"])
        set_value(user, "field-type", MemoryType.TRAINING_RESPONSE.value)  # the athlete's choice
        user.find(marker="field-content").type(" again")
        await asyncio.sleep(0.6)  # past the typing pause: a new suggestion came, and left the type alone
        assert field_value(user, "field-type") == MemoryType.TRAINING_RESPONSE.value
        user.find(marker="save").click()
    await user.should_see("Memory added.")
    with database(app_database) as engine:
        saved = memory_by_content(engine, "alex", "Left knee hurts after long runs again")
    assert (saved.type, saved.tags, saved.confidence) == (
        MemoryType.TRAINING_RESPONSE,
        ["body:knee", "time:morning", "topic:hotel gyms"],
        MemoryConfidence.HIGH,
    )


async def test_saving_with_no_type_picked_uses_the_suggestion(user: User, app_database: str) -> None:
    await open_context(user)
    user.find(marker="add-memory").click()
    with user.scope(marker="add-dialog"):
        user.find(marker="field-content").type("I prefer morning runs before work")
        user.find(marker="save").click()  # at once: before the typing pause has passed
    await user.should_see("Memory added.")
    with database(app_database) as engine:
        saved = memory_by_content(engine, "alex", "I prefer morning runs before work")
    assert saved.type == MemoryType.PREFERENCE


async def test_a_confirmed_memory_says_so_and_reaches_what_it_replaced(user: User, app_database: str) -> None:
    with database(app_database) as engine:
        (replaces,) = add_proposals(engine, "alex", [REPLACES])  # a low-confidence proposal
        await open_review(user)
        await user.should_see(marker=f"proposal-{replaces}")
        with user.scope(marker=f"proposal-{replaces}"):
            await user.should_see("Low confidence")
            user.find(marker="proposal-confirm").click()
        await user.should_see("Confirmed: 'Left knee pain after long runs'")
        memory = memory_by_content(engine, "alex", "Left knee pain after long runs")
        old = memory_by_content(engine, "alex", "Occasional knee soreness")
    assert (memory.confidence, old.status) == (MemoryConfidence.HIGH, MemoryStatus.ARCHIVED)
    await user.open(f"/?memory={memory.id}")
    with user.scope(marker="history-dialog"):
        await user.should_see("Replaced: Occasional knee soreness")
        await user.should_see("Replaced")  # the old memory's own history: its SUPERSEDE event


async def test_a_double_click_on_confirm_confirms_once_and_warns_of_nothing(user: User, app_database: str) -> None:
    with database(app_database) as engine:
        (seen,) = add_proposals(engine, "alex", [SEEN_BEFORE])
        count_before = memory_by_content(engine, "alex", "Prefers morning runs").occurrences
        await open_review(user)
        with user.scope(marker=f"proposal-{seen}"):
            confirm = user.find(marker="proposal-confirm")
            confirm.click()
            confirm.click()  # the second click of a double click, sent before the card is gone
        await user.should_see("Confirmed: ")
        await user.should_not_see(marker=f"proposal-{seen}")
        await user.should_not_see("This proposal was already confirmed.")
        assert memory_by_content(engine, "alex", "Prefers morning runs").occurrences == count_before + 1
