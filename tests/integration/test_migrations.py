"""The schema comes only from migrations, and the migrations match the models."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Engine, inspect, text

from domain.models import Base
from persistence.migrate import upgrade
from persistence.schema_filter import SEARCH_INDEX, include_object

PG_INDEXES = "SELECT indexname FROM pg_indexes WHERE tablename = 'memories' AND schemaname = current_schema()"


def test_models_and_migrations_agree(engine: Engine) -> None:
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"include_object": include_object})
        differences = compare_metadata(context, Base.metadata)
    assert differences == []


def test_upgrading_twice_is_harmless_and_creates_search(engine: Engine) -> None:
    upgrade(engine)
    tables = set(inspect(engine).get_table_names())
    assert {"users", "memories", "proposals", "source_texts", "audit_events", "audit_head"} <= tables
    if engine.dialect.name == "sqlite":
        assert "memories_fts" in tables
    else:
        with engine.connect() as connection:
            names = set(connection.scalars(text(PG_INDEXES)))
        assert SEARCH_INDEX in names
