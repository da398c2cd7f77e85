"""Dark mode from the header's toggle: a page opens light, and the toggle switches it each time it is
pressed (its element is built on the first press, issue 9). That the next page keeps the mode is
checked in a real browser (tests/e2e/test_context_sections.py)."""

from __future__ import annotations

from nicegui import ElementFilter, ui
from nicegui.testing import User

from tests.ui.conftest import log_in
from tests.ui.context_support import eventually
from ui.components.plain_button import PlainButton


def dark(user: User) -> bool:
    """Whether the page is dark (a page without a dark-mode element is light, as the app starts)."""
    with user:
        return any(element.value for element in ElementFilter(kind=ui.dark_mode, local_scope=False))


def toggle(user: User) -> None:
    user.find(kind=PlainButton, content="dark_mode").click()  # the icon button "Toggle dark mode"


async def test_dark_mode_toggles_each_time(user: User) -> None:
    await log_in(user, "alex")
    await user.should_see("What your coach remembers")
    assert not dark(user)
    for expected in (True, False, True):
        toggle(user)
        await eventually(lambda expected=expected: dark(user) is expected)  # type: ignore[misc]
