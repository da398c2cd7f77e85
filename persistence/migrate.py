"""Apply Alembic migrations from code, so `serve` and `db upgrade` need no working directory."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine

MIGRATIONS = Path(__file__).parent / "migrations"


def alembic_config(engine: Engine) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("path_separator", "os")
    config.attributes["engine"] = engine
    return config


def upgrade(engine: Engine, revision: str = "heads") -> None:
    """Every head: independent changes may branch off the same revision until a merge joins them."""
    command.upgrade(alembic_config(engine), revision)
