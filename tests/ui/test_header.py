"""The header every logged-in page shares (ui/components/frame.py, plain elements since issue 9):
the app's name links to the person's home page, the header is fixed at the top and comes first."""

from __future__ import annotations

from nicegui.testing import User

from tests.ui.conftest import log_in
from ui.components.plain_link import PlainLink


def brand_link(user: User) -> PlainLink:
    return next(e for e in user.find("Memory Review").elements if isinstance(e, PlainLink))


async def test_the_app_name_links_home_and_the_header_holds_the_person_and_their_buttons(user: User) -> None:
    await log_in(user, "alex")
    await user.should_see("What your coach remembers")
    assert brand_link(user).props["href"] == "/"
    await user.should_see("Alex Rivera")
    await user.should_see(marker="account-link")
    await user.should_see("Log out")
    assert user.client is not None
    layout = user.client.layout
    assert layout.props["view"][1] == "H"  # fixed to the top
    first = layout.default_slot.children[0]
    assert "mr-header" in first.classes and first.tag == "nicegui-header"  # first in the layout, for screen readers
    user.find("Log out").click()
    await user.should_see("Log in")


async def test_an_admins_app_name_links_to_the_console(user: User) -> None:
    await log_in(user, "admin")
    await user.should_see("Admin console")
    assert brand_link(user).props["href"] == "/admin"
    await user.should_not_see(marker="account-link")
