"""A database ready to use: the engine, with every migration applied."""

from __future__ import annotations

from sqlalchemy import Engine

from persistence.audit_seal import seal_engine
from persistence.engine import make_engine
from persistence.migrate import upgrade
from persistence.settings import Settings


def ready_engine(settings: Settings) -> Engine:
    engine = make_engine(settings.effective_database_url)
    upgrade(engine)
    seal_engine(engine, settings)
    return engine
