"""Test data builders. Users get a password hash computed once, to keep tests quick."""

from __future__ import annotations

from functools import cache
from typing import Any

from argon2 import PasswordHasher
from sqlalchemy import Engine

from domain.actors import SYSTEM
from domain.content import normalize
from domain.enums import MemoryConfidence, MemorySource, MemoryStatus, MemoryType, Role
from domain.login import check_credentials, record_login
from domain.memory_writes import insert_memory
from domain.models import Memory, Proposal, User
from domain.proposals import add_proposal
from domain.types import utcnow
from persistence.uow import unit_of_work

TEST_PASSWORD = "correct horse battery"


@cache
def _password_hash() -> str:
    return PasswordHasher().hash(TEST_PASSWORD)


def make_user(engine: Engine, username: str, role: Role = Role.ATHLETE) -> User:
    with unit_of_work(engine) as session:
        user = User(
            username=username,
            display_name=username.capitalize(),
            role=role,
            password_hash=_password_hash(),
            disabled=False,
            session_epoch=0,
        )
        session.add(user)
    return user


def log_in(engine: Engine, username: str, password: str = TEST_PASSWORD) -> User:
    """Log in as the login page does: the password check in a read-only unit, then a short write."""
    with unit_of_work(engine, read_only=True) as session:
        verified = check_credentials(session, username=username, password=password)
    with unit_of_work(engine) as session:
        return record_login(session, verified)


def make_memory(engine: Engine, owner: User, content: str = "Prefers morning runs", **fields: Any) -> Memory:
    now = utcnow()
    values: dict[str, Any] = {
        "athlete_id": owner.id,
        "type": MemoryType.PREFERENCE,
        "content": content,
        "source": MemorySource.USER_MESSAGE,
        "confidence": MemoryConfidence.MEDIUM,
        "occurrences": 1,
        "tags": [],
        "status": MemoryStatus.ACTIVE,
        "created_at": now,
        "updated_at": now,
    }
    values.update(fields)
    with unit_of_work(engine) as session:
        return insert_memory(session, SYSTEM, Memory(**values))


def make_pending_proposal(engine: Engine, athlete: User, content: str, tag: str) -> int:
    """A pending injury proposal from an activity note, added as ingest adds one; its id."""
    with unit_of_work(engine) as session:
        proposal = Proposal(
            athlete_id=athlete.id,
            type=MemoryType.INJURY_HISTORY,
            content=content,
            normalized_content=normalize(content),
            source=MemorySource.ACTIVITY_NOTE,
            confidence=MemoryConfidence.MEDIUM,
            tags=[tag],
            extractor="test",
        )
        return add_proposal(session, proposal, actor=SYSTEM).id
