"""End-to-end: the real server in a subprocess, driven by Playwright in headless Chromium."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Playwright, expect, sync_playwright

from tests.databases import build_demo_database
from tests.e2e.forks import ForkedServer, Forks

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("MEMORY_REVIEW_CHROMIUM", "/usr/bin/chromium")
AXE = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# Generous: CI runs two workers on 2 cores at load 8-12, where a page update can take seconds. A passing
# test never waits this long; a failing one only takes longer to say so.
expect.set_options(timeout=20_000)


@dataclass
class Server:
    url: str
    database_url: str


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "NICEGUI", "MEMORY_REVIEW_"))}
    env.update(extra)
    return env


@pytest.fixture(scope="session")
def demo_db_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_demo_database(tmp_path_factory.mktemp("e2e-template") / "demo.sqlite3")


@pytest.fixture(scope="session")
def server_forks() -> Iterator[Forks]:
    """The app imported once per test process; each server is forked from it (tests/e2e/forks.py)."""
    forks = Forks(_clean_env())
    yield forks
    forks.close()


START_TIMEOUT_S = 90  # a forked server answers in well under a second when the machine is idle


def start_server(forks: Forks, database: Path, data_dir: Path) -> tuple[ForkedServer, Server]:
    """A server on a free port; started again on another port if that one was taken meanwhile.

    `_free_port` closes its socket before the server binds the port, so another test process's server
    (or any outgoing connection) can take it in between: that server exits with EADDRINUSE."""
    for _ in range(3):
        port = _free_port()
        url = f"sqlite:///{database}"
        log = data_dir / "server.log"
        process = forks.start(
            ["serve", "--host", "127.0.0.1", "--port", str(port), "--db", url],
            _clean_env(MEMORY_REVIEW_DATA_DIR=str(data_dir)),
            log,
        )
        if _answers(process, port, log):
            return process, Server(f"http://127.0.0.1:{port}", url)
    raise RuntimeError(f"server could not bind a free port: {log.read_text()[-2000:]}")


def _answers(process: ForkedServer, port: int, log: Path) -> bool:
    """True once the server answers; False when it exited because its port was taken."""
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            output = log.read_text()
            if "address already in use" in output.lower():
                return False
            raise RuntimeError(f"server exited: {output[-2000:]}")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/login", timeout=5)
            return True
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError(f"server did not start within {START_TIMEOUT_S} s: {log.read_text()[-2000:]}")


@pytest.fixture
def server(server_forks: Forks, demo_db_template: Path, tmp_path: Path) -> Iterator[Server]:
    """A fresh server on its own copy of the demo database, for one test."""
    database = tmp_path / "app.sqlite3"
    shutil.copyfile(demo_db_template, database)
    process, running = start_server(server_forks, database, tmp_path)
    yield running
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as runner:
        yield runner


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
    yield browser
    browser.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    yield page
    context.close()


SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


@pytest.fixture(params=list(SIZES))
def sized_page(browser: Browser, request: pytest.FixtureRequest) -> Iterator[Page]:
    """A page at 1280 px and, in a second run of the test, at 390 px (a phone)."""
    context = browser.new_context(viewport=SIZES[request.param])
    page = context.new_page()
    yield page
    context.close()


def connected(page: Page) -> None:
    """Wait until the page's socket has finished its handshake.

    Before it, NiceGUI holds each event on a retry timer of its own, so two events (typing, then a
    click) can reach the server in either order. The app must cope with that (the tests in
    test_before_handshake_*.py press before typing arrives on purpose); a journey that is not about it
    waits here after opening a page whose form it fills, as a person's hand is slower than a socket."""
    page.wait_for_function("() => window.did_handshake === true")


def log_in(page: Page, server: Server, username: str, password: str) -> None:
    page.goto(f"{server.url}/login")
    connected(page)
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()


def axe_violations(page: Page, impacts: tuple[str, ...] = ("serious", "critical")) -> list[dict[str, object]]:
    """Run axe-core (from the npm registry, injected into the page); return serious+ violations."""
    # Quasar's loading bar (shown while a request is under way) has no name: wait it out. So is an element
    # on its way in or out (a closing options list is a listbox losing its options): axe reads a settled page.
    page.wait_for_function(
        '() => !document.querySelector(\'.q-loading-bar[role=progressbar], [class*="-leave-active"],'
        ' [class*="-enter-active"]\')'
    )
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    return [
        {"id": v["id"], "impact": v["impact"], "help": v["help"], "nodes": [n["target"] for n in v["nodes"]][:5]}
        for v in result["violations"]
        if v["impact"] in impacts
    ]
