"""Two app instances, one PostgreSQL schema, one Redis, HAProxy in front; Chromium drives them."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright

from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, connected
from tests.scale.cluster import Cluster, cluster, require_cluster

expect.set_options(timeout=20_000)  # as tests/e2e: two workers on 2 cores at load 8-12

NewPage = Callable[[], Page]


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """Two instances on the demo data set, shared by the tests of one module."""
    require_cluster()
    with cluster(tmp_path_factory.mktemp("scale")) as running:
        yield running


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with sync_playwright() as runner:
        browser = runner.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def new_page(browser: Browser) -> Iterator[NewPage]:
    """Pages of browsers of their own (separate cookie jars), closed after the test."""
    contexts: list[BrowserContext] = []

    def make() -> Page:
        contexts.append(browser.new_context(viewport={"width": 1280, "height": 900}))
        return contexts[-1].new_page()

    yield make
    for context in contexts:
        context.close()


def log_in(page: Page, base_url: str, username: str = "alex", password: str = "demo-alex") -> None:
    page.goto(f"{base_url}/login")
    connected(page)  # typing and the click reach the server in order (tests/e2e/conftest.py connected)
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="What your coach remembers")).to_be_visible()
