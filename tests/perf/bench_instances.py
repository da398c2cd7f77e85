"""Pages per second through HAProxy (deploy/haproxy.cfg) with one app instance and with two, on one
PostgreSQL database and one Redis, all on this machine's 2 shared cores.

Two loads, each run against: instance 1 directly, the proxy in front of instance 1 only, and the
proxy in front of both instances (the same two processes throughout, so the runs differ only in
where requests go):
- HTTP page builds: CLIENTS workers (httpx, each a browser of its own: its cookie jar keeps HAProxy's
  instance cookie) request the Context page of a logged-in athlete (the demo data set) in a loop;
  the server builds the whole page per request.
- Browser page views: TABS Chromium tabs (one context each) load the Context page in a loop until
  its first memory is on screen (page build, assets, socket.io connection).

Figures are printed with the load average beside them, never asserted; the ratio of two runs in
one process is what to read (the load generator and Chromium share the cores with the servers).
"""

from __future__ import annotations

import asyncio
import os
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import httpx
from playwright.async_api import Browser, async_playwright

from tests.perf.baselines import percentile
from tests.perf.browser import CHROMIUM, CHROMIUM_ARGS, FIRST_MEMORY
from tests.perf.figures import record
from tests.scale.cluster import Cluster, cluster, start_proxy, unavailable_reason

CLIENTS = 8
TABS = 4
WARM_UP_S = 1  # per target and round, before its measured seconds
INSTANCE_COOKIE = "MR_INSTANCE"


@dataclass(frozen=True)
class Load:
    target: str
    pages: int
    seconds: float
    latencies_ms: list[float]
    errors: int
    load_avg: float

    @property
    def per_s(self) -> float:
        return self.pages / self.seconds

    def line(self) -> str:
        p50 = percentile(self.latencies_ms, 50) if self.latencies_ms else float("nan")
        p95 = percentile(self.latencies_ms, 95) if self.latencies_ms else float("nan")
        return (
            f"  {self.target:<16} {self.per_s:7.1f} pages/s   p50 {p50:6.0f} ms   p95 {p95:6.0f} ms   "
            f"{self.errors} errors   (load {self.load_avg:.2f})"
        )


def _http_load(target: str, url: str, session_cookie: dict[str, str], seconds: float) -> Load:
    stop_at = time.perf_counter() + seconds
    latencies: list[float] = []
    errors = [0]
    lock = threading.Lock()

    def worker() -> None:
        with httpx.Client(base_url=url, cookies=session_cookie, timeout=30) as client:
            while time.perf_counter() < stop_at:
                started = time.perf_counter()
                try:
                    answer = client.get("/")
                    ok = answer.status_code == 200 and "mr-memory" in answer.text
                except httpx.HTTPError:
                    ok = False
                with lock:
                    if ok:
                        latencies.append((time.perf_counter() - started) * 1000)
                    else:
                        errors[0] += 1

    started = time.perf_counter()
    threads = [threading.Thread(target=worker) for _ in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    return Load(target, len(latencies), elapsed, latencies, errors[0], os.getloadavg()[0])


async def _log_in(browser: Browser, url: str) -> dict[str, str]:
    """The logged-in browser's cookies (name → value) without HAProxy's, so each client gets placed anew."""
    context = await browser.new_context()
    page = await context.new_page()
    await page.goto(f"{url}/login")
    await page.get_by_label("Username").fill("alex")
    await page.get_by_label("Password").fill("demo-alex")
    await page.get_by_role("button", name="Log in").click()
    await page.locator(FIRST_MEMORY).first.wait_for(state="visible", timeout=60_000)
    cookies = {c["name"]: c["value"] for c in await context.cookies() if c["name"] != INSTANCE_COOKIE}
    await context.close()
    return cookies


async def _browser_load(browser: Browser, target: str, url: str, cookies: dict[str, str], seconds: float) -> Load:
    latencies: list[float] = []
    errors = 0
    stop_at = time.perf_counter() + seconds

    async def tab() -> None:
        nonlocal errors
        context = await browser.new_context(viewport={"width": 1280, "height": 900})
        await context.add_cookies([{"name": name, "value": value, "url": url} for name, value in cookies.items()])
        page = await context.new_page()
        while time.perf_counter() < stop_at:
            started = time.perf_counter()
            try:
                await page.goto(f"{url}/", wait_until="commit", timeout=30_000)
                await page.locator(FIRST_MEMORY).first.wait_for(state="visible", timeout=30_000)
                latencies.append((time.perf_counter() - started) * 1000)
            except Exception:  # a page that never gets there is counted, not fatal
                errors += 1
        await context.close()

    started = time.perf_counter()
    await asyncio.gather(*(tab() for _ in range(TABS)))
    return Load(target, len(latencies), time.perf_counter() - started, latencies, errors, os.getloadavg()[0])


def _rounds(targets: dict[str, str], rounds: int) -> list[tuple[str, str]]:
    """Every target once per round, every other round in reverse order (so drift in the machine's
    load, shared with the other engineers, does not favour one target)."""
    items = list(targets.items())
    return [item for r in range(rounds) for item in (items if r % 2 == 0 else items[::-1])]


async def _browser_runs(targets: dict[str, str], seconds: float, rounds: int) -> tuple[dict[str, str], list[Load]]:
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        cookies = await _log_in(browser, targets["proxy_2"])
        loads = []
        for name, url in _rounds(targets, rounds):
            await _browser_load(browser, name, url, cookies, WARM_UP_S)
            loads.append(await _browser_load(browser, name, url, cookies, seconds))
            print(loads[-1].line(), flush=True)
        await browser.close()
    return cookies, loads


def _record(kind: str, loads: list[Load]) -> None:
    """Each target's pages/s over all its rounds, its p95, and two instances against one."""
    rates = {}
    for target in dict.fromkeys(load.target for load in loads):
        mine = [load for load in loads if load.target == target]
        rates[target] = sum(load.pages for load in mine) / sum(load.seconds for load in mine)
        record(f"instances_{kind}_{target}_per_s", rates[target])
        latencies = [ms for load in mine for ms in load.latencies_ms]
        if latencies:
            record(f"instances_{kind}_{target}_p95_ms", percentile(latencies, 95))
    ratio = rates["proxy_2"] / rates["proxy_1"] if rates["proxy_1"] else 0.0
    record(f"instances_{kind}_2_vs_1_x", ratio)
    direct = f", {rates['direct_1']:.1f} without the proxy" if "direct_1" in rates else ""
    print(
        f"{kind}: {rates['proxy_1']:.1f} pages/s with one instance, {rates['proxy_2']:.1f} with two "
        f"({ratio:.2f}×){direct}  (load {os.getloadavg()[0]:.2f})",
        flush=True,
    )


def _measure(running: Cluster, one_port: int, quick: bool) -> None:
    targets = {
        "direct_1": running.instances[0].url,
        "proxy_1": f"http://127.0.0.1:{one_port}",
        "proxy_2": running.proxy_url,
    }
    if quick:  # one instance against two; the proxy's own cost (direct_1) only in full mode
        del targets["direct_1"]
    seconds, rounds = (2, 1) if quick else (15, 2)
    print(f"Browser page views, {TABS} Chromium tabs, {seconds} s per target and round:", flush=True)
    cookies, views = asyncio.run(_browser_runs(targets, seconds, rounds))
    print(f"HTTP page builds (GET / of a logged-in athlete), {CLIENTS} clients, {seconds} s per target and round:")
    builds = []
    for name, url in _rounds(targets, rounds):
        _http_load(name, url, cookies, WARM_UP_S)
        builds.append(_http_load(name, url, cookies, seconds))
        print(builds[-1].line(), flush=True)
    _record("browser_views", views)
    _record("page_builds", builds)


def run(quick: bool = False) -> None:
    reason = unavailable_reason()
    if reason is not None:
        print(f"skipped: {reason}")
        return
    print(f"load average before: {os.getloadavg()[0]:.2f}; 2 instances, PostgreSQL, Redis, HAProxy on this machine")
    with tempfile.TemporaryDirectory(prefix="bench-instances-") as tmp, cluster(Path(tmp)) as running:
        one_proxy, one_port = start_proxy([running.instances[0].port], Path(tmp) / "haproxy-one.log")
        try:
            _measure(running, one_port, quick)
        finally:
            one_proxy.terminate()
            one_proxy.wait(timeout=10)


if __name__ == "__main__":
    run(quick=True)
