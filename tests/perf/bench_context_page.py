"""Context page in Chromium: navigation until the first memory is visible, for an athlete with
2,000 and with 20,000 memories (300 pending proposals each); quick mode: 2,000 only, fewer loads.

Prints figures; asserts nothing about time. The data sets come from tests/perf/dataset (bulk
loaded, cached between runs); each size runs against its own server on a copy of its file.
"""

from __future__ import annotations

import shutil
import statistics
import tempfile
import time
from pathlib import Path

from playwright.sync_api import Error, Page, sync_playwright

from tests.perf import dataset
from tests.perf.browser import CHROMIUM, CHROMIUM_ARGS, FIRST_MEMORY, Running, serve
from tests.perf.figures import record

PROPOSALS = 300
RUNS = 5


def _spec(memories: int) -> dataset.Spec:
    return dataset.Spec(athletes=2, memories=memories + 200, heavy=(memories,), heavy_pending=PROPOSALS,
                        audit_events=10_000)  # fmt: skip


def _log_in(page: Page, running: Running, username: str) -> None:
    page.goto(f"{running.url}/login")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(dataset.PASSWORD)
    page.get_by_role("button", name="Log in").click()


def _first_memory_ms(page: Page, running: Running) -> tuple[float, float | None]:
    started = time.perf_counter()
    page.goto(running.url + "/", wait_until="commit")
    page.locator(FIRST_MEMORY).first.wait_for(state="visible", timeout=120_000)
    first_memory = (time.perf_counter() - started) * 1000
    try:  # the Memories view opens; the To review view is built once the browser has connected
        page.locator(".mr-count-review").first.wait_for(state="visible", timeout=60_000)
        page.locator(FIRST_MEMORY).nth(19).wait_for(state="visible", timeout=60_000)
        page.goto(running.url + "/?view=review", wait_until="commit")
        page.locator(".mr-proposal").first.wait_for(state="visible", timeout=60_000)
    except Error:
        return first_memory, None  # the page no longer shows them this way: only the first figure
    return first_memory, (time.perf_counter() - started) * 1000


def _measure(memories: int, runs: int) -> None:
    path, loaded = dataset.cached(_spec(memories))
    with tempfile.TemporaryDirectory(prefix="bench-context-") as tmp:
        folder = Path(tmp)
        shutil.copyfile(path, folder / "app.sqlite3")
        with serve(folder / "app.sqlite3", folder) as running, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
            _log_in(page, running, loaded.usernames[0])
            page.locator(FIRST_MEMORY).first.wait_for(state="visible", timeout=120_000)  # warm-up, not counted
            timings = [_first_memory_ms(page, running) for _ in range(runs)]
            proposals = page.locator(".mr-proposal").count()
            page.goto(running.url + "/", wait_until="commit")
            page.locator(FIRST_MEMORY).first.wait_for(state="visible", timeout=60_000)
            cards = page.locator(FIRST_MEMORY).count()
            browser.close()
    first = [t[0] for t in timings]
    settled = [t[1] for t in timings if t[1] is not None]
    print(
        f"{memories:,} memories: navigation → first memory visible: median {statistics.median(first):,.0f} ms "
        f"(min {min(first):,.0f}, max {max(first):,.0f}; {runs} loads, Chromium headless)"
    )
    record(f"context_page_first_memory_ms_{memories}", statistics.median(first))
    if settled:
        print(f"  navigation → first page of memories shown, then /?view=review → first proposal: median "
              f"{statistics.median(settled):,.0f} ms")  # fmt: skip
        record(f"context_page_settled_ms_{memories}", statistics.median(settled))
    print(f"  rendered on load: {cards} memory cards of {memories:,}, {proposals} proposal cards of {PROPOSALS}")


def run(quick: bool = False) -> None:
    for memories in (2_000,) if quick else (2_000, 20_000):
        _measure(memories, 3 if quick else RUNS)


if __name__ == "__main__":
    run()
