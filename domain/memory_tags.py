"""Keeps `memory_tags` equal to the tags of active memories; called by domain/memory_writes.py only.

A write knows the memory's state before and after it, so it changes the rows with at most two
statements and never reads them first.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Table, bindparam, delete, insert, update
from sqlalchemy.orm import Session

from domain.dedup_keys import tag_rows
from domain.enums import MemoryStatus, MemoryType
from domain.models import Memory, MemoryTag
from domain.prepared import Prepared

_TABLE = cast(Table, MemoryTag.__table__)
_INSERT = Prepared(insert(_TABLE))
_DELETE = Prepared(delete(_TABLE).where(_TABLE.c.memory_id == bindparam("b_memory_id")))
_TOUCH = Prepared(
    update(_TABLE).where(_TABLE.c.memory_id == bindparam("b_memory_id")).values(updated_at=bindparam("b_updated_at"))
)


@dataclass(frozen=True)
class TagState:
    """What one memory contributes to the table."""

    type: MemoryType
    tags: frozenset[str]
    updated_at: datetime


def tag_state(memory: Memory) -> TagState | None:
    if memory.status != MemoryStatus.ACTIVE or not memory.tags:
        return None
    return TagState(memory.type, frozenset(memory.tags), memory.updated_at)


def sync(session: Session, memory: Memory, before: TagState | None, after: TagState | None) -> None:
    """Bring the memory's rows from state `before` to state `after` (None: no rows)."""
    if before == after:
        return
    connection = session.connection()
    if before is not None and after is not None and (before.type, before.tags) == (after.type, after.tags):
        _TOUCH.run(connection, {"b_memory_id": memory.id, "b_updated_at": after.updated_at})
        return
    if before is not None:
        _DELETE.run(connection, {"b_memory_id": memory.id})
    if after is not None:
        rows: list[dict[str, Any]] = tag_rows(
            memory_id=memory.id,
            athlete_id=memory.athlete_id,
            memory_type=after.type,
            tags=sorted(after.tags),
            updated_at=after.updated_at,
        )
        if rows:
            _INSERT.run_many(connection, rows)
