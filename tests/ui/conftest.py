"""NiceGUI `User` tests run the real app (ui/main.py) on a copy of a demo database."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path
from typing import Any

import pytest
from nicegui.testing import User

from tests.databases import build_demo_database

DEMO_PASSWORDS = {"alex": "demo-alex", "sam": "demo-sam", "admin": "demo-admin"}


@pytest.fixture(scope="session")
def demo_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_demo_database(tmp_path_factory.mktemp("demo") / "demo.sqlite3")


@pytest.fixture(autouse=True)
def app_database(demo_template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each test gets its own copy of the demo database; ui/main.py reads it from the env."""
    target = tmp_path / "app.sqlite3"
    shutil.copyfile(demo_template, target)
    url = f"sqlite:///{target}"
    monkeypatch.setenv("MEMORY_REVIEW_DATABASE_URL", url)
    monkeypatch.setenv("MEMORY_REVIEW_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("MEMORY_REVIEW_DEMO", raising=False)
    return url


@pytest.fixture(autouse=True)
def patient_user(monkeypatch: pytest.MonkeyPatch) -> None:
    """Page actions run in worker threads, so what they change appears a moment later:
    look for up to 10 s (100 tries) instead of NiceGUI's default 0.3 s: a loaded CI machine is slow, and a
    passing check returns as soon as it sees the text."""
    sees, misses = User.should_see, User.should_not_see

    async def should_see(self: User, *args: Any, retries: int = 100, **kwargs: Any) -> None:
        await sees(self, *args, retries=retries, **kwargs)

    async def should_not_see(self: User, *args: Any, retries: int = 100, **kwargs: Any) -> None:
        await misses(self, *args, retries=retries, **kwargs)

    monkeypatch.setattr(User, "should_see", should_see)
    monkeypatch.setattr(User, "should_not_see", should_not_see)


async def log_in(user: User, username: str, password: str | None = None) -> None:
    """Log in and wait until the attempt has finished (the password check runs in a thread)."""
    await user.open("/login")
    user.find("Username").type(username)
    user.find("Password").type(password or DEMO_PASSWORDS[username])
    user.find("Log in").click()
    for _ in range(200):
        try:
            if any(getattr(label, "text", "") for label in user.find(marker="login-error").elements):
                return  # refused: the message is shown
        except AssertionError:
            return  # the login page is gone: logged in
        await asyncio.sleep(0.05)
    raise AssertionError("the login did not finish within 10 s")
