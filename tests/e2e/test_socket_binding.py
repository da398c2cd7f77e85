"""Issue 14, finding 3: another browser that learns a page's client id, tab id and listener id cannot
drive the page (a raw Socket.IO client replays what alex's browser sent), and an anonymous socket
cannot write into the server log."""

from __future__ import annotations

import asyncio
import json
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import socketio
from playwright.sync_api import Page, WebSocket, expect

from tests.e2e.conftest import Server, log_in
from ui.socket_guard import LOG_LINE_MAX, one_line


def _anonymous_cookie(server: Server) -> str:
    cookie = httpx.get(f"{server.url}/login", timeout=20).cookies.get("session")
    assert cookie
    return cookie


async def _attack(server: Server, cookie: str, frames: list[tuple[str, dict[str, Any]]]) -> list[object]:
    """Connect a raw Socket.IO client with `cookie`, emit each (name, data) and collect the answers."""
    raw = socketio.AsyncClient(reconnection=False)
    await raw.connect(
        server.url,
        socketio_path="/_nicegui_ws/socket.io",
        transports=["websocket"],
        headers={"Cookie": f"session={cookie}"},
    )
    answers: list[object] = []
    try:
        for name, data in frames:
            if name == "handshake":
                answers.append(await raw.call(name, data, timeout=5))
            else:
                await raw.emit(name, data)
                answers.append(None)
            await asyncio.sleep(0.3)
    finally:
        await raw.disconnect()
    return answers


def _run(server: Server, cookie: str, frames: list[tuple[str, dict[str, Any]]]) -> list[object]:
    with ThreadPoolExecutor(1) as pool:  # Playwright's sync API owns this thread's event loop
        return pool.submit(lambda: asyncio.run(_attack(server, cookie, frames))).result(timeout=60)


def _capture(page: Page) -> list[Any]:
    """Socket.IO frames the page sends, decoded ('42["event",{...}]' -> ["event", {...}])."""
    sent: list[Any] = []

    def on_socket(socket: WebSocket) -> None:
        def on_frame(payload: str | bytes) -> None:
            text = payload if isinstance(payload, str) else payload.decode(errors="replace")
            if text.startswith("42"):
                sent.append(json.loads(text[2:].lstrip("0123456789")))

        socket.on("framesent", on_frame)

    page.on("websocket", on_socket)
    return sent


def test_another_browser_cannot_drive_alexs_page(page: Page, server: Server) -> None:
    sent = _capture(page)
    log_in(page, server, "alex", "demo-alex")
    expect(page.get_by_text("Occasional knee soreness", exact=True).first).to_be_visible()
    before = len(sent)
    page.get_by_role("button", name="Add memory").click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    click_frames = [data for name, data in sent[before:] if name == "event"]
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    client_id = page.evaluate("() => window.clientId")
    tab_id = page.evaluate("() => sessionStorage.getItem('__nicegui_tab_id')")
    assert click_frames and click_frames[0]["client_id"] == client_id, sent
    click = click_frames[0]  # the click on Add memory

    cookie = _anonymous_cookie(server)
    _run(server, cookie, [("event", click)])  # without a handshake
    time.sleep(1)
    expect(dialog).to_be_hidden()  # the replayed click did nothing on alex's page
    handshake = {"client_id": client_id, "tab_id": tab_id, "document_id": "attacker", "old_tab_id": None}
    answers = _run(server, cookie, [("handshake", handshake), ("event", click)])
    assert answers[0] is False  # not this browser's page, even with its tab id
    time.sleep(1)
    expect(dialog).to_be_hidden()
    page.get_by_role("button", name="Add memory").click()  # alex's own socket still drives it
    expect(dialog).to_be_visible()


def test_an_anonymous_socket_cannot_write_into_the_server_log(page: Page, server: Server, tmp_path: Any) -> None:
    log_in(page, server, "alex", "demo-alex")
    expect(page.get_by_text("Occasional knee soreness", exact=True).first).to_be_visible()
    client_id = page.evaluate("() => window.clientId")
    forged = "forged-line-one\n2026-01-01 00:00:00 CRITICAL admin logged in from 10.0.0.1"
    _run(server, _anonymous_cookie(server), [("log", {"client_id": client_id, "level": "error", "message": forged})])
    time.sleep(0.5)
    server_log = (tmp_path / "server.log").read_text(errors="replace")
    assert "forged-line-one" not in server_log


def test_a_browser_log_line_stays_one_short_line() -> None:
    assert one_line("a\nb\x1b[31mc\u202e") == "a\\nb\\x1b[31mc\\u202e"
    assert len(one_line("x" * 10_000)) == LOG_LINE_MAX + 1
