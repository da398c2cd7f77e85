"""A real browser logs in as the demo athlete and sees a demo memory."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Browser, Page, WebSocketRoute, expect

from tests.e2e.conftest import Server, axe_violations, log_in


def test_alex_logs_in_and_sees_a_demo_memory(page: Page, server: Server) -> None:
    page.goto(server.url)
    expect(page).to_have_url(f"{server.url}/login")
    log_in(page, server, "alex", "demo-alex")
    expect(page.get_by_text("Occasional knee soreness", exact=True).first).to_be_visible()
    expect(page.get_by_text("Alex Rivera")).to_be_visible()
    assert axe_violations(page) == []


def test_wrong_password_keeps_the_visitor_out(page: Page, server: Server) -> None:
    log_in(page, server, "alex", "wrong-password")
    expect(page.get_by_role("alert")).to_have_text("Wrong username or password.")
    expect(page).to_have_url(f"{server.url}/login")


def test_typing_before_the_page_has_connected_still_logs_in(browser: Browser, server: Server) -> None:
    """Autofill or a quick hand can fill the form and press Log in before the page's socket is up.

    The socket's first messages are held back while the form is filled and the button clicked, then
    let through in order; NiceGUI then sends each held event on its own retry timer, so the click
    can reach the server before the typing (in about one try of four here, so ten tries).
    """
    for attempt in range(10):
        context = browser.new_context()
        try:
            page = context.new_page()
            release = _hold_the_socket(page)
            page.goto(f"{server.url}/login")
            page.get_by_label("Username").fill("alex")
            page.get_by_label("Password").fill("demo-alex")
            page.get_by_role("button", name="Log in").click()
            page.wait_for_timeout(30 + 3 * attempt)  # vary the timers' phase against the release
            release()
            expect(page.get_by_role("heading", name="What your coach remembers")).to_be_visible()
        finally:
            context.close()


def _hold_the_socket(page: Page) -> Callable[[], None]:
    """Route the page's websocket through Playwright, holding what the page sends until released."""
    held: list[str | bytes] = []
    servers: list[WebSocketRoute] = []
    holding = [True]

    def route(socket: WebSocketRoute) -> None:
        upstream = socket.connect_to_server()
        servers.append(upstream)

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
            servers[-1].send(message)
        held.clear()

    return release
