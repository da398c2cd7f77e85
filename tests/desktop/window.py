"""Drives `memory-review desktop` on an X display: start, find the window, screenshot, close like a person."""

from __future__ import annotations

import os
import re
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

TITLE = "Memory Review"
HERE = Path(__file__).parent


@dataclass
class Desktop:
    process: subprocess.Popen[bytes]
    log: Path
    display: str

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def wait_for(self, pattern: str, timeout: float = 90) -> re.Match[str]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = re.search(pattern, self.output())
            if found:
                return found
            assert self.process.poll() is None, f"the app stopped ({self.process.returncode}):\n{self.output()}"
            time.sleep(0.3)
        raise AssertionError(f"no {pattern!r} in time:\n{self.output()}")

    def window(self) -> str:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            found = self._x("xdotool", "search", "--name", TITLE, check=False).split()
            if found:
                return found[0]
            time.sleep(0.3)
        raise AssertionError(f"no window titled {TITLE!r}:\n{self.output()}")

    def screenshot(self, path: Path) -> int:
        """Save the window as PNG; return how many distinct colours it has."""
        self._x("import", "-window", self.window(), str(path))
        return int(self._x("convert", str(path), "-format", "%k", "info:"))

    def resize(self, width: int, height: int) -> None:
        self._x("xdotool", "windowsize", self.window(), str(width), str(height))

    def close(self) -> int:
        """Ask the window to close (the window manager's close, as a person's click) and wait for the app."""
        self._x("wmctrl", "-c", TITLE)
        return self.process.wait(timeout=30)

    def _x(self, *command: str, check: bool = True) -> str:
        done = subprocess.run(
            command, env={**os.environ, "DISPLAY": self.display}, capture_output=True, text=True, check=False
        )
        if check and done.returncode != 0:
            raise AssertionError(f"{command[0]} failed: {done.stderr}")
        return done.stdout.strip()


def start(command: list[str], *, display: str, log: Path, script: str) -> Desktop:
    env = {
        **os.environ,
        "DISPLAY": display,
        "MEMORY_REVIEW_DESKTOP_TEST_JS": str(HERE / script),
    }
    for name in [name for name in env if name.startswith(("PYTEST", "NICEGUI_SCREEN"))]:
        del env[name]  # NiceGUI would take the app for a test run of its own
    env.pop("MEMORY_REVIEW_DATABASE_URL", None)
    with log.open("wb") as out:
        process = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT)
    return Desktop(process=process, log=log, display=display)


def stop(desktop: Desktop) -> None:
    if desktop.process.poll() is None:
        desktop.process.kill()
        desktop.process.wait(timeout=10)
