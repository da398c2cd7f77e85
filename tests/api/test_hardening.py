"""Issue 14, finding 8: security headers on every response, the session cookie's Secure flag, and
private file modes, against the real server in a subprocess started on a brand-new data folder."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from nicegui import __version__ as nicegui_version
from starlette.types import Message, Receive, Scope, Send

from tests.api.conftest import ROOT, _free_port, stop
from ui.server import CONTENT_SECURITY_POLICY, SecurityHeaders


@dataclass
class Started:
    url: str
    data_dir: Path
    storage_dir: Path


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Started]:
    root = tmp_path_factory.mktemp("hardening")
    data_dir, storage_dir = root / "data", root / "nicegui-storage"  # neither exists yet
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "NICEGUI", "MEMORY_REVIEW_"))}
    env.update(MEMORY_REVIEW_DATA_DIR=str(data_dir), NICEGUI_STORAGE_PATH=str(storage_dir))
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "ui.cli", "serve", "--demo", "--host", "127.0.0.1", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=(root / "server.log").open("wb"),
        stderr=subprocess.STDOUT,
        umask=0o022,  # what a shell usually gives: the server must not rely on it
    )
    deadline = time.monotonic() + 60
    while True:
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise RuntimeError(f"server did not start: {(root / 'server.log').read_text()[-2000:]}")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/login", timeout=1)
            break
        except (OSError, urllib.error.URLError):
            time.sleep(0.2)
    try:
        yield Started(f"http://127.0.0.1:{port}", data_dir, storage_dir)
    finally:
        stop(process)


HEADERS = {
    "content-security-policy": CONTENT_SECURITY_POLICY,
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
    "x-frame-options": "DENY",
}


@pytest.mark.parametrize(
    "path",
    [
        "/login",
        "/",  # the redirect to /login
        "/api/v1/athletes/alex/memories",  # refused by the API gate (no token)
        "/api/v1/no-such-route",
        "/assets/logo.svg",
        f"/_nicegui/{nicegui_version}/static/nicegui.css",
        "/no-such-page",
    ],
)
def test_every_response_carries_the_security_headers(fresh: Started, path: str) -> None:
    response = httpx.get(fresh.url + path, follow_redirects=False, timeout=20)
    for name, value in HEADERS.items():
        assert response.headers.get(name) == value, (path, response.status_code, name)
    policy = response.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in policy and "connect-src 'self' ws: wss:" in policy


def test_an_api_answer_with_a_bad_token_carries_them_too(fresh: Started) -> None:
    response = httpx.get(
        f"{fresh.url}/api/v1/athletes/alex/memories", headers={"Authorization": "Bearer mr_wrong"}, timeout=20
    )
    assert response.status_code == 401
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["content-security-policy"] == CONTENT_SECURITY_POLICY


def test_the_api_docs_may_load_their_cdn_and_nothing_else_does(fresh: Started) -> None:
    docs = httpx.get(f"{fresh.url}/docs", timeout=20).headers["content-security-policy"]
    assert "https://cdn.jsdelivr.net" in docs and "frame-ancestors 'none'" in docs
    assert "cdn.jsdelivr.net" not in httpx.get(f"{fresh.url}/login", timeout=20).headers["content-security-policy"]


def test_the_session_cookie_is_secure_when_the_request_came_over_https(fresh: Started) -> None:
    plain = httpx.get(f"{fresh.url}/login", timeout=20).headers.get("set-cookie", "")
    assert plain.startswith("session=") and "secure" not in plain.lower()  # plain http: a Secure cookie would be lost
    # Through a proxy on this machine (uvicorn trusts 127.0.0.1's X-Forwarded-Proto), as behind an https proxy:
    proxied = httpx.get(f"{fresh.url}/login", headers={"X-Forwarded-Proto": "https"}, timeout=20)
    assert "; secure" in proxied.headers["set-cookie"].lower()


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_fresh_start_creates_private_files_only(fresh: Started) -> None:
    assert _mode(fresh.data_dir) == 0o700
    database = fresh.data_dir / "memory-review.sqlite3"
    expected = [
        database,
        database.with_name(database.name + "-wal"),
        database.with_name(database.name + "-shm"),
        database.with_suffix(".secret"),
        database.with_suffix(".audit-key"),
        database.with_suffix(".audit-anchor"),
    ]
    for path in expected:
        assert path.is_file(), path
    for path in fresh.data_dir.rglob("*"):
        assert _mode(path) == (0o700 if path.is_dir() else 0o600), (path, oct(_mode(path)))
    # NiceGUI's storage files appear once a login writes one: tests/e2e/test_session_security.py


async def _answer(scope: Scope, receive: Receive, send: Send) -> None:
    headers = [(b"set-cookie", b"session=abc; path=/; httponly; samesite=lax"), (b"set-cookie", b"other=1; path=/")]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": b""})


@pytest.mark.parametrize(
    ("setting", "scheme", "secure"),
    [
        ("auto", "http", False),
        ("auto", "https", True),
        ("always", "http", True),
        ("never", "https", False),
    ],
)
async def test_the_secure_cookie_setting(setting: str, scheme: str, secure: bool) -> None:
    sent: list[Message] = []

    async def send(message: Message) -> None:
        sent.append(message)

    async def receive() -> Message:
        return {"type": "http.request", "body": b""}

    scope: Scope = {"type": "http", "path": "/", "scheme": scheme, "headers": []}
    await SecurityHeaders(_answer, secure_cookie=setting)(scope, receive, send)
    cookies = [value.decode() for name, value in sent[0]["headers"] if name == b"set-cookie"]
    assert cookies[0].endswith("; secure") is secure
    assert cookies[1] == "other=1; path=/"  # only the session cookie is NiceGUI's to mark
