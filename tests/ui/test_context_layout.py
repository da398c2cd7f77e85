"""The Context page's layout and list in NiceGUI's User fixture (issue 11): views in tabs kept in the
URL, type chips that filter, the sorts, bulk select (delete with undo, hide, change type), long
memories clamped with "Show more", the row's "more" menu, words instead of codes; and how much a
built page costs (issue 9)."""

from __future__ import annotations

from nicegui import ui
from nicegui.testing import User

from domain.enums import MemoryStatus, MemoryType
from domain.schemas import MemoryEdit
from persistence.uow import unit_of_work
from tests.ui.conftest import log_in
from tests.ui.context_support import (
    add_memories,
    athlete,
    database,
    eventually,
    memory_action,
    memory_by_content,
    open_context,
    set_value,
    show_type,
    texts,
)

NURSE = "Works as a nurse on rotating shifts"
TREADMILL = "Dislikes running on the treadmill"
KNEE = "Occasional knee soreness"


def listed(user: User) -> list[str]:
    with user.scope(marker="memory-list"):
        return texts(user, "memory-content")


async def test_views_switch_and_the_tab_is_kept_in_the_url(user: User) -> None:
    await log_in(user, "alex")
    await user.should_see("What your coach remembers")
    assert [e.value for e in user.find(kind=ui.tabs).elements] == ["memories"]
    assert texts(user, "overview-pending") == ["9"]
    assert texts(user, "overview-memories") == ["17"]
    await user.should_not_see(marker="review-count")  # 'To review' is built when it is first shown
    user.find(kind=ui.tab, content="To review").click()
    await eventually(lambda: [e.value for e in user.find(kind=ui.tabs).elements] == ["review"])
    await user.should_see(marker="review-count")
    await user.open("/?view=review")
    await user.should_see(marker="review-count")
    assert [e.value for e in user.find(kind=ui.tabs).elements] == ["review"]
    # a search shows its results: the memories view
    user.find(marker="search").type("knee")
    await eventually(lambda: [e.value for e in user.find(kind=ui.tabs).elements] == ["memories"])
    await eventually(lambda: KNEE in listed(user))


async def test_type_chips_filter_the_list_and_show_counts(user: User) -> None:
    await open_context(user)
    await user.should_see("All (17)")
    assert len(listed(user)) == 17
    show_type(user, "insight")
    await eventually(lambda: len(listed(user)) == 2)
    assert [e.props["aria-pressed"] for e in user.find(marker="type-insight").elements] == ["true"]
    show_type(user, "insight")  # pressed again: all types
    await eventually(lambda: len(listed(user)) == 17)


async def test_each_sort_orders_the_list(user: User) -> None:
    await open_context(user)
    set_value(user, "sort", "alpha")
    await eventually(lambda: listed(user) == sorted(listed(user), key=str.lower) and len(listed(user)) == 17)
    set_value(user, "sort", "seen")
    await eventually(
        lambda: listed(user)[0] == "Responds well to tempo runs; threshold pace improved 10 s/km in six weeks"
    )
    set_value(user, "sort", "created")
    await eventually(
        lambda: listed(user)[0] != "Responds well to tempo runs; threshold pace improved 10 s/km in six weeks"
    )


async def test_bulk_delete_is_one_undoable_step(user: User, app_database: str) -> None:
    with database(app_database) as engine:
        nurse = memory_by_content(engine, "alex", NURSE)
        treadmill = memory_by_content(engine, "alex", TREADMILL)
        await open_context(user)
        user.find(marker="select-memories").click()
        await user.should_see(marker="bulk-delete")
        for memory in (nurse, treadmill):
            with user.scope(marker=f"memory-{memory.id}"):
                box = user.find(marker="memory-select").elements.pop()
                assert box.props["aria-label"] == f"Select: {memory.content}"
                box.value = True
        await user.should_see("2 selected")
        user.find(marker="bulk-delete").click()
        await user.should_see("Deleted 2 memories")
        await user.should_see("All (15)")
        assert memory_by_content(engine, "alex", NURSE).status == MemoryStatus.DELETED
        assert memory_by_content(engine, "alex", TREADMILL).status == MemoryStatus.DELETED
        user.find(marker="undo").click()
        await user.should_see("Brought back 2 memories")
        await user.should_see("All (17)")
        assert memory_by_content(engine, "alex", NURSE).status == MemoryStatus.ACTIVE


async def test_bulk_hide_and_change_type(user: User, app_database: str) -> None:
    with database(app_database) as engine:
        nurse = memory_by_content(engine, "alex", NURSE)
        knee = memory_by_content(engine, "alex", KNEE)
        await open_context(user)
        user.find(marker="select-memories").click()
        await user.should_see(marker="bulk-hide")
        for memory in (nurse, knee):
            with user.scope(marker=f"memory-{memory.id}"):
                user.find(marker="memory-select").elements.pop().value = True
        await user.should_see("2 selected")
        user.find(marker="bulk-hide").click()
        await user.should_see("Hidden from your coach: 2 memories")
        assert memory_by_content(engine, "alex", NURSE).hidden_from_coach
        assert memory_by_content(engine, "alex", KNEE).hidden_from_coach
        await eventually(lambda: len(user.find(marker="memory-hidden").elements) == 2)
        # change type: the selection was cleared, tick the two again
        for memory in (nurse, knee):
            with user.scope(marker=f"memory-{memory.id}"):
                user.find(marker="memory-select").elements.pop().value = True
        await user.should_see("2 selected")
        user.find(marker="bulk-type-insight").click()
        await user.should_see("Moved 2 memories to Insight")
        assert memory_by_content(engine, "alex", NURSE).type == MemoryType.INSIGHT
        assert memory_by_content(engine, "alex", KNEE).type == MemoryType.INSIGHT
        await user.should_see("Insights (4)")


async def test_a_long_memory_is_clamped_with_show_more(user: User, app_database: str) -> None:
    long_text = "Long-run notes. " + "Knee fine, pace steady, fuelling every 30 minutes worked well. " * 30
    with database(app_database) as engine:
        memory = memory_by_content(engine, "alex", NURSE)
        with unit_of_work(engine) as session:
            from domain import memories

            memories.edit_memory(
                session,
                athlete(engine, "alex"),
                memory_id=memory.id,
                changes=MemoryEdit(content=long_text.strip()),
                expected_version=memory.version,
            )
    await open_context(user)
    with user.scope(marker=f"memory-{memory.id}"):
        text = user.find(marker="memory-content").elements.pop()
        assert "mr-clamp" in text.classes
        user.find(marker="memory-expand").click()
        assert "mr-clamp" not in text.classes
        await user.should_see("Show less")
        user.find(marker="memory-expand").click()
        assert "mr-clamp" in text.classes
    with user.scope(marker="memory-list"):
        assert len(user.find(marker="memory-expand").elements) == 1  # short ones have none


async def test_rows_name_their_controls_and_build_their_menu_on_open(user: User, app_database: str) -> None:
    with database(app_database) as engine:
        nurse = memory_by_content(engine, "alex", NURSE)
    await open_context(user)
    with user.scope(marker=f"memory-{nurse.id}"):
        more = user.find(marker="memory-more").elements.pop()
        assert more.props["aria-label"] == f"More actions for: {NURSE}"
        edit = user.find(marker="memory-edit").elements.pop()
        assert edit.props["aria-label"] == f"Edit: {NURSE}"
        await user.should_not_see(marker="memory-delete")  # not built until opened
    names = [e.props["aria-label"] for e in user.find(marker="memory-more").elements]
    assert len(names) == len(set(names)) == 17
    memory_action(user, nurse.id, "memory-history")
    await user.should_see(marker="history-dialog")


async def test_codes_are_shown_as_words(user: User, app_database: str) -> None:
    await open_context(user)
    with user.scope(marker="memory-list"):
        await user.should_see("Knee, Long runs")  # body:knee, intensity:long run
        await user.should_see("From your activity note of")
        await user.should_not_see("body:knee")
        await user.should_not_see("intensity:long run")


async def test_the_built_page_stays_small(user: User, app_database: str) -> None:
    """Elements on the server for the page with 77 memories (20 shown) and 9 proposals (10 a page)."""
    with database(app_database) as engine:
        add_memories(engine, "alex", 60)
    await open_context(user)
    await eventually(lambda: len(listed(user)) == 20)
    client = user.client
    assert client is not None
    with user.scope(marker="memory-list"):
        row = next(iter(user.find(marker="memory-content").elements)).parent_slot.parent.parent_slot.parent
        per_row = len(list(row.descendants()))
    assert per_row <= 7, per_row
    total = len(client.elements)
    print(f"\nContext page: {total} elements with 20 memory rows ({per_row} per row) and the review view built")
    assert total < 600


async def test_filter_and_sort_fold_on_a_phone_and_say_whether_they_are_open(user: User) -> None:
    await open_context(user)
    [toggle] = user.find(marker="filters-toggle").elements
    assert toggle.props["aria-expanded"] == "false"
    user.find(marker="filters-toggle").click()
    await eventually(lambda: toggle.props["aria-expanded"] == "true")
    assert "mr-filters-open" in toggle.parent_slot.parent.classes  # type: ignore[union-attr]
    user.find(marker="filters-toggle").click()
    await eventually(lambda: toggle.props["aria-expanded"] == "false")
