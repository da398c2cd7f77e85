"""The API against the real server in a subprocess, on SQLite and on PostgreSQL (a fresh schema).

One server per database for the whole run (the demo data set, loaded by `serve --demo`); each
test makes the tokens it needs directly in that database.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from sqlalchemy import Engine, select, text

from domain.actors import SYSTEM
from domain.api_tokens import create_token, revoke_token
from domain.models import User
from persistence.audit_seal import seal_engine
from persistence.engine import make_engine
from persistence.settings import Settings
from persistence.uow import unit_of_work
from tests.databases import postgres_url, require_postgres

ROOT = Path(__file__).resolve().parents[2]
RATE_LIMIT = 200  # per minute and token, in the test servers


@dataclass
class ApiServer:
    url: str
    engine: Engine  # the server's database, for making tokens and checking what was recorded

    def token(self, *scopes: str, revoked: bool = False) -> str:
        name = f"t-{uuid.uuid4().hex[:10]}"
        with unit_of_work(self.engine) as session:
            secret = create_token(session, SYSTEM, name=name, scopes=scopes or ("read",)).secret
        if revoked:
            with unit_of_work(self.engine) as session:
                revoke_token(session, SYSTEM, name_or_id=name)
        return secret

    def client(self, secret: str | None = None) -> httpx.Client:
        headers = {"Authorization": f"Bearer {secret}"} if secret else {}
        return httpx.Client(base_url=self.url, headers=headers, timeout=20)

    def user(self, username: str) -> User:
        with unit_of_work(self.engine, read_only=True) as session:
            user = session.scalar(select(User).where(User.username == username))
        assert user is not None
        return user


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _env(data_dir: Path, rate_limit: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "NICEGUI", "MEMORY_REVIEW_"))}
    env.update(MEMORY_REVIEW_DATA_DIR=str(data_dir), MEMORY_REVIEW_API_RATE_LIMIT=rate_limit)
    return env


def start(url: str, data_dir: Path, *, rate_limit: str = f"{RATE_LIMIT}/minute") -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    log_path = data_dir / "server.log"
    process = subprocess.Popen(
        [sys.executable, "-m", "ui.cli", "serve", "--demo", "--host", "127.0.0.1", "--port", str(port), "--db", url],
        cwd=ROOT,
        env=_env(data_dir, rate_limit),
        stdout=log_path.open("wb"),
        stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited: {log_path.read_text()[-2000:]}")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/openapi.json", timeout=1)
            return process, f"http://127.0.0.1:{port}"
        except (OSError, urllib.error.URLError):
            time.sleep(0.2)
    process.kill()
    raise RuntimeError("server did not start within 60 s")


def stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()


def _on_server(statement: str) -> None:
    admin = make_engine(postgres_url())
    with admin.begin() as connection:
        connection.execute(text(statement))
    admin.dispose()


@pytest.fixture(scope="session", params=["sqlite", "postgresql"])
def api(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ApiServer]:
    data_dir = tmp_path_factory.mktemp(f"api-{request.param}")
    if request.param == "sqlite":
        url = f"sqlite:///{data_dir / 'app.sqlite3'}"
        schema = None
    else:
        require_postgres()
        schema = f"api_{uuid.uuid4().hex[:10]}"
        _on_server(f'CREATE SCHEMA "{schema}"')
        url = f"{postgres_url()}?options=-csearch_path%3D{schema}"
    process, base = start(url, data_dir)
    engine = make_engine(url)
    seal_engine(engine, Settings(database_url=url, data_dir=data_dir))  # the server's audit key and anchor
    try:
        yield ApiServer(base, engine)
    finally:
        stop(process)
        engine.dispose()
        if schema is not None:
            _on_server(f'DROP SCHEMA "{schema}" CASCADE')
