"""Process-wide handles the pages share: the engine and settings. Nothing per-user here."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Engine

from persistence.settings import Settings


@dataclass
class Runtime:
    engine: Engine
    settings: Settings


_current: Runtime | None = None


def configure(engine: Engine, settings: Settings) -> None:
    global _current
    _current = Runtime(engine=engine, settings=settings)


def current() -> Runtime:
    if _current is None:
        raise RuntimeError("the app is not configured; start it with `memory-review serve`")
    return _current
