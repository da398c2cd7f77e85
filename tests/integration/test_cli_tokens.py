"""`memory-review token create|list|revoke`: the secret printed once, revocation by name or id."""

from __future__ import annotations

from pathlib import Path

import pytest

from domain.api_tokens import authenticate
from domain.enums import ApiScope
from domain.errors import AuthenticationFailed
from persistence.engine import make_engine
from persistence.uow import unit_of_work
from tests.integration.test_cli import run


def authenticates(db: str, secret: str) -> bool:
    engine = make_engine(db)
    try:
        with unit_of_work(engine, read_only=True) as session:
            return authenticate(session, secret).scopes == {ApiScope.INGEST, ApiScope.READ}
    except AuthenticationFailed:
        return False
    finally:
        engine.dispose()


def test_create_list_and_revoke(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = f"sqlite:///{tmp_path / 'cli.sqlite3'}"
    code, out, _ = run(["token", "create", "coach-prod", "--scope", "ingest,read", "--db", db], capsys)
    assert code == 0 and "shown only this once" in out
    secret = out.strip().splitlines()[-1]
    assert secret.startswith("mr_") and authenticates(db, secret)
    code, out, _ = run(["token", "list", "--db", db], capsys)
    assert code == 0 and "coach-prod" in out and "ingest,read" in out and secret not in out
    assert run(["token", "revoke", "coach-prod", "--db", db], capsys)[:2] == (0, "Revoked token #1 'coach-prod'.\n")
    assert not authenticates(db, secret)
    code, out, _ = run(["token", "list", "--active", "--db", db], capsys)
    assert out.strip() == "No tokens."


def test_bad_input_is_one_line_and_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = f"sqlite:///{tmp_path / 'cli.sqlite3'}"
    code, _, err = run(["token", "create", "coach", "--scope", "write", "--db", db], capsys)
    assert code == 1 and err.strip() == "error: Scope: unknown value 'write'; allowed: ingest, read."
    code, _, err = run(["token", "revoke", "42", "--db", db], capsys)
    assert code == 1 and err.strip() == "error: API token not found."
