"""The Context page's sections that open and close ('What my coach sees', 'Learned per week', issue 9):
closed when the page opens, their content built when first opened, the same content each time."""

from __future__ import annotations

from nicegui.testing import User

from tests.ui.conftest import log_in
from tests.ui.context_support import eventually, set_value
from ui.components.disclosure import Disclosure


def opened(user: User, marker: str) -> list[bool]:
    return [bool(element.value) for element in user.find(kind=Disclosure, marker=marker).elements]


async def test_learned_per_week_shows_its_summary_when_opened(user: User) -> None:
    await log_in(user, "alex")
    await user.should_see("Learned per week")
    assert opened(user, "learned") == [False]
    await user.should_not_see(marker="overview-summary")  # built when first opened

    set_value(user, "learned", True)
    await user.should_see(marker="overview-summary")
    await user.should_see("memories learned in the last")
    assert opened(user, "learned") == [True]

    set_value(user, "learned", False)  # closed and opened again: the same one summary
    set_value(user, "learned", True)
    await eventually(lambda: len(user.find(marker="overview-summary").elements) == 1)


async def test_what_my_coach_sees_shows_the_block_when_opened(user: User) -> None:
    await log_in(user, "alex")
    await user.should_see("What my coach sees")
    assert opened(user, "coach-panel") == [False]
    await user.should_not_see("Recent reads by your coach")

    set_value(user, "coach-panel", True)
    await user.should_see("Recent reads by your coach")
    await user.should_see(marker="coach-budget")
