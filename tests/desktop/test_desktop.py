"""`memory-review desktop` in a real window under Xvfb: the Context page shows, a change made in the window
is in the database after the window is closed, the next start reuses it, and nobody else can drive it."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from contextlib import closing
from pathlib import Path

import pytest

from tests.desktop.window import Desktop, start, stop

ROOT = Path(__file__).resolve().parents[2]
APP = [str(Path(sys.executable).parent / "memory-review"), "desktop"]


def _memories(data_dir: Path) -> list[tuple[str, str]]:
    with closing(sqlite3.connect(data_dir / "memory-review.sqlite3")) as db:
        return db.execute("SELECT type, content FROM memories").fetchall()


def _users(data_dir: Path) -> list[str]:
    with closing(sqlite3.connect(data_dir / "memory-review.sqlite3")) as db:
        return [name for (name,) in db.execute("SELECT username FROM users")]


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as error:
        return error.code


def _shows_context_page(desktop: Desktop, shot: Path) -> str:
    hook = desktop.wait_for(r"test hook: (.*)").group(1)
    assert "What your coach remembers" in hook, hook
    # The page is loaded when the hook answers; the window paints it a moment later (Qt's compositor).
    deadline = time.monotonic() + 20
    while (colours := desktop.screenshot(shot)) <= 50 and time.monotonic() < deadline:
        time.sleep(0.5)
    assert colours > 50, f"the window looks blank ({colours} colours): {shot}"
    return hook


def test_window_change_close_and_second_start(display: str, tmp_path: Path) -> None:
    data = tmp_path / "data"
    first = start(
        [*APP, "--empty", "--data-dir", str(data)], display=display, log=tmp_path / "1.log", script="change.js"
    )
    try:
        _shows_context_page(first, tmp_path / "first.png")
        port = first.wait_for(r"127\.0\.0\.1:(\d+)").group(1)
        # Another program on this computer gets nothing: no page, no second use of the token.
        assert _status(f"http://127.0.0.1:{port}/") == 403
        assert _status(f"http://127.0.0.1:{port}/login/desktop?token=guess") == 403
        _wait(lambda: _memories(data) == [("preference", "Prefers trail runs on Sundays")], first)
        first.resize(1000, 700)
        _wait(lambda: json.loads((data / "desktop.json").read_text()).get("width") == 1000, first)
        assert first.close() == 0
    finally:
        stop(first)
    assert not (data / "memory-review.sqlite3-wal").exists(), "the WAL was not checkpointed on close"
    assert _memories(data) == [("preference", "Prefers trail runs on Sundays")]
    assert _users(data) == ["owner"]

    second = start([*APP, "--data-dir", str(data)], display=display, log=tmp_path / "2.log", script="read.js")
    try:
        hook = _shows_context_page(second, tmp_path / "second.png")
        assert "Prefers trail runs on Sundays" in hook
        assert "First start" not in second.output()
        assert second.close() == 0
    finally:
        stop(second)
    assert _users(data) == ["owner"]  # the same owner, no second account
    assert json.loads((data / "desktop.json").read_text())["width"] == 1000  # the size was kept

    # What an admin runs on a server, the owner runs on their own data in the window: the audit check
    # and the clean-up (Recently deleted is there too; no password to change: there is none).
    third = start([*APP, "--data-dir", str(data)], display=display, log=tmp_path / "3.log", script="account.js")
    try:
        page = third.wait_for(r"test hook: (.*)").group(1)
        assert "Your account" in page and "Audit chain verified up to event" in page, page[:800]
        assert "Clean-up" in page and "Recently deleted" in page and "Change password" not in page
        assert third.close() == 0
    finally:
        stop(third)
    with closing(sqlite3.connect(data / "memory-review.sqlite3")) as db:
        assert db.execute("SELECT count(*) FROM audit_checkpoints WHERE ok").fetchone()[0] >= 1


def _wait(condition: object, desktop: Desktop, timeout: float = 90) -> None:
    """Until `condition()` holds; else fail with the app's output (the test's files are gone by the time
    anyone reads a CI log)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if condition():  # type: ignore[operator]
                return
        except (OSError, sqlite3.Error, ValueError):
            pass
        time.sleep(0.3)
    raise AssertionError(f"the window's change did not arrive in time; the app said:\n{desktop.output()[-3000:]}")


def _build_dirs(tmp_path: Path) -> list[str]:
    return ["--distpath", str(tmp_path / "dist"), "--workpath", str(tmp_path / "work"), "packaging/desktop.spec"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the packaged build is made for Linux")
def test_packaged_build_starts_with_demo_data(display: str, tmp_path: Path) -> None:
    pytest.importorskip("PyInstaller", reason="needs the 'desktop-build' extra")
    build = subprocess.run(
        [sys.executable, "-m", "PyInstaller", "--noconfirm", "--log-level", "WARN", *_build_dirs(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert build.returncode == 0, build.stderr[-3000:]
    executable = tmp_path / "dist" / "memory-review-desktop" / "memory-review-desktop"
    data = tmp_path / "data"
    app = start(
        [str(executable), "--demo", "--data-dir", str(data)], display=display, log=tmp_path / "p.log", script="read.js"
    )
    try:
        hook = _shows_context_page(app, tmp_path / "packaged.png")
        assert "Left knee" in hook or "knee" in hook.lower(), hook[:500]  # alex's demo memories
        assert app.close() == 0
    finally:
        stop(app)
    assert "alex" in _users(data)
    assert not (data / "memory-review.sqlite3-wal").exists()


def test_without_the_extra_one_line_says_what_to_install(tmp_path: Path) -> None:
    blocked = "import sys; sys.modules['webview'] = None; from ui.cli import main; sys.exit(main(sys.argv[1:]))"
    data = tmp_path / "data"
    done = subprocess.run(
        [sys.executable, "-c", blocked, "desktop", "--data-dir", str(data)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        "error: The desktop window needs the 'desktop' extra: pip install '.[desktop]' in the checkout, or make desktop"
    ]
    assert not data.exists()  # nothing was made
