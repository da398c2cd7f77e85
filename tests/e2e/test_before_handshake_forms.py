"""Forms used before the page's socket is up, and buttons pressed twice, in real Chromium.

Until the page's socket.io handshake is done, NiceGUI (static/nicegui.js, `delayed_emitter`) keeps each
event on a 10 ms retry timer of its own, so events wait for the handshake side by side and leave in
the order their timers next fire, not the order they happened: a button's click can reach the server
before the typing that came first (autofill, a quick hand, a slow network). These tests make that order
certain instead of likely: the page's clock is Playwright's (paused), the socket's first messages are
held, the form is filled, the clock moves 7 ms and the button is pressed, then 4 ms more (the typing's
timers fire, find no handshake and are set again 10 ms on), the socket is let through, and once the
handshake is done the clock moves on: the click's timer (due at 17 ms) fires before the typing's
(at 20 ms). A person's order of events is then a matter of chance; the server must not depend on it.
"""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Browser, Page, WebSocketRoute, expect

from tests.e2e.conftest import Server, connected, log_in
from tests.e2e.context_locators import dialog

CONTEXT_HEADING = "What your coach remembers"


def _hold_the_socket(page: Page) -> Callable[[], None]:
    """Route the page's websocket through Playwright, holding what the page sends until released."""
    held: list[str | bytes] = []
    upstreams: list[WebSocketRoute] = []
    holding = [True]

    def route(socket: WebSocketRoute) -> None:
        upstream = socket.connect_to_server()
        upstreams.append(upstream)

        def from_page(message: str | bytes) -> None:
            if holding[0]:
                held.append(message)
            else:
                upstream.send(message)

        socket.on_message(from_page)
        upstream.on_message(socket.send)

    page.route_web_socket("**/_nicegui_ws/**", route)

    def release() -> None:
        holding[0] = False
        for message in held:
            upstreams[-1].send(message)
        held.clear()

    return release


def press_before_typing_arrives(page: Page, url: str, type_in: Callable[[], None], press: Callable[[], None]) -> None:
    """Open `url`, type and press before its socket is up; the press reaches the server first."""
    page.clock.install(time=1_000_000)
    page.clock.pause_at(1_001_000)
    release = _hold_the_socket(page)
    page.goto(url)
    type_in()
    page.clock.run_for(7)
    press()
    page.clock.run_for(4)
    release()
    page.wait_for_function("() => window.did_handshake === true", polling=50)
    page.clock.run_for(20)
    page.clock.resume()


def test_a_login_pressed_before_the_typing_arrives_still_logs_in(browser: Browser, server: Server) -> None:
    context = browser.new_context()
    try:
        page = context.new_page()

        def type_in() -> None:
            page.get_by_label("Username").fill("alex")
            page.get_by_label("Password").fill("demo-alex")

        press_before_typing_arrives(
            page, f"{server.url}/login", type_in, lambda: page.get_by_role("button", name="Log in").click()
        )
        expect(page.get_by_role("heading", name=CONTEXT_HEADING)).to_be_visible()
    finally:
        context.close()


def test_a_password_change_pressed_before_the_typing_arrives_changes_it(browser: Browser, server: Server) -> None:
    context = browser.new_context()
    try:
        page = context.new_page()
        log_in(page, server, "alex", "demo-alex")
        expect(page.get_by_role("heading", name=CONTEXT_HEADING)).to_be_visible()

        def type_in() -> None:
            page.get_by_label("Current password").fill("demo-alex")
            page.get_by_label("New password", exact=True).fill("a new long password")
            page.get_by_label("New password again").fill("a new long password")

        press_before_typing_arrives(
            page, f"{server.url}/account", type_in, lambda: page.get_by_role("button", name="Change password").click()
        )
        expect(page.get_by_text("Password changed. Your other browsers are logged out.")).to_be_visible()
    finally:
        context.close()


def test_a_double_click_on_add_memory_opens_one_dialog(page: Page, server: Server) -> None:
    log_in(page, server, "alex", "demo-alex")
    expect(page.get_by_role("heading", name=CONTEXT_HEADING)).to_be_visible()
    connected(page)
    page.get_by_role("button", name="Add memory").dblclick()
    expect(dialog(page).first.get_by_label("Content")).to_be_visible()
    page.keyboard.press("Escape")  # closes the dialog on top; none may be left behind it
    expect(dialog(page)).to_have_count(0)
