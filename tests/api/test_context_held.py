"""The context route reads on a connection each of its threads keeps (ui.api.security.HeldConnections).
When PostgreSQL ends those connections (a restart, a failover, an admin), the coach notices nothing:
every next answer is whole and the same as before, none is an error."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from sqlalchemy import text

from domain.actors import SYSTEM
from domain.api_tokens import create_token
from persistence.audit_seal import seal_engine
from persistence.engine import make_engine
from persistence.settings import Settings
from persistence.uow import unit_of_work
from tests.api.conftest import _on_server, start, stop
from tests.databases import postgres_url, require_postgres
from ui.api.routes import CONTEXT_THREADS


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, str, str]]:
    """A server of its own on a fresh schema, its connections named so they can be ended: (url, app name, token)."""
    require_postgres()
    schema = f"held_{uuid.uuid4().hex[:10]}"
    name = f"mr_{schema}"
    _on_server(f'CREATE SCHEMA "{schema}"')
    url = f"{postgres_url()}?options=-csearch_path%3D{schema}&application_name={name}"
    process, base = start(url, tmp_path)
    engine = make_engine(url)
    seal_engine(engine, Settings(database_url=url, data_dir=tmp_path))  # the server's audit key
    try:
        with unit_of_work(engine) as session:
            secret = create_token(session, SYSTEM, name="coach", scopes=["read"]).secret
        yield base, name, secret
    finally:
        stop(process)
        engine.dispose()
        _on_server(f'DROP SCHEMA "{schema}" CASCADE')


def test_connections_ended_by_the_database_cost_the_coach_nothing(server: tuple[str, str, str]) -> None:
    base, name, secret = server
    with httpx.Client(base_url=base, headers={"Authorization": f"Bearer {secret}"}, timeout=20) as client:

        def ask() -> httpx.Response:
            return client.get("/api/v1/athletes/alex/context", params={"query": "knee after long runs"})

        before = [ask() for _ in range(3 * CONTEXT_THREADS)]  # every context thread holds a connection now
        assert {r.status_code for r in before} == {200}
        admin = make_engine(postgres_url())
        with admin.begin() as connection:
            ended = connection.execute(
                text("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = :name"),
                {"name": name},
            ).scalar_one()
        admin.dispose()
        assert ended >= 1
        after = [ask() for _ in range(3 * CONTEXT_THREADS)]
    assert [r.status_code for r in after] == [200] * len(after)
    assert {r.content for r in after} == {before[0].content}
