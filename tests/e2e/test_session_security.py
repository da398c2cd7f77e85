"""Issue 14 in a real browser: a session cookie from before a login or a logout grants nothing after it
(finding 2); the pages work under the Content-Security-Policy and the server's files are private (8)."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page, expect

from tests.e2e.conftest import ROOT, Server, _free_port, log_in


@dataclass
class Fresh:
    server: Server
    data_dir: Path
    storage_dir: Path


@pytest.fixture
def fresh(demo_db_template: Path, tmp_path: Path) -> Iterator[Fresh]:
    """A server on a new data folder (the demo database copied in) with NiceGUI's storage beside it."""
    data_dir, storage_dir = tmp_path / "data", tmp_path / "nicegui-storage"
    data_dir.mkdir()
    shutil.copyfile(demo_db_template, data_dir / "memory-review.sqlite3")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "NICEGUI", "MEMORY_REVIEW_"))}
    env.update(MEMORY_REVIEW_DATA_DIR=str(data_dir), NICEGUI_STORAGE_PATH=str(storage_dir))
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "ui.cli", "serve", "--host", "127.0.0.1", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=(tmp_path / "server.log").open("wb"),
        stderr=subprocess.STDOUT,
        umask=0o022,
    )
    deadline = time.monotonic() + 120  # a server imported from scratch: seconds of CPU, more at load 8-12
    while True:
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise RuntimeError(f"server did not start: {(tmp_path / 'server.log').read_text()[-2000:]}")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/login", timeout=1)
            break
        except OSError:
            time.sleep(0.2)
    url = f"http://127.0.0.1:{port}"
    yield Fresh(Server(url, f"sqlite:///{data_dir / 'memory-review.sqlite3'}"), data_dir, storage_dir)
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()


def _session_cookie(page: Page) -> str:
    return next(c["value"] for c in page.context.cookies() if c["name"] == "session")


def _replay(server: Server, cookie: str) -> tuple[int, str]:
    """Another browser presenting `cookie` asks for the Context page."""
    response = httpx.get(f"{server.url}/", cookies={"session": cookie}, follow_redirects=False, timeout=20)
    return response.status_code, response.headers.get("location", "")


def test_a_cookie_taken_before_login_or_logout_grants_nothing_after(fresh: Fresh, page: Page) -> None:
    server = fresh.server
    page.goto(f"{server.url}/login")
    before_login = _session_cookie(page)
    log_in(page, server, "alex", "demo-alex")
    expect(page.get_by_text("Occasional knee soreness", exact=True).first).to_be_visible()
    logged_in = _session_cookie(page)
    assert logged_in != before_login
    assert _replay(server, before_login) == (307, "/login")  # the fixated cookie: nothing
    assert _replay(server, logged_in)[0] == 200  # the browser's own, renewed cookie: the page

    page.get_by_role("button", name="Log out").click()
    expect(page).to_have_url(f"{server.url}/login")
    expect(page.get_by_label("Username")).to_be_visible()
    assert _replay(server, logged_in) == (307, "/login")
    assert _session_cookie(page) != logged_in


def test_the_context_page_works_under_the_content_security_policy(fresh: Fresh, browser: Browser) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    refused: list[str] = []

    def on_console(message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text or "Refused to" in message.text:
            refused.append(message.text)

    page.on("console", on_console)
    page.on("pageerror", lambda error: refused.append(str(error)))
    try:
        response = page.goto(f"{fresh.server.url}/login")
        assert response is not None and "frame-ancestors 'none'" in response.headers["content-security-policy"]
        log_in(page, fresh.server, "alex", "demo-alex")
        expect(page.get_by_text("Occasional knee soreness", exact=True).first).to_be_visible()
        page.get_by_role("button", name="Add memory").click()
        page.get_by_label("Content").fill("Runs best after a rest day")
        page.keyboard.press("Escape")
        page.get_by_role("button", name="Toggle dark mode").click()
        page.reload()
        expect(page.get_by_text("Occasional knee soreness", exact=True).first).to_be_visible()
    finally:
        context.close()
    assert refused == []


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_server_keeps_its_files_to_itself(fresh: Fresh, page: Page) -> None:
    # The fixture made the data folder 0755 and copied the database in 0644, as an older version left them.
    log_in(page, fresh.server, "alex", "demo-alex")  # the storage of a login is written
    expect(page.get_by_text("Occasional knee soreness", exact=True).first).to_be_visible()
    page.get_by_role("button", name="Toggle dark mode").click()
    deadline = time.monotonic() + 30  # NiceGUI writes its storage files in the background
    while not any(fresh.storage_dir.glob("storage-user-*.json")) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert any(fresh.storage_dir.glob("storage-user-*.json"))
    for folder in (fresh.data_dir, fresh.storage_dir):
        assert _mode(folder) == 0o700
        for path in folder.rglob("*"):
            assert _mode(path) == (0o700 if path.is_dir() else 0o600), (path, oct(_mode(path)))
