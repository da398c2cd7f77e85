"""The Context page's memories in NiceGUI's User fixture: add, edit, conflicts, delete, history, search."""

from __future__ import annotations

from nicegui.testing import User
from sqlalchemy import func, select

from domain import memories
from domain.enums import MemoryStatus, MemoryType
from domain.models import Memory
from domain.schemas import MemoryEdit
from persistence.uow import unit_of_work
from tests.ui.conftest import log_in
from tests.ui.context_support import (
    add_memories,
    athlete,
    choose_filters,
    database,
    dialogs_closed,
    eventually,
    listed,
    memory_action,
    memory_by_content,
    memory_row,
    open_context,
    set_value,
    show_type,
)


def listed_texts(user: User) -> list[str]:
    return listed(user)


def memory_text(user: User, memory_id: int) -> str:
    row = memory_row(user, memory_id)
    assert row is not None, f"memory {memory_id} is not listed"
    return str(row["text"])


def active_count(url: str) -> int:
    with database(url) as engine:
        owner = athlete(engine, "alex")
        with unit_of_work(engine, read_only=True) as session:
            return session.scalar(select(func.count()).select_from(Memory).where(Memory.athlete_id == owner.id)) or 0


async def test_memories_are_grouped_by_type_with_counts_and_details(user: User) -> None:
    await open_context(user)
    for heading in ("Injury history (4)", "Preferences (4)", "Context (4)", "Training responses (3)", "Insights (2)"):
        await user.should_see(heading)
    await user.should_see("Learned per week")
    show_type(user, "context")
    await misses(user, "Occasional knee soreness")
    with user.scope(marker="memories"):
        await user.should_see("Works as a nurse on rotating shifts")
        await user.should_see("Seen 3×")
        await user.should_see("Confirmed by you")
        await user.should_see("From your message of")
        await user.should_see("Work")  # the tag context:work, in words
        await user.should_not_see("context:work")
        await user.should_see("Updated 3 months ago")


async def test_add_memory_shows_errors_at_the_field_and_saves_only_when_valid(user: User, app_database: str) -> None:
    before = active_count(app_database)
    await open_context(user)
    user.find(marker="add-memory").click()
    with user.scope(marker="add-dialog"):
        await user.should_see("Content")
        user.find(marker="save").click()
        await user.should_see("Content: must not be empty")
        user.find(marker="field-content").type("Runs with a club on Tuesdays <b>fast</b>")
        user.find(marker="save").click()
        await user.should_see("Type: choose one.")
        set_value(user, "field-type", MemoryType.CONTEXT.value)
        set_value(user, "field-tags", ["Club night!"])  # a word of the vocabulary or plain words; not punctuation
        user.find(marker="save").click()
        await user.should_see("is not a tag")
        assert active_count(app_database) == before
        set_value(user, "field-tags", [])
        # typed, not yet made chips with Enter: leaving the field keeps them, split at the comma
        user.find(marker="field-tags").trigger("inputValue", "context:club, time:evening").trigger("blur")
        user.find(marker="save").click()
    await user.should_see("Memory added.")
    assert dialogs_closed(user, "add-dialog")
    assert active_count(app_database) == before + 1
    with database(app_database) as engine:
        added = memory_by_content(engine, "alex", "Runs with a club on Tuesdays <b>fast</b>")
    assert (added.type, added.tags) == (MemoryType.CONTEXT, ["context:club", "time:evening"])
    await user.should_see("Context (5)")
    await eventually(lambda: memory_row(user, added.id) is not None)
    row = memory_row(user, added.id)
    assert row is not None
    assert row["text"] == "Runs with a club on Tuesdays <b>fast</b>"  # as typed; the browser shows it as text
    assert "Added by you" in row["meta"]


async def test_edit_saves_and_a_conflicting_edit_overwrites_nothing(user: User, app_database: str) -> None:
    with database(app_database) as engine:
        memory = memory_by_content(engine, "alex", "Occasional knee soreness")
        await open_context(user)
        memory_action(user, memory.id, "Edit")
        with user.scope(marker="edit-dialog"):
            user.find(marker="field-content").clear().type("Knee soreness after hills")
            # Meanwhile, another tab changes the same memory.
            with unit_of_work(engine) as session:
                memories.edit_memory(
                    session,
                    athlete(engine, "alex"),
                    memory_id=memory.id,
                    changes=MemoryEdit(content="Knee soreness on descents"),
                    expected_version=memory.version,
                )
            user.find(marker="save").click()
            await user.should_see("This memory changed meanwhile")
            await user.should_see("Knee soreness on descents")  # the newer version, shown
            assert user.find(marker="field-content").elements.pop().value == "Knee soreness after hills"  # kept
            assert memory_by_content(engine, "alex", "Knee soreness on descents").id == memory.id  # not overwritten
            user.find(marker="save").click()  # having seen the newer version, the athlete saves theirs
        await user.should_see("Memory saved.")
        saved = memory_by_content(engine, "alex", "Knee soreness after hills")
    assert (saved.id, saved.confidence.value) == (memory.id, "high")
    assert dialogs_closed(user, "edit-dialog")
    await eventually(lambda: memory_text(user, memory.id) == "Knee soreness after hills")


async def test_delete_then_undo_brings_the_memory_back(user: User, app_database: str) -> None:
    with database(app_database) as engine:
        memory = memory_by_content(engine, "alex", "Dislikes running on the treadmill")
        await open_context(user)
        memory_action(user, memory.id, "Delete")
        await user.should_see("Deleted 'Dislikes running on the treadmill'")
        await eventually(lambda: memory_row(user, memory.id) is None)
        assert memory_by_content(engine, "alex", memory.content).status == MemoryStatus.DELETED
        await user.should_see("Preferences (3)")
        user.find(marker="undo").click()
        await user.should_see("Brought back 'Dislikes running on the treadmill'")
        assert memory_by_content(engine, "alex", memory.content).status == MemoryStatus.ACTIVE
    await eventually(lambda: memory_row(user, memory.id) is not None)
    await user.should_see("Preferences (4)")
    await user.should_not_see(marker="undo-bar")


async def test_history_shows_versions_as_a_diff_and_restores_one(user: User, app_database: str) -> None:
    with database(app_database) as engine:
        memory = memory_by_content(engine, "alex", "Prefers morning runs")
        with unit_of_work(engine) as session:
            memories.edit_memory(
                session,
                athlete(engine, "alex"),
                memory_id=memory.id,
                changes=MemoryEdit(content="Prefers early morning runs", tags=["time:morning", "time:early"]),
                expected_version=memory.version,
            )
        await open_context(user)
        memory_action(user, memory.id, "History")
        with user.scope(marker="history-dialog"):
            await user.should_see("Edited")
            await user.should_see("Imported")
            await user.should_see("Tags added: Early")
            await user.should_see("Confidence: Medium confidence → Confirmed by you")
            diff = user.find(marker="diff").elements
            pieces = [(child.tag, child.text) for element in diff for child in element.default_slot.children]
            assert ("ins", " early") in pieces, pieces
            assert len(user.find(marker="restore-version").elements) == 1  # the current version has none
            user.find(marker="restore-version").click()
        await user.should_see("Restored this version.")
        restored = memory_by_content(engine, "alex", "Prefers morning runs")
    # the version's statement and tags come back; choosing it confirms it (domain.confidence)
    assert (restored.id, restored.tags, restored.confidence.value) == (memory.id, ["time:morning"], "high")


async def test_search_filters_and_sort(user: User) -> None:
    await open_context(user)
    await search_filters_and_sort(user)


async def sees(user: User, text: str) -> None:
    with user.scope(marker="memories"):
        await user.should_see(text)


async def misses(user: User, text: str) -> None:
    with user.scope(marker="memories"):
        await user.should_not_see(text)


async def search_filters_and_sort(user: User) -> None:
    user.find(marker="search").type("knee")
    await sees(user, "Occasional knee soreness")
    await sees(user, "Knee complaints cluster after runs longer than 18 km")
    await misses(user, "Prefers morning runs")
    await sees(user, "Injury history (1)")
    user.find(marker="search").clear()
    show_type(user, "preference")
    await sees(user, "Prefers morning runs")
    await misses(user, "Occasional knee soreness")
    show_type(user, None)
    choose_filters(user, sources=["manual"])
    await sees(user, "Keeps long runs on Sunday mornings")
    await misses(user, "Prefers morning runs")
    choose_filters(user, sources=[])
    choose_filters(user, confidences=["low"])
    await sees(user, "Occasional knee soreness")
    await misses(user, "Keeps long runs on Sunday mornings")
    choose_filters(user, confidences=[])
    await sees(user, "Injury history (4)")
    show_type(user, "injury_history")
    await eventually(lambda: len(listed_texts(user)) == 4)
    await eventually(lambda: listed_texts(user)[-1].startswith("Had plantar fasciitis"))  # oldest update last
    choose_filters(user, sort="confidence")
    await eventually(lambda: listed_texts(user)[0].startswith("Had plantar fasciitis"))  # the only high one first
    user.find(marker="search").type("zebra crossing")
    await sees(user, "No memories match your search or filters.")
    user.find("Clear filters").click()
    await sees(user, "Occasional knee soreness")
    assert user.find(marker="search").elements.pop().value == ""


async def test_a_long_list_loads_a_page_at_a_time(user: User, app_database: str) -> None:
    with database(app_database) as engine:
        add_memories(engine, "alex", 60)
    await open_context(user)
    await user.should_see("Context (16)")
    await user.should_see("All (77)")
    assert len(listed_texts(user)) == 20  # the first page only
    await user.should_see("Show more (57 more)")
    user.find(marker="more-memories").click()
    await eventually(lambda: len(listed_texts(user)) == 60)
    await user.should_see("Show more (17 more)")
    user.find(marker="more-memories").click()
    await eventually(lambda: len(listed_texts(user)) == 77)
    assert len(set(listed_texts(user))) == 77  # each once, none skipped
    await user.should_not_see(marker="more-memories")
    show_type(user, "context")
    await eventually(lambda: len(listed_texts(user)) == 16)


async def test_an_athlete_cannot_reach_another_athletes_memory_by_id(user: User, app_database: str) -> None:
    with database(app_database) as engine:
        sams = memory_by_content(engine, "sam", "Travels for work most weeks")
        own = memory_by_content(engine, "alex", "Prefers morning runs")
    await log_in(user, "alex")
    await user.should_see("What your coach remembers")
    await user.open(f"/?memory={sams.id}")
    await user.should_see("Memory not found.")
    await user.should_not_see("Travels for work most weeks")
    await user.should_not_see(marker="history-dialog")
    await user.open(f"/?memory={own.id}")
    await user.should_see(marker="history-dialog")


async def test_a_malformed_memory_link_says_not_found(user: User) -> None:
    await log_in(user, "alex")
    await user.should_see("What your coach remembers")
    for bad in ("abc", "99999999999999999999", "-3", "0", "１２", "9" * 5000):
        await user.open(f"/?memory={bad}")
        await user.should_see("Memory not found.")
        await user.should_see("What your coach remembers")
        await user.should_not_see(marker="history-dialog")
