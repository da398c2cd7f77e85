"""Soft delete as a global filter: ORM queries see only active memories unless they opt in.

Follows SQLAlchemy's filter_public recipe. Admin and owner-undo paths opt in with
`execution_options(include_inactive=True)` (the INCLUDE_INACTIVE key).
"""

from __future__ import annotations

from sqlalchemy import event
from sqlalchemy.orm import ORMExecuteState, Session, with_loader_criteria

from domain.enums import MemoryStatus
from domain.models import Memory

INCLUDE_INACTIVE = "include_inactive"
VISIBLE = MemoryStatus.ACTIVE  # the one status a query sees unless it opts in (fast paths reading rows apply it too)


@event.listens_for(Session, "do_orm_execute")
def _only_active_memories(state: ORMExecuteState) -> None:
    if (
        state.is_select
        and not state.is_column_load
        and not state.is_relationship_load
        and not state.execution_options.get(INCLUDE_INACTIVE, False)
    ):
        state.statement = state.statement.options(
            with_loader_criteria(Memory, Memory.status == VISIBLE, include_aliases=True)
        )


def with_inactive() -> dict[str, bool]:
    return {INCLUDE_INACTIVE: True}
