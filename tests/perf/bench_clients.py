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

Mixed (full mode, or `python -m tests.perf.bench_clients --mixed [--turn-probe]` alone): while 50
Context pages are open, 50 more open at once with admin consoles (Deleted and Audit log tabs) and
athletes' account pages among them: each kind's page-ready p95 and the loop's worst lag (with
--turn-probe: on asyncio's loop, the longest loop turn in thread CPU, tests/perf/browser.py).
"""

from __future__ import annotations

import argparse
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
from tests.perf.browser import CHROMIUM, CHROMIUM_ARGS, FIRST_MEMORY, Running, lag_since, serve, turns_since
from tests.perf.figures import record
from tests.perf.page_clients import PageClients

SPEC = dataset.Spec(athletes=3, memories=2_400, heavy=(2_000,), heavy_pending=300, audit_events=10_000)
SETTLE_S = 3  # after the pages are ready, before memory is read
QUICK_SETTLE_S = 2
LEAVE_S = 6  # after the pages close: NiceGUI deletes a client once its reconnect timeout (3 s) passed
# The mixed round: each kind of page, how many open among the 50 Context pages, and what its HTML shows
# once its data is in (the admin console's first tab is loaded before its HTML is sent).
MIXED = {
    "admin_deleted": ("/admin", 5, (b"Restore selected",)),
    "admin_audit": ("/admin?tab=audit", 5, (b"Events #",)),
    "account": ("/account", 5, (b"Recently deleted",)),
}
ADMIN_READY = "text=Admin console"


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


async def _logged_in_state(
    browser: Browser, running: Running, username: str, ready: str = FIRST_MEMORY
) -> dict[str, object]:
    """One login (argon2 on the server takes a while) whose cookies every tab reuses; `ready`: what the
    page the login lands on shows (an athlete's Context page, or the admin console)."""
    context = await browser.new_context(viewport={"width": 1280, "height": 900})
    page = await context.new_page()
    await page.goto(f"{running.url}/login")
    await page.get_by_label("Username").fill(username)
    await page.get_by_label("Password").fill(dataset.PASSWORD)
    await page.get_by_role("button", name="Log in").click()
    await page.locator(ready).first.wait_for(state="visible", timeout=60_000)
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


@dataclass(frozen=True)
class Mixed:
    ready_ms: dict[str, list[float]]  # page kind → ready ms of each that got there
    failed: int
    lags: list[float]
    turns: list[float]  # longest loop turn of each second, thread CPU ms (turn probe only)
    turns_without_full_gc: list[float]  # the same, leaving out the interpreter's full collections
    longest_turn: str  # the costliest callbacks of the longest turn (turn probe only)


def _cookies(state: dict[str, object]) -> dict[str, str]:
    return {str(c["name"]): str(c["value"]) for c in state["cookies"]}  # type: ignore[attr-defined]


async def _measure_mixed(running: Running, athlete: str, admin: str, clients: int = 50) -> Mixed:
    """`clients` Context pages open; then `clients` more at once, with the MIXED pages among them."""
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        athlete_state = await _logged_in_state(browser, running, athlete)
        admin_state = await _logged_in_state(browser, running, admin, ADMIN_READY)
        await browser.close()
    athletes, admins = _cookies(athlete_state), _cookies(admin_state)
    context_pages = PageClients(running, athletes)
    await context_pages.open(clients)  # open and staying: the warm round's first N
    await asyncio.sleep(QUICK_SETTLE_S)
    kinds = {"context": (context_pages, clients)}
    for kind, (path, count, shows) in MIXED.items():
        cookies = admins if kind.startswith("admin") else athletes
        kinds[kind] = (PageClients(running, cookies, path=path, shows=shows), count)
    since = time.time()
    results = await asyncio.gather(*(pages.opening(count) for pages, count in kinds.values()))
    until = time.time()
    await asyncio.sleep(QUICK_SETTLE_S)
    for pages, _ in kinds.values():
        await pages.close()
    ready = {kind: [r for r in got if r is not None] for kind, got in zip(kinds, results, strict=True)}
    failed = sum(r is None for got in results for r in got)
    return Mixed(ready, failed, lag_since(running, since, until), turns_since(running, since, until),
                 turns_since(running, since, until, full_collections=False),
                 _longest_turn(running, since, until))  # fmt: skip


def _longest_turn(running: Running, since: float, until: float) -> str:
    path = running.data_dir / "turn-probe-callbacks.log"
    if not path.exists():
        return ""
    seconds = [line.split(" ", 1) for line in path.read_text().splitlines()]
    within = [rest for at, rest in seconds if since <= float(at) <= until + 1]
    return max(within, key=lambda rest: float(rest.split(":", 1)[0]), default="")


def _report_mixed(outcome: Mixed, turn_probe: bool) -> None:
    load = os.getloadavg()[0]
    loop = "asyncio's loop, turn probe" if turn_probe else "uvloop"
    print(f"mixed: 50 Context pages open, then at once 50 more and {', '.join(MIXED)} ({loop}; load {load:.2f}; "
          f"{outcome.failed} failed)")  # fmt: skip
    for kind, ready in outcome.ready_ms.items():
        if ready:
            print(f"  {kind}: {len(ready)} ready, p95 {percentile(ready, 95):,.0f} ms, last {max(ready):,.0f} ms")
            record(f"mixed_{kind}_page_ready_p95_ms", percentile(ready, 95))
    if outcome.lags:
        worst, p95 = max(outcome.lags), percentile(outcome.lags, 95)
        print(f"  event loop lag: worst {worst:,.0f} ms, p95 of seconds {p95:,.0f} ms")
        record("mixed_loop_lag_max_ms", max(outcome.lags))
    if outcome.turns:
        print(f"  longest loop turn (thread CPU): {max(outcome.turns):,.1f} ms; each second's: "
              + " ".join(f"{t:.0f}" for t in outcome.turns))  # fmt: skip
        record("mixed_loop_turn_max_ms", max(outcome.turns))
        without = outcome.turns_without_full_gc
        print(f"  longest loop turn leaving out full garbage collections: {max(without):,.1f} ms; each second's: "
              + " ".join(f"{t:.0f}" for t in without))  # fmt: skip
        print(f"    its costliest callbacks: {outcome.longest_turn}")
        record("mixed_loop_turn_without_full_gc_max_ms", max(without))


def run_mixed(*, turn_probe: bool = False) -> None:
    path, loaded = dataset.cached(SPEC)
    with tempfile.TemporaryDirectory(prefix="bench-mixed-") as tmp:
        folder = Path(tmp)
        shutil.copyfile(path, folder / "app.sqlite3")
        with serve(folder / "app.sqlite3", folder, lag_probe=True, turn_probe=turn_probe) as running:
            outcome = asyncio.run(_measure_mixed(running, loaded.usernames[0], loaded.admin_username))
    _report_mixed(outcome, turn_probe)


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
    if not quick:
        print("\nPages of several kinds at once")
        run_mixed()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mixed", action="store_true", help="the mixed round alone")
    parser.add_argument("--turn-probe", action="store_true", help="mixed round on asyncio's loop, turns timed")
    arguments = parser.parse_args()
    if arguments.mixed:
        run_mixed(turn_probe=arguments.turn_probe)
    else:
        run(quick=True)
