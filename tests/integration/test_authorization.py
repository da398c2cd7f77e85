"""Who may do what: {anonymous, owner, other athlete, admin} × every memory operation."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import Engine
from sqlalchemy.orm import Session

from domain import memories
from domain.enums import MemoryType
from domain.errors import DomainError, InvalidInput, NotFound, PermissionDenied
from domain.models import User
from domain.schemas import MemoryCreate, MemoryEdit
from persistence.uow import unit_of_work
from tests.factories import make_memory

OK, DENIED, MISSING, INVALID = "ok", "denied", "not found", "invalid"

Operation = Callable[[Session, User | None, int], Any]

OPERATIONS: dict[str, Operation] = {
    "get": lambda s, a, mid: memories.get_memory(s, a, memory_id=mid),
    "list": lambda s, a, mid: memories.list_memories(s, a),
    "add": lambda s, a, mid: memories.add_memory(s, a, data=MemoryCreate(content="x y z", type=MemoryType.CONTEXT)),
    "edit": lambda s, a, mid: memories.edit_memory(
        s, a, memory_id=mid, expected_version=1, changes=MemoryEdit(content="Changed")
    ),
    "delete": lambda s, a, mid: memories.delete_memory(s, a, memory_id=mid),
    "undo": lambda s, a, mid: memories.undo_delete(s, a, memory_id=mid),
    "restore": lambda s, a, mid: memories.restore_memory(s, a, memory_id=mid),
    "hard delete": lambda s, a, mid: memories.hard_delete_memory(s, a, memory_id=mid),
    "history": lambda s, a, mid: memories.memory_history(s, a, memory_id=mid),
}

# Operations that need the memory soft-deleted (by its owner) first.
NEEDS_DELETED = {"undo", "restore", "hard delete"}

EXPECTED: dict[str, dict[str, str]] = {
    "anonymous": dict.fromkeys(OPERATIONS, DENIED),
    "owner": {
        "get": OK,
        "list": OK,
        "add": OK,
        "edit": OK,
        "delete": OK,
        "undo": OK,
        "restore": DENIED,
        "hard delete": DENIED,
        "history": OK,
    },
    "other athlete": {
        "get": MISSING,
        "list": OK,
        "add": OK,
        "edit": MISSING,
        "delete": MISSING,
        "undo": MISSING,
        "restore": DENIED,
        "hard delete": DENIED,
        "history": MISSING,
    },
    # Admins read and restore; they never write an athlete's memories. Listing needs an athlete.
    "admin": {
        "get": OK,
        "list": INVALID,
        "add": DENIED,
        "edit": DENIED,
        "delete": DENIED,
        "undo": DENIED,
        "restore": OK,
        "hard delete": OK,
        "history": OK,
    },
}


def outcome(call: Callable[[], Any]) -> str:
    try:
        call()
    except PermissionDenied:
        return DENIED
    except NotFound:
        return MISSING
    except InvalidInput:
        return INVALID
    except DomainError as exc:  # pragma: no cover - shows up as a wrong outcome
        return f"unexpected {type(exc).__name__}"
    return OK


@pytest.mark.parametrize("who", list(EXPECTED))
def test_authorization_matrix(engine: Engine, athlete: User, other_athlete: User, admin: User, who: str) -> None:
    actors: dict[str, User | None] = {
        "anonymous": None,
        "owner": athlete,
        "other athlete": other_athlete,
        "admin": admin,
    }
    results = {}
    for name, operation in OPERATIONS.items():
        memory = make_memory(engine, athlete, content=f"Memory for {name}")
        if name in NEEDS_DELETED:
            with unit_of_work(engine) as session:
                memories.delete_memory(session, athlete, memory_id=memory.id)
        with unit_of_work(engine) as session:
            results[name] = outcome(lambda: operation(session, actors[who], memory.id))  # noqa: B023
    assert results == EXPECTED[who]


def test_a_guessed_id_of_another_athletes_memory_reads_as_not_found(
    engine: Engine, athlete: User, other_athlete: User
) -> None:
    theirs = make_memory(engine, other_athlete, content="Sam's private note")
    with unit_of_work(engine) as session, pytest.raises(NotFound, match="Memory not found"):
        memories.get_memory(session, athlete, memory_id=theirs.id)
    with unit_of_work(engine) as session, pytest.raises(NotFound, match="Memory not found"):
        memories.get_memory(session, athlete, memory_id=theirs.id + 1000)
    with unit_of_work(engine, read_only=True) as session:
        assert [m.content for m in memories.list_memories(session, other_athlete).items] == ["Sam's private note"]
        assert memories.list_memories(session, athlete).total == 0
