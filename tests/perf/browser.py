"""The real server in a subprocess for the browser benches (as tests/e2e starts it), with the
options they need: the event-loop lag probe (ui/server.py, MEMORY_REVIEW_LAG_PROBE=1), the turn
probe (below) and the server's memory read from /proc.

The turn probe (`serve(..., turn_probe=True)`) measures what the lag probe cannot tell apart from the
machine's load: the CPU time of each turn of the event loop (thread CPU, so time the loop's thread
waits for a core is not counted), and logs the longest of each second to turn-probe.log. It runs
the server through this module (`python -m tests.perf.browser serve …`) on asyncio's own loop,
whose turns can be timed from Python (uvloop's cannot); the figures compare builds of the app on
that loop, not uvloop's speed.
"""

from __future__ import annotations

import asyncio
import gc
import os
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, ROOT, _free_port

__all__ = ["CHROMIUM", "CHROMIUM_ARGS", "FIRST_MEMORY", "Running", "lag_since", "serve", "turns_since"]

# The Context page's first memory on screen (what "page ready" waits for).
FIRST_MEMORY = ".mr-memory"


@dataclass(frozen=True)
class Running:
    url: str
    pid: int
    data_dir: Path

    def rss_mib(self) -> float:
        """The server process's resident memory now (VmRSS)."""
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        raise RuntimeError("no VmRSS")


@contextmanager
def serve(database: Path, data_dir: Path, *, lag_probe: bool = False, turn_probe: bool = False) -> Iterator[Running]:
    """`memory-review serve` on `database` (SQLite) on a free port, stopped afterwards. `turn_probe`:
    on asyncio's loop, each second's longest loop turn in thread CPU logged (see above)."""
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "NICEGUI", "MEMORY_REVIEW_"))}
    env["MEMORY_REVIEW_DATA_DIR"] = str(data_dir)
    if lag_probe:
        env["MEMORY_REVIEW_LAG_PROBE"] = "1"
    log = data_dir / "server.log"
    program = "tests.perf.browser" if turn_probe else "ui.cli"
    process = subprocess.Popen(
        [sys.executable, "-m", program, "serve", "--host", "127.0.0.1", "--port", str(port), "--db",
         f"sqlite:///{database}"],
        cwd=ROOT,
        env=env,
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        _wait_until_up(process, port, log)
        yield Running(f"http://127.0.0.1:{port}", process.pid, data_dir)
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _wait_until_up(process: subprocess.Popen[bytes], port: int, log: Path) -> None:
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited: {log.read_text()[-2000:]}")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/login", timeout=2)
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("server did not start within 90 s")


def lag_since(running: Running, since: float, until: float | None = None) -> list[float]:
    """The probe's per-second worst event-loop lags (ms) logged between two wall-clock times."""
    return _per_second(running.data_dir / "lag-probe.log", since, until)


def turns_since(
    running: Running, since: float, until: float | None = None, *, full_collections: bool = True
) -> list[float]:
    """The turn probe's per-second longest loop turns (ms of the loop thread's CPU) between two times;
    `full_collections=False`: leaving out the time of the interpreter's full garbage collections."""
    return _per_second(running.data_dir / "turn-probe.log", since, until, column=1 if full_collections else 2)


def _per_second(path: Path, since: float, until: float | None, column: int = 1) -> list[float]:
    if not path.exists():
        return []
    figures = []
    for line in path.read_text().splitlines():
        fields = line.split()
        if float(fields[0]) >= since and (until is None or float(fields[0]) <= until + 1):
            figures.append(float(fields[column]))
    return figures


def _time_turns(log_path: Path) -> None:
    """Every turn of asyncio's loop timed in the thread's CPU time. Each second's longest is logged, with
    the longest leaving out the interpreter's full garbage collections (which stop the loop wherever they
    fall: ui/gc_policy.py), and beside it (turn-probe-callbacks.log) that turn's costliest callbacks."""
    run_once = asyncio.base_events.BaseEventLoop._run_once  # type: ignore[attr-defined]
    run_callback = asyncio.events.Handle._run  # type: ignore[attr-defined]
    log = log_path.open("a", buffering=1)
    callbacks_log = log_path.with_name("turn-probe-callbacks.log").open("a", buffering=1)
    second: list[float] = [time.time(), 0.0, 0.0]  # its start, longest turn, longest without full collections
    turn: list[tuple[float, str]] = []  # this turn's callbacks over 2 ms and its collections: (thread CPU s, what)
    full_collections = [0.0]  # in this turn (s)
    collecting: list[float] = []  # thread CPU when the running collection started
    longest: list[tuple[float, str]] = []  # what this second's longest turn ran

    def collection(phase: str, info: dict[str, int]) -> None:
        if threading.current_thread() is not threading.main_thread():
            return
        if phase == "start":
            collecting[:] = [time.thread_time()]
        elif collecting:
            spent = time.thread_time() - collecting.pop()
            turn.append((spent, f"(in it: garbage collection of generation {info['generation']})"))
            if info["generation"] == 2:
                full_collections[0] += spent

    def timed_callback(handle: asyncio.Handle) -> None:
        started = time.thread_time()
        run_callback(handle)
        spent = time.thread_time() - started
        if spent > 0.002:
            turn.append((spent, _what(handle)))

    def timed(loop: asyncio.AbstractEventLoop) -> None:
        turn.clear()
        full_collections[0] = 0.0
        started = time.thread_time()
        run_once(loop)
        spent = time.thread_time() - started
        second[1] = max(second[1], spent)
        if spent - full_collections[0] > second[2]:
            second[2] = spent - full_collections[0]
            longest[:] = sorted(turn, reverse=True)[:5]
        now = time.time()
        if now - second[0] >= 1:
            log.write(f"{now:.3f} {second[1] * 1000:.1f} {second[2] * 1000:.1f}\n")
            parts = " | ".join(f"{cpu * 1000:.1f} ms {what}" for cpu, what in longest)
            callbacks_log.write(f"{now:.3f} {second[2] * 1000:.1f}: {parts}\n")
            second[:] = [now, 0.0, 0.0]

    gc.callbacks.append(collection)
    asyncio.events.Handle._run = timed_callback  # type: ignore[attr-defined,method-assign]
    asyncio.base_events.BaseEventLoop._run_once = timed  # type: ignore[attr-defined]


def _what(handle: asyncio.Handle) -> str:
    """A callback as a person reads it: a task's name and the coroutine it runs, else the handle."""
    task = getattr(getattr(handle, "_callback", None), "__self__", None)
    if not isinstance(task, asyncio.Task):
        return repr(handle)[:200]
    coroutine = task.get_coro()
    names = []
    while coroutine is not None and hasattr(coroutine, "cr_code"):
        names.append(coroutine.cr_code.co_qualname)
        coroutine = coroutine.cr_await
    return f"task {task.get_name()[:40]!r}: … {' > '.join(names[-6:])}"


def _serve_with_turn_probe(argv: list[str]) -> int:
    sys.modules["uvloop"] = None  # type: ignore[assignment]  # uvicorn's loop="auto" takes asyncio's loop
    _time_turns(Path(os.environ["MEMORY_REVIEW_DATA_DIR"]) / "turn-probe.log")
    from ui.cli import main

    return main(argv)


if __name__ == "__main__":
    sys.exit(_serve_with_turn_probe(sys.argv[1:]))
