"""The real server in a subprocess for the browser benches (as tests/e2e starts it), with the
options they need: the event-loop lag probe (ui/server.py, MEMORY_REVIEW_LAG_PROBE=1) and the
server's memory read from /proc.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, ROOT, _free_port

__all__ = ["CHROMIUM", "CHROMIUM_ARGS", "FIRST_MEMORY", "Running", "lag_since", "serve"]

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
def serve(database: Path, data_dir: Path, *, lag_probe: bool = False) -> Iterator[Running]:
    """`memory-review serve` on `database` (SQLite) on a free port, stopped afterwards."""
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "NICEGUI", "MEMORY_REVIEW_"))}
    env["MEMORY_REVIEW_DATA_DIR"] = str(data_dir)
    if lag_probe:
        env["MEMORY_REVIEW_LAG_PROBE"] = "1"
    log = data_dir / "server.log"
    process = subprocess.Popen(
        [sys.executable, "-m", "ui.cli", "serve", "--host", "127.0.0.1", "--port", str(port), "--db",
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
    path = running.data_dir / "lag-probe.log"
    if not path.exists():
        return []
    lags = []
    for line in path.read_text().splitlines():
        at, lag = line.split()
        if float(at) >= since and (until is None or float(at) <= until + 1):
            lags.append(float(lag))
    return lags
