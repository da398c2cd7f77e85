"""The command line: clear output, one-line errors, non-zero exit codes."""

from __future__ import annotations

import io
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine, select

from domain.models import AuditEvent, Proposal
from persistence.engine import make_engine
from persistence.uow import unit_of_work
from tests.databases import postgres_engine
from ui.cli import main

SCRIPT = Path(sys.executable).parent / "memory-review"


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database URL for the command line: a new SQLite file, or a schema of its own on PostgreSQL."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'cli.sqlite3'}"
    else:
        with postgres_engine() as engine:
            yield _url_with_schema(engine)


def _url_with_schema(engine: Engine) -> str:
    with engine.connect() as connection:
        schema = connection.exec_driver_sql("SELECT current_schema()").scalar_one()
    url = engine.url.update_query_dict({"options": f"-csearch_path={schema}"})
    return url.render_as_string(hide_password=False)


def run(args: list[str], capsys: pytest.CaptureFixture[str], stdin: str = "") -> tuple[int, str, str]:
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode()))
    try:
        code = main(args)
    finally:
        sys.stdin = sys.__stdin__
    out, err = capsys.readouterr()
    return code, out, err


def test_db_upgrade_user_create_ingest_and_verify(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["db", "upgrade", "--db", db], capsys)[0] == 0
    code, out, _ = run(
        ["user", "create", "Jo", "--role", "athlete", "--password-stdin", "--db", db], capsys, "a long password\n"
    )
    assert (code, out.strip()) == (0, "Created athlete 'jo'.")
    code, out, _ = run(
        ["ingest", "--athlete", "jo", "--kind", "user_message", "--ref", "m1", "-", "--db", db],
        capsys,
        "I prefer morning runs.",
    )
    assert code == 0 and "preference (high): Prefers morning runs  [time:morning]" in out
    code, out, _ = run(
        ["ingest", "--athlete", "jo", "--kind", "user_message", "--ref", "m1", "-", "--db", db],
        capsys,
        "I prefer morning runs.",
    )
    assert code == 0 and "Already ingested" in out
    code, out, _ = run(["audit", "verify", "--db", db], capsys)
    assert (code, out.strip()) == (0, "Audit chain verified: 3 events")


def test_errors_are_one_clear_line_and_change_nothing(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    run(["user", "create", "jo", "--role", "athlete", "--password-stdin", "--db", db], capsys, "a long password\n")
    cases = [
        (
            ["ingest", "--athlete", "nobody", "--kind", "user_message", "--ref", "x", "-", "--db", db],
            "hello",
            "error: Unknown athlete 'nobody'.",
        ),
        (
            ["ingest", "--athlete", "jo", "--kind", "email", "--ref", "x", "-", "--db", db],
            "hello",
            "error: Kind: unknown value 'email'; allowed: activity_note, user_message.",
        ),
        (
            ["ingest", "--athlete", "jo", "--kind", "user_message", "--ref", "x", "-", "--db", db],
            "x" * 20_001,
            "error: Text: at most 20,000 characters (got 20,001); send long notes in parts.",
        ),
        (
            ["user", "create", "jo", "--role", "athlete", "--password-stdin", "--db", db],
            "another password\n",
            "error: Username: 'jo' is taken.",
        ),
        (
            ["user", "create", "kim", "--role", "athlete", "--password-stdin", "--db", db],
            "short\n",
            "error: Password: at least 8 characters.",
        ),
        (
            ["ingest", "--athlete", "jo", "--kind", "user_message", "--ref", "x", "/no/such/note.txt", "--db", db],
            "",
            "error: Cannot read /no/such/note.txt: No such file or directory.",
        ),
    ]
    for args, stdin, message in cases:
        code, _, err = run(args, capsys, stdin)
        assert (code, err.strip()) == (1, message)
    with unit_of_work(make_engine(db), read_only=True) as session:
        assert session.scalars(select(Proposal)).all() == []
        assert len(session.scalars(select(AuditEvent)).all()) == 1


def test_audit_verify_names_the_first_bad_event(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    run(["user", "create", "jo", "--role", "athlete", "--password-stdin", "--db", db], capsys, "a long password\n")
    run(
        ["ingest", "--athlete", "jo", "--kind", "user_message", "--ref", "m1", "-", "--db", db],
        capsys,
        "I prefer morning runs.",
    )
    with unit_of_work(make_engine(db)) as session:
        event = session.get(AuditEvent, 2)
        assert event is not None
        event.reason = "tampered"
    code, _, err = run(["audit", "verify", "--db", db], capsys)
    assert code == 1
    assert err.strip() == "Audit chain broken at event 2: its recorded fields were changed"


def test_audit_verify_checks_since_the_last_checkpoint_and_all_with_full(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    create = ["user", "create", "jo", "--role", "athlete", "--password-stdin", "--db", db]
    assert run(create, capsys, "a long password\n")[0] == 0
    assert run(["audit", "verify", "--db", db], capsys)[:2] == (0, "Audit chain verified: 1 events\n")
    assert run([*create[:2], "sam", *create[3:]], capsys, "a long password\n")[0] == 0
    code, out, _ = run(["audit", "verify", "--db", db], capsys)
    assert (code, out.strip()) == (0, "Audit chain verified up to event #2 (1 new since the checkpoint at #1)")
    assert run(["audit", "verify", "--full", "--db", db], capsys)[:2] == (0, "Audit chain verified: 2 events\n")


def test_console_script_is_installed_and_explains_itself() -> None:
    result = subprocess.run([str(SCRIPT), "--help"], capture_output=True, text=True, check=False)
    assert result.returncode == 0
    for command in ("serve", "db", "user", "audit", "ingest", "purge"):
        assert command in result.stdout
    bad = subprocess.run([str(SCRIPT), "user", "create", "x"], capture_output=True, text=True, check=False)
    assert bad.returncode != 0 and "--role" in bad.stderr


def test_serve_refuses_an_impossible_port(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["serve", "--port", "99999"])
    assert caught.value.code == 2
    assert "port must be 1–65535, got 99999" in capsys.readouterr().err
