"""Builders shared by the admin-console integration tests."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine, func, select

from domain import memories
from domain.models import AccessEvent, Memory, User
from persistence.uow import unit_of_work
from tests.factories import make_memory


def deleted_memory(engine: Engine, owner: User, content: str = "Prefers morning runs", **fields: Any) -> Memory:
    memory = make_memory(engine, owner, content, **fields)
    with unit_of_work(engine) as session:
        return memories.delete_memory(session, owner, memory_id=memory.id)


def access_events(engine: Engine, kind: str | None = None) -> list[AccessEvent]:
    with unit_of_work(engine, read_only=True) as session:
        stmt = select(AccessEvent).order_by(AccessEvent.id)
        if kind is not None:
            stmt = stmt.where(AccessEvent.kind == kind)
        return list(session.scalars(stmt))


def count(engine: Engine, entity: type[Any]) -> int:
    with unit_of_work(engine, read_only=True) as session:
        return session.scalar(select(func.count()).select_from(entity)) or 0
