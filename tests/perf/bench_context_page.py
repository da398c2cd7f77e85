"""Context page in Chromium: navigation until the first memory is visible, 2,000 memories and 300 proposals.

Prints figures; asserts nothing about time. The data set is written through the one write path
(memories) and the proposal factory of the Context page tests, into a temporary SQLite database.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

from persistence.demo import load_demo
from persistence.engine import make_engine
from persistence.migrate import upgrade
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, Server, log_in, start_server
from tests.ui.context_support import NEW, Note, add_memories, add_proposals

MEMORIES = 2000
PROPOSALS = 300
RUNS = 5


def _data_set(database: Path) -> None:
    engine = make_engine(f"sqlite:///{database}")
    upgrade(engine)
    load_demo(engine)
    add_memories(engine, "alex", MEMORIES - 17, prefix="Bench memory")  # alex has 17 active demo memories
    notes = [
        Note(f"Bench proposal {i}: swims on Fridays", NEW.memory_type, NEW.text, NEW.evidence, NEW.tags)
        for i in range(PROPOSALS)
    ]
    add_proposals(engine, "alex", notes)
    engine.dispose()


def _first_memory_ms(page: Page, server: Server) -> tuple[float, float]:
    started = time.perf_counter()
    page.goto(server.url + "/", wait_until="commit")
    page.locator(".mr-memory").first.wait_for(state="visible")
    first_memory = (time.perf_counter() - started) * 1000
    page.locator(".mr-proposal").first.wait_for(state="visible")
    page.locator(".mr-chart svg").first.wait_for(state="attached")
    return first_memory, (time.perf_counter() - started) * 1000


def run() -> None:
    with tempfile.TemporaryDirectory(prefix="bench-context-") as tmp:
        folder = Path(tmp)
        started = time.perf_counter()
        _data_set(folder / "app.sqlite3")
        seconds = time.perf_counter() - started
        print(f"data set: {MEMORIES:,} memories and {PROPOSALS} pending proposals (written in {seconds:.1f} s)")
        process, server = start_server(folder / "app.sqlite3", folder)
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
                page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
                log_in(page, server, "alex", "demo-alex")
                page.locator(".mr-memory").first.wait_for(state="visible")  # warm-up, not counted
                timings = [_first_memory_ms(page, server) for _ in range(RUNS)]
                cards = page.locator(".mr-memory").count()
                proposals = page.locator(".mr-proposal").count()
                browser.close()
        finally:
            process.terminate()
            process.wait(timeout=10)
    first = [t[0] for t in timings]
    settled = [t[1] for t in timings]
    print(
        f"navigation → first memory visible: median {statistics.median(first):.0f} ms "
        f"(min {min(first):.0f}, max {max(first):.0f}; {RUNS} loads, Chromium headless)"
    )
    print(f"navigation → proposals and chart shown: median {statistics.median(settled):.0f} ms")
    print(f"rendered on load: {cards} memory cards of {MEMORIES:,}, {proposals} proposal cards of {PROPOSALS}")


if __name__ == "__main__":
    run()
