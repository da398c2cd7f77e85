"""Pages opening at once take turns to build (ui/components/turns.py, issue 9): each still gets its whole
page, its own athlete's, and works."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
from nicegui.testing import User
from sqlalchemy import select

from domain.enums import MemoryStatus
from domain.models import Memory
from persistence.uow import unit_of_work
from tests.ui.conftest import log_in
from tests.ui.context_support import athlete, database, eventually, listed, texts
from ui.components import turns


def active_contents(url: str, username: str) -> set[str]:
    with database(url) as engine:
        owner = athlete(engine, username)
        with unit_of_work(engine, read_only=True) as session:
            return set(
                session.scalars(
                    select(Memory.content).where(Memory.athlete_id == owner.id, Memory.status == MemoryStatus.ACTIVE)
                )
            )


@pytest.fixture
def a_turn_per_page(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every page's build passes the budget: the next page waits for the loop's next turn."""
    monkeypatch.setattr(turns, "TURN_BUDGET_S", 0.0)


async def test_tabs_opening_at_once_each_get_their_whole_page(
    user: User, create_user: Callable[[], User], app_database: str, a_turn_per_page: None
) -> None:
    alex_again, sam = create_user(), create_user()
    await log_in(user, "alex")
    await log_in(alex_again, "alex")
    await log_in(sam, "sam")

    async with turns.building_turn():  # another page is building: these three wait for their turns
        opening = asyncio.gather(user.open("/"), alex_again.open("/"), sam.open("/?view=review"))
        await eventually(lambda: turns.waiting() == 3)
    await opening

    for tab, name in ((user, "alex"), (alex_again, "alex"), (sam, "sam")):
        await tab.should_see("What your coach remembers")
        await tab.should_see("Search memories")
        await tab.should_see("Learned per week")
        shown = listed(tab)
        assert shown and set(shown) <= active_contents(app_database, name)  # their own memories, no one else's
    await sam.should_see(marker="review-count")  # the view it opened on is built too
    assert texts(user, "overview-memories") == texts(alex_again, "overview-memories")

    user.find("Add memory").click()  # the pages work: the first one's button opens its dialog
    await user.should_see(marker="add-dialog")
