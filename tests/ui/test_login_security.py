"""Issue 14, findings 2 and 5 in NiceGUI's User fixture: a session cookie from before a login or a
logout grants nothing afterwards; failed logins are throttled per username and per address."""

from __future__ import annotations

import re

import httpx
import pytest
from nicegui import core
from nicegui.testing import User

from tests.ui.conftest import log_in


async def _status_with(cookie: str, path: str = "/") -> tuple[int, str]:
    """What another browser holding `cookie` gets for `path` (no redirects followed)."""
    transport = httpx.ASGITransport(core.app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test", cookies={"session": cookie}) as other:
        response = await other.get(path)
    return response.status_code, response.headers.get("location", "")


def _session_cookie(user: User) -> str:
    cookie = user.http_client.cookies.get("session")
    assert cookie
    return cookie


async def test_a_cookie_from_before_the_login_grants_nothing_after_it(user: User) -> None:
    await user.open("/login")
    before = _session_cookie(user)
    await log_in(user, "alex")
    await user.should_see("Occasional knee soreness")
    after = _session_cookie(user)
    assert after != before  # the login renewed the browser's id
    assert await _status_with(before) == (307, "/login")
    assert (await _status_with(after))[0] == 200


async def test_a_cookie_from_before_the_logout_grants_nothing_after_it(user: User) -> None:
    await log_in(user, "alex")
    await user.should_see("Occasional knee soreness")
    logged_in = _session_cookie(user)
    user.find("Log out").click()
    await user.should_see("Username")
    assert await _status_with(logged_in) == (307, "/login")
    assert _session_cookie(user) != logged_in  # the logout renewed the browser's id too
    await user.open("/")
    await user.should_not_see("Occasional knee soreness")


async def test_a_login_ticket_works_once_and_only_for_its_browser(user: User) -> None:
    await user.open("/login")
    before = _session_cookie(user)
    await log_in(user, "alex")
    await user.should_see("Occasional knee soreness")
    ticket_path = next(path for path in user.back_history if path.startswith("/login/complete"))
    for cookie in (before, _session_cookie(user)):  # replayed, by the old id or the new one
        status, location = await _status_with(cookie, ticket_path)
        assert (status, location) == (303, "/login")


TOO_MANY = re.compile(r"Too many attempts\. Try again in (\d+) s\.")


def _throttle_message(user: User) -> str:
    texts = [getattr(label, "text", "") for label in user.find(marker="login-error").elements]
    return next((t for t in texts if t), "")


async def test_five_failures_for_a_username_refuse_even_the_right_password(user: User) -> None:
    for _ in range(5):
        await log_in(user, "alex", "wrong-password")
        await user.should_see("Wrong username or password.")
    await log_in(user, "alex")  # the right password, not even checked
    match = TOO_MANY.fullmatch(_throttle_message(user))
    assert match is not None and 1 <= int(match.group(1)) <= 300
    await user.open("/")
    await user.should_see("Username")
    await log_in(user, "sam")  # another username from the same address is still let in
    await user.should_see("Sam")


async def test_successful_logins_are_not_counted_against(user: User) -> None:
    for _ in range(3):
        await log_in(user, "alex", "wrong-password")
        await user.should_see("Wrong username or password.")
    for _ in range(4):
        await log_in(user, "alex")
        await user.should_see("Occasional knee soreness")
        user.find("Log out").click()
        await user.should_see("Username")
    await log_in(user, "alex", "wrong-password")
    await user.should_see("Wrong username or password.")  # the 4th failure: not throttled yet


@pytest.fixture
def low_address_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORY_REVIEW_LOGIN_LIMIT_PER_ADDRESS", "3/5 minutes")


async def test_failures_from_one_address_are_throttled_across_usernames(low_address_limit: None, user: User) -> None:
    for name in ("alex", "sam", "nobody"):
        await log_in(user, name, "wrong-password")
        await user.should_see("Wrong username or password.")
    await log_in(user, "admin")
    assert TOO_MANY.fullmatch(_throttle_message(user))
    await user.should_not_see("Admin console")
