"""Test schemas left on the PostgreSQL server by a test process killed outright are dropped by a later
run's sweep (tests/databases.py), and nothing else is: not a live run's, not one from another machine
or container, not one without its maker's name. Other runs share the server meanwhile, so each check
looks at the schemas it made itself."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from sqlalchemy import text

from persistence.engine import make_engine
from tests.databases import SchemaOwner, postgres_url, require_postgres, sweep_stale_schemas

ROOT = Path(__file__).resolve().parents[2]
# A test process holding a schema of its own: prints the schema's name, then waits to be killed.
HOLDER = """
import sys, time
from sqlalchemy import text
from tests.databases import postgres_engine
with postgres_engine(migrated=False) as engine, engine.connect() as connection:
    print(connection.execute(text("SELECT current_schema()")).scalar_one(), flush=True)
    time.sleep(600)
"""


def schemas() -> set[str]:
    engine = make_engine(postgres_url())
    try:
        with engine.connect() as connection:
            return set(connection.execute(text("SELECT nspname FROM pg_namespace")).scalars())
    finally:
        engine.dispose()


def on_server(statement: str) -> None:
    engine = make_engine(postgres_url())
    try:
        with engine.begin() as connection:
            connection.execute(text(statement))
    finally:
        engine.dispose()


@pytest.fixture
def made() -> Iterator[list[str]]:
    """Schemas this test makes by hand, dropped afterwards if still there."""
    require_postgres()
    names: list[str] = []
    yield names
    for name in names:
        on_server(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')


def make_schema(made: list[str], comment: str | None) -> str:
    name = f"t_{uuid.uuid4().hex[:12]}"
    made.append(name)
    on_server(f'CREATE SCHEMA "{name}"')
    if comment is not None:
        quoted = comment.replace("'", "''")
        on_server(f"COMMENT ON SCHEMA \"{name}\" IS '{quoted}'")
    return name


def test_a_killed_test_process_leaves_its_schema_to_the_next_sweep(made: list[str]) -> None:
    holder = subprocess.Popen([sys.executable, "-c", HOLDER], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None
        schema = holder.stdout.readline().strip()
        assert schema.startswith("t_")
        made.append(schema)
        sweep_stale_schemas()
        assert schema in schemas()  # its process is running: kept
    finally:
        os.kill(holder.pid, signal.SIGKILL)  # no clean-up of its own
        holder.wait()
    assert schema in schemas()
    sweep_stale_schemas()
    assert schema not in schemas()


def test_the_sweep_drops_only_what_it_is_sure_of(made: list[str]) -> None:
    here = SchemaOwner.this_process()
    live = make_schema(made, here.comment())
    reused_pid = make_schema(made, replace(here, started=here.started + 1).comment())  # this pid, started later
    other_boot = make_schema(made, replace(here, boot=str(uuid.uuid4()), pid=2**22 + 1).comment())
    other_container = make_schema(made, replace(here, pid_namespace="pid:[1]", pid=2**22 + 1).comment())
    unmarked = make_schema(made, None)  # made by an older tests/databases.py: its maker cannot be told
    foreign = make_schema(made, "someone's notes")
    sweep_stale_schemas()
    left = schemas()
    assert reused_pid not in left
    assert {live, other_boot, other_container, unmarked, foreign} <= left


def test_who_made_a_schema_and_whether_it_is_gone() -> None:
    here = SchemaOwner.this_process()
    assert SchemaOwner.parse(here.comment()) == here
    assert SchemaOwner.parse(None) is None
    assert SchemaOwner.parse("memory-review test schema; pid=12") is None
    assert not here.is_gone(here)

    finished = subprocess.Popen([sys.executable, "-c", "pass"])
    finished.wait()  # reaped: its pid is free
    of_finished = replace(here, pid=finished.pid, started=0)
    assert of_finished.is_gone(here)

    zombie = subprocess.Popen(["true"])
    try:
        for _ in range(1000):  # until it has exited (its parent, this process, has not reaped it yet)
            state, started = proc_stat(zombie.pid)
            if state == "Z":
                break
            time.sleep(0.01)
        assert state == "Z"
        assert replace(here, pid=zombie.pid, started=started).is_gone(here)  # dead, if not yet reaped
    finally:
        zombie.wait()


def proc_stat(pid: int) -> tuple[str, int]:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return fields[0], int(fields[19])
