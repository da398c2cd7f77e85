"""Alembic environment: takes the engine from the caller, or a URL from `-x url=...`."""

from __future__ import annotations

from alembic import context

from domain.models import Base
from persistence.engine import make_engine
from persistence.schema_filter import include_object


def run_migrations() -> None:
    config = context.config
    engine = config.attributes.get("engine")
    if engine is None:
        engine = make_engine(context.get_x_argument(as_dictionary=True)["url"])
    with engine.connect() as connection:
        context.configure(
            connection=connection,
            target_metadata=Base.metadata,
            include_object=include_object,
            render_as_batch=connection.dialect.name == "sqlite",
        )
        with context.begin_transaction():
            context.run_migrations()
        connection.commit()


run_migrations()
