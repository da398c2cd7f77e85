"""What instances must share besides the database: the session secret, and a proxy config that loads."""

from __future__ import annotations

import os
import subprocess
import threading
from pathlib import Path

import pytest
from pydantic import ValidationError

from persistence.settings import Settings
from tests.databases import postgres_required
from tests.scale.cluster import PROXY_CONFIG, haproxy

SERVER_DB = "postgresql+psycopg://postgres@db.invalid/app"  # never connected: only where the secret lives


def test_the_session_secret_setting_signs_the_cookie_and_no_file_is_written(tmp_path: Path) -> None:
    secret = "s" * 40
    settings = Settings(database_url=SERVER_DB, data_dir=tmp_path, session_secret=secret)
    assert settings.storage_secret() == secret
    assert list(tmp_path.iterdir()) == []
    assert secret not in repr(settings)


def test_a_short_session_secret_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValidationError, match="at least 32 characters"):
        Settings(database_url=SERVER_DB, data_dir=tmp_path, session_secret="too-short")


def test_instances_starting_at_once_on_one_data_dir_get_one_secret(tmp_path: Path) -> None:
    start = threading.Barrier(8)
    secrets: list[str] = []

    def first_start() -> None:
        settings = Settings(database_url=SERVER_DB, data_dir=tmp_path)
        start.wait()
        secrets.append(settings.storage_secret())

    threads = [threading.Thread(target=first_start) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(secrets) == 8 and len(set(secrets)) == 1 and len(secrets[0]) >= 40
    assert [p.name for p in tmp_path.iterdir()] == ["storage.secret"]
    assert (tmp_path / "storage.secret").stat().st_mode & 0o077 == 0


def test_the_proxy_config_in_the_repo_loads(tmp_path: Path) -> None:
    binary = haproxy()
    if binary is None:
        if postgres_required():
            pytest.fail("HAProxy is not installed (apt-get install haproxy), and MEMORY_REVIEW_REQUIRE_POSTGRES=1")
        pytest.skip("HAProxy is not installed (apt-get install haproxy)")
    env = {**os.environ, "MR_PROXY_BIND": "127.0.0.1:8080", "MR_APP1": "127.0.0.1:8081", "MR_APP2": "127.0.0.1:8082"}
    check = subprocess.run([binary, "-c", "-f", str(PROXY_CONFIG)], env=env, capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr
