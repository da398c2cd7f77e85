"""N browser clients open the Context page of an athlete with 2,000 memories (and 300 pending
proposals) at the same moment: page-ready p95 (navigation until the first memory is visible),
the server's memory per connected client and whether it is released when they leave, and the
event loop's worst lag meanwhile (the server's opt-in probe, MEMORY_REVIEW_LAG_PROBE=1).

N = 20 and 50 (quick mode: no Chromium tabs at all, see below), each
against a freshly started server on a copy of the same generated database, twice: "cold", the
first N after the start, and "warm", N more while N others are already open (the memory an open
page adds on a server that has filled its connection pools, caches and worker threads; the cold
figure includes that one-time fill). The N pages are tabs of one headless Chromium (every tab is
its own NiceGUI client); all of them run on this 2-core machine beside the server, so the
browser's own work is in the figures too. Then the same with page clients
(tests/perf/page_clients.py; quick mode: 50, warm round only, memory after leaving not waited for),
which give the server's side alone; their own CPU per page is printed beside the server's. Figures
are printed, never asserted.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from playwright.async_api import Browser, BrowserContext, Page, async_playwright

from tests.perf import dataset
from tests.perf.baselines import percentile
from tests.perf.browser import CHROMIUM, CHROMIUM_ARGS, FIRST_MEMORY, Running, lag_since, serve
from tests.perf.figures import record
from tests.perf.page_clients import PageClients

SPEC = dataset.Spec(athletes=3, memories=2_400, heavy=(2_000,), heavy_pending=300, audit_events=10_000)
SETTLE_S = 3  # after the pages are ready, before memory is read
QUICK_SETTLE_S = 2
LEAVE_S = 6  # after the pages close: NiceGUI deletes a client once its reconnect timeout (3 s) passed


@dataclass(frozen=True)
class Outcome:
    clients: int
    ready_ms: list[float]
    failed: int
    rss_before: float
    rss_connected: float
    rss_after: float | None  # None: not waited for (quick mode)
    lags: list[float]
    server_cpu_ms: float | None = None  # per page, page clients only
    client_cpu_ms: float | None = None  # the page clients' own CPU per page (they share the two cores)
    loop_cpu_ms: float | None = None  # of server_cpu_ms, the main thread's: the event loop (the rest: workers)


async def _logged_in_state(browser: Browser, running: Running, username: str) -> dict[str, object]:
    """One login (argon2 on the server takes a while) whose cookies every tab reuses."""
    context = await browser.new_context(viewport={"width": 1280, "height": 900})
    page = await context.new_page()
    await page.goto(f"{running.url}/login")
    await page.get_by_label("Username").fill(username)
    await page.get_by_label("Password").fill(dataset.PASSWORD)
    await page.get_by_role("button", name="Log in").click()
    await page.locator(FIRST_MEMORY).first.wait_for(state="visible", timeout=60_000)
    state = await context.storage_state()
    await context.close()
    return dict(state)


async def _open(page: Page, url: str) -> float | None:
    started = time.perf_counter()
    try:
        await page.goto(url, wait_until="commit", timeout=180_000)
        await page.locator(FIRST_MEMORY).first.wait_for(state="visible", timeout=180_000)
    except Exception as exc:  # a tab that never gets there is counted, not fatal
        print(f"  a client failed: {type(exc).__name__}: {str(exc).splitlines()[0]}")
        return None
    return (time.perf_counter() - started) * 1000


async def _measure(running: Running, clients: int, username: str, *, warm: bool, leave: bool) -> Outcome:
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        state = await _logged_in_state(browser, running, username)
        contexts: list[BrowserContext] = []
        pages: list[Page] = []
        for _ in range(clients):
            context = await browser.new_context(viewport={"width": 1280, "height": 900}, storage_state=state)  # type: ignore[arg-type]
            contexts.append(context)
            pages.append(await context.new_page())
        if leave:  # the login tab's client is gone (quick mode: it stays, the same before and after)
            await asyncio.sleep(LEAVE_S)
        if warm:  # N pages open first, AT ONCE as the measured N will, and STAY open: the pools, caches and
            # worker threads that N pages at once need are filled, and the next N are extra (opened one by
            # one, the first N left the pools at the size one page needs, and the measured N grew them)
            first: list[Page] = []
            for _ in range(clients):
                context = await browser.new_context(viewport={"width": 1280, "height": 900}, storage_state=state)  # type: ignore[arg-type]
                contexts.append(context)
                first.append(await context.new_page())
            await asyncio.gather(*(_open(page, f"{running.url}/") for page in first))
            await asyncio.sleep(SETTLE_S if leave else QUICK_SETTLE_S)
        rss_before = running.rss_mib()
        since = time.time()
        results = await asyncio.gather(*(_open(page, f"{running.url}/") for page in pages))
        until = time.time()
        await asyncio.sleep(SETTLE_S if leave else QUICK_SETTLE_S)
        rss_connected = running.rss_mib()
        for context in contexts:
            await context.close()
        rss_after = await _after_leaving(running) if leave else None
        await browser.close()
    ready = [r for r in results if r is not None]
    return Outcome(clients, ready, clients - len(ready), rss_before, rss_connected, rss_after,
                   lag_since(running, since, until))  # fmt: skip


async def _measure_page_clients(running: Running, clients: int, username: str, *, warm: bool, leave: bool) -> Outcome:
    """As `_measure`, with page clients (tests/perf/page_clients.py) instead of Chromium tabs."""
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        state = await _logged_in_state(browser, running, username)
        await browser.close()
    if leave:  # the login tab's client is gone (quick mode: it stays, the same before and after)
        await asyncio.sleep(LEAVE_S)
    cookies = {str(c["name"]): str(c["value"]) for c in state["cookies"]}  # type: ignore[attr-defined]
    pages = PageClients(running, cookies)
    if warm:
        await pages.open(clients)
        await asyncio.sleep(SETTLE_S if leave else QUICK_SETTLE_S)
    rss_before = running.rss_mib()
    since = time.time()
    ready, failed, cpu_ms = await pages.open(clients)
    until = time.time()
    await asyncio.sleep(SETTLE_S if leave else QUICK_SETTLE_S)
    rss_connected = running.rss_mib()
    await pages.close()
    rss_after = await _after_leaving(running) if leave else None
    return Outcome(clients, ready, failed, rss_before, rss_connected, rss_after, lag_since(running, since, until),
                   cpu_ms, pages.client_cpu_ms, pages.loop_cpu_ms)  # fmt: skip


async def _after_leaving(running: Running) -> float:
    """The server's memory once the closed pages' clients are deleted."""
    await asyncio.sleep(LEAVE_S)
    return running.rss_mib()


def _report(outcome: Outcome, kind: str, clients: str = "clients") -> None:
    """`cold`: the first N after the server started; `warm`: N more while N are already open.
    `clients`: Chromium tabs ("clients") or page clients ("page_clients")."""
    n = outcome.clients
    name = f"{clients}_{n}" if kind == "warm" else f"{clients}_{n}_cold"
    grown = outcome.rss_connected - outcome.rss_before
    per_client = grown / n
    load = os.getloadavg()[0]
    if outcome.ready_ms:
        p95, last = percentile(outcome.ready_ms, 95), max(outcome.ready_ms)
        who = "page clients" if clients == "page_clients" else "Chromium tabs"
        print(
            f"{n} {who} at once ({kind}): page ready p50 {percentile(outcome.ready_ms, 50):,.0f} ms, "
            f"p95 {p95:,.0f} ms, "
            f"last {last:,.0f} ms ({outcome.failed} failed)  (load {load:.2f})"
        )
        record(f"{name}_page_ready_p95_ms", p95)
        record(f"{name}_page_ready_last_ms", last)
    if outcome.server_cpu_ms is not None:
        print(f"  server CPU per page (its request and its socket): {outcome.server_cpu_ms:.1f} ms")
        record(f"{name}_server_cpu_per_page_ms", outcome.server_cpu_ms)
    if outcome.server_cpu_ms is not None and outcome.loop_cpu_ms is not None:
        workers = outcome.server_cpu_ms - outcome.loop_cpu_ms
        print(f"    of it in the event loop's thread {outcome.loop_cpu_ms:.1f} ms, in other threads {workers:.1f} ms")
        record(f"{name}_server_loop_cpu_per_page_ms", outcome.loop_cpu_ms)
    if outcome.client_cpu_ms is not None:
        print(f"  the page clients' own CPU per page (on the same two cores): {outcome.client_cpu_ms:.1f} ms")
        record(f"{name}_client_cpu_per_page_ms", outcome.client_cpu_ms)
    memory = (
        f"  server memory: {outcome.rss_before:,.0f} MiB → {outcome.rss_connected:,.0f} MiB with {n} clients "
        f"({per_client:.2f} MiB per client)"
    )
    record(f"{name}_rss_per_client_mib", per_client)
    if outcome.rss_after is None:
        print(memory + "; what they leave behind: full mode")
    else:
        released = outcome.rss_connected - outcome.rss_after
        released_pct = 100 * released / grown if grown > 0 else 0.0
        print(
            memory + f" → {outcome.rss_after:,.0f} MiB {LEAVE_S} s after they left "
            f"({released:,.0f} MiB, {released_pct:.0f} % of the growth, released)"
        )
        record(f"{name}_rss_released_pct", released_pct)
    if outcome.lags:
        stalls = sum(lag > 100 for lag in outcome.lags)
        print(
            f"  event loop lag while they opened: worst {max(outcome.lags):,.0f} ms, "
            f"p95 of seconds {percentile(outcome.lags, 95):,.0f} ms, {stalls} of {len(outcome.lags)} s over 100 ms"
        )
        record(f"{name}_loop_lag_max_ms", max(outcome.lags))
        record(f"{name}_loop_lag_seconds_over_100ms_count", stalls)


def run(quick: bool = False) -> None:
    path, loaded = dataset.cached(SPEC)
    print(f"athlete {loaded.usernames[0]}: {SPEC.heavy[0]:,} memories, {SPEC.heavy_pending} pending proposals")
    for clients in () if quick else (20, 50):  # quick: the page clients below only, to stay under 3 minutes
        with tempfile.TemporaryDirectory(prefix="bench-clients-") as tmp:
            folder = Path(tmp)
            shutil.copyfile(path, folder / "app.sqlite3")
            for warm in (True,) if quick else (False, True):  # quick: the figure that matters, open pages
                with serve(folder / "app.sqlite3", folder, lag_probe=True) as running:
                    outcome = asyncio.run(_measure(running, clients, loaded.usernames[0], warm=warm, leave=not quick))
                _report(outcome, "warm" if warm else "cold")
    print("\nThe server's side: page clients fetch the page and connect its socket as a browser does, render nothing")
    for clients in (50,) if quick else (20, 50):
        with tempfile.TemporaryDirectory(prefix="bench-page-clients-") as tmp:
            folder = Path(tmp)
            shutil.copyfile(path, folder / "app.sqlite3")
            for warm in (True,) if quick else (False, True):
                with serve(folder / "app.sqlite3", folder, lag_probe=True) as running:
                    outcome = asyncio.run(
                        _measure_page_clients(running, clients, loaded.usernames[0], warm=warm, leave=not quick)
                    )
                _report(outcome, "warm" if warm else "cold", "page_clients")


if __name__ == "__main__":
    run(quick=True)
