"""A real X display for the desktop window: Xvfb with openbox (so closing asks the app, as a person does)."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Iterator

import pytest

TOOLS = ("Xvfb", "openbox", "xdotool", "wmctrl", "import")


@pytest.fixture(scope="session")
def display() -> Iterator[str]:
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    try:
        import webview  # noqa: F401
    except ImportError:
        missing.append("the 'desktop' extra (pywebview)")
    if missing:
        pytest.skip(f"needs {', '.join(missing)} (.ci/run installs them)")
    read, write = os.pipe()
    xvfb = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", "1600x1000x24", "-nolisten", "tcp"],
        pass_fds=(write,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    with os.fdopen(read) as numbers:
        name = f":{numbers.readline().strip()}"
    manager = subprocess.Popen(
        ["openbox"], env={**os.environ, "DISPLAY": name}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    _wait_for_window_manager(name)  # openbox takes the screen before the first window maps
    yield name
    for process in (manager, xvfb):
        process.terminate()
        process.wait(timeout=10)


def _wait_for_window_manager(display: str, timeout: float = 60) -> None:
    """Until openbox has taken the screen (wmctrl -m names it): a window mapped before that has no
    window manager, and closing it "as a person does" (wmctrl -c) would not reach the app."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = subprocess.run(
            ["wmctrl", "-m"], env={**os.environ, "DISPLAY": display}, capture_output=True, text=True, check=False
        )
        if found.returncode == 0 and "openbox" in found.stdout.lower():
            return
        time.sleep(0.1)
    raise AssertionError(f"openbox did not take display {display} within {timeout:.0f} s")
