"""Shared fixtures: real databases (SQLite file, PostgreSQL schema) and the people in them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine

from domain.enums import Role
from domain.models import User
from persistence.engine import make_engine
from tests.databases import SqliteTemplate, postgres_engine
from tests.factories import make_user


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> SqliteTemplate:
    return SqliteTemplate(tmp_path_factory.mktemp("template"))


@pytest.fixture
def sqlite_engine(sqlite_template: SqliteTemplate, tmp_path: Path) -> Iterator[Engine]:
    engine = make_engine(sqlite_template.copy_to(tmp_path / "test.sqlite3"))
    yield engine
    engine.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def engine(request: pytest.FixtureRequest, sqlite_template: SqliteTemplate, tmp_path: Path) -> Iterator[Engine]:
    """The same test, once on SQLite and once on PostgreSQL."""
    if request.param == "sqlite":
        engine = make_engine(sqlite_template.copy_to(tmp_path / "test.sqlite3"))
        yield engine
        engine.dispose()
    else:
        with postgres_engine() as engine:
            yield engine


@pytest.fixture
def athlete(engine: Engine) -> User:
    return make_user(engine, "alex")


@pytest.fixture
def other_athlete(engine: Engine) -> User:
    return make_user(engine, "sam")


@pytest.fixture
def admin(engine: Engine) -> User:
    return make_user(engine, "admin", Role.ADMIN)


@pytest.fixture
def postgres() -> Iterator[Engine]:
    with postgres_engine() as engine:
        yield engine
