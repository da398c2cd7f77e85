"""NiceGUI `User` tests run the real app (ui/main.py) on a copy of a demo database."""

from __future__ import annotations

import shutil
from pathlib import Path

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


async def log_in(user: User, username: str, password: str | None = None) -> None:
    await user.open("/login")
    user.find("Username").type(username)
    user.find("Password").type(password or DEMO_PASSWORDS[username])
    user.find("Log in").click()
