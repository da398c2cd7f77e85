"""The Context page's layout and list in NiceGUI's User fixture (issue 11): views in tabs kept in the
URL, type chips that filter, the sorts, bulk select (delete with undo, hide, change type), long
memories clamped with "Show more", the row's "more" menu, words instead of codes; and how much a
built page costs (issue 9)."""

from __future__ import annotations

from nicegui.testing import User

from domain.enums import MemoryStatus, MemoryType
from domain.schemas import MemoryEdit
from persistence.uow import unit_of_work
from tests.ui.conftest import log_in
from tests.ui.context_support import (
    add_memories,
    athlete,
    choose_filters,
    chosen_filters,
    database,
    eventually,
    listed,
    memory_action,
    memory_by_content,
    memory_row,
    memory_rows,
    open_context,
    show_type,
    texts,
    tick_memory,
)
from ui.components.view_panels import ViewPanels
from ui.components.view_tabs import ViewTabs

NURSE = "Works as a nurse on rotating shifts"
TREADMILL = "Dislikes running on the treadmill"
KNEE = "Occasional knee soreness"


async def test_views_switch_and_the_tab_is_kept_in_the_url(user: User) -> None:
    await log_in(user, "alex")
    await user.should_see("What your coach remembers")
    assert [e.value for e in user.find(kind=ViewTabs).elements] == ["memories"]
    assert texts(user, "overview-pending") == ["9"]
    assert texts(user, "overview-memories") == ["17"]
    await user.should_not_see(marker="review-count")  # 'To review' is built when it is first shown
    assert shown_view(user) == "memories"
    user.find(marker="tab-review").click()
    await eventually(lambda: [e.value for e in user.find(kind=ViewTabs).elements] == ["review"])
    assert shown_view(user) == "review"  # the panel on screen follows the tab at once
    await user.should_see(marker="review-count")
    user.find(marker="tab-memories").click()
    await eventually(lambda: shown_view(user) == "memories")
    await user.open("/?view=review")
    await user.should_see(marker="review-count")
    assert [e.value for e in user.find(kind=ViewTabs).elements] == ["review"]
    assert shown_view(user) == "review"
    # a search shows its results: the memories view
    user.find(marker="search").type("knee")
    await eventually(lambda: [e.value for e in user.find(kind=ViewTabs).elements] == ["memories"])
    assert shown_view(user) == "memories"
    await eventually(lambda: KNEE in listed(user))


async def test_two_tabs_of_one_browser_each_show_their_own_view(user: User) -> None:
    await log_in(user, "alex")
    await user.should_see("What your coach remembers")
    [first] = user.find(kind=ViewPanels).elements
    user.find(marker="tab-review").click()
    await eventually(lambda: first.props["model-value"] == "review")
    await user.open("/")  # a second tab, on the default view
    await user.should_see("What your coach remembers")
    assert shown_view(user) == "memories"
    user.find(marker="search").type("knee")
    await eventually(lambda: KNEE in listed(user))
    assert first.props["model-value"] == "review"  # the first tab still shows what it showed


def shown_view(user: User) -> str:
    """The view whose panel is on screen (the q-tab-panels' model)."""
    [panels] = user.find(kind=ViewPanels).elements
    return str(panels.props["model-value"])


async def test_type_chips_filter_the_list_and_show_counts(user: User) -> None:
    await open_context(user)
    await user.should_see("All (17)")
    assert len(listed(user)) == 17
    show_type(user, "insight")
    await eventually(lambda: len(listed(user)) == 2)
    [chips] = user.find(marker="type-chips").elements
    assert chips.pressed() == ["Insights (2)"]  # type: ignore[attr-defined]  # drawn with aria-pressed="true"
    show_type(user, "insight")  # pressed again: all types
    await eventually(lambda: len(listed(user)) == 17)


async def test_each_sort_orders_the_list(user: User) -> None:
    await open_context(user)
    choose_filters(user, sort="alpha")
    await eventually(lambda: listed(user) == sorted(listed(user), key=str.lower) and len(listed(user)) == 17)
    choose_filters(user, sort="seen")
    await eventually(
        lambda: listed(user)[0] == "Responds well to tempo runs; threshold pace improved 10 s/km in six weeks"
    )
    choose_filters(user, sort="created")
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
            tick_memory(user, memory.id)
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
            tick_memory(user, memory.id)
        await user.should_see("2 selected")
        user.find(marker="bulk-hide").click()
        await user.should_see("Hidden from your coach: 2 memories")
        assert memory_by_content(engine, "alex", NURSE).hidden_from_coach
        assert memory_by_content(engine, "alex", KNEE).hidden_from_coach
        await eventually(lambda: sum(row["hidden"] for row in memory_rows(user)) == 2)
        # change type: the selection was cleared, tick the two again
        for memory in (nurse, knee):
            tick_memory(user, memory.id)
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
    await eventually(lambda: memory_row(user, memory.id) is not None)
    # The browser clamps a long row to three lines with "Show more" (tests/e2e/test_context_layout.py
    # opens and closes it); short ones have none.
    assert [row["id"] for row in memory_rows(user) if row["long"]] == [memory.id]


async def test_rows_are_named_for_a_screen_reader_and_their_menu_acts(user: User, app_database: str) -> None:
    """Each row's controls are named after its statement ("Edit: …", "More actions for: …", drawn by
    the browser; tests/e2e find them by those names); the names differ from row to row."""
    with database(app_database) as engine:
        nurse = memory_by_content(engine, "alex", NURSE)
    await open_context(user)
    await eventually(lambda: memory_row(user, nurse.id) is not None)
    assert memory_row(user, nurse.id)["name"] == NURSE  # type: ignore[index]
    names = [row["name"] for row in memory_rows(user)]
    assert len(names) == len(set(names)) == 17
    memory_action(user, nurse.id, "History")
    await user.should_see(marker="history-dialog")


async def test_an_action_for_a_row_the_page_did_not_show_does_nothing(user: User, app_database: str) -> None:
    """The browser names a row by its id; an id the page did not send (another athlete's memory, a
    made-up number, the wrong type) changes nothing and opens nothing."""
    with database(app_database) as engine:
        other = memory_by_content(engine, "sam", "Travels for work most weeks")
        await open_context(user)
        [element] = user.find(marker="memory-list").elements
        for args in (
            {"id": other.id, "action": "delete"},
            {"id": 10**12, "action": "delete"},
            {"id": str(other.id), "action": "delete"},
            {"id": memory_rows(user)[0]["id"], "action": "drop_table"},
            "delete",
            None,
        ):
            user.find(marker="memory-list").trigger("action", args)
        await user.should_not_see(marker="history-dialog")
        await user.should_not_see(marker="undo-bar")
        after = memory_by_content(engine, "sam", other.content)
        assert (after.status, after.version) == (other.status, other.version)
        assert len(memory_rows(user)) == 17 and element.props["busy"] is None


async def test_codes_are_shown_as_words(user: User, app_database: str) -> None:
    await open_context(user)
    with user.scope(marker="memories"):
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
    [rows] = user.find(marker="memory-list").elements
    assert list(rows.descendants()) == []  # the 20 rows are data in one element, not elements each
    total = len(client.elements)
    print(f"\nContext page: {total} elements with 20 memory rows and the review view built")
    assert total < 400


async def test_the_filter_fields_show_the_choice_and_clear_filters_empties_them(user: User) -> None:
    """Source, Confidence and Sort by are one element drawn in the browser (its fold on a phone is the
    browser's own: tests/e2e/test_context_layout.py); the page tells it what is chosen."""
    await open_context(user)
    await user.should_see("Sort by")
    await user.should_see("Last updated")
    choose_filters(user, sources=["manual"], sort="alpha")
    await eventually(lambda: listed(user) == sorted(listed(user), key=str.lower))
    assert chosen_filters(user) == {"sources": ["manual"], "confidences": [], "sort": "alpha"}
    choose_filters(user, confidences=["low"])
    await user.should_see("No memories match your search or filters.")
    user.find("Clear filters").click()
    await eventually(lambda: len(listed(user)) == 17)
    assert chosen_filters(user) == {"sources": [], "confidences": [], "sort": "alpha"}  # the sort is not a filter


async def test_a_filter_value_the_page_did_not_offer_is_ignored(user: User) -> None:
    await open_context(user)
    choose_filters(user, sources=["manual", "drop table", {"a": 1}], sort="id; --")  # type: ignore[list-item]
    await eventually(lambda: chosen_filters(user)["sources"] == ["manual"])
    assert chosen_filters(user)["sort"] == "updated"
    await eventually(lambda: "Prefers morning runs" not in listed(user))  # the manual filter only
    assert "Keeps long runs on Sunday mornings" in listed(user)
