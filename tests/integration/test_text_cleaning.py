"""One text rule for every field (domain.content): control characters and direction overrides are
refused with a clear message and change nothing, text is stored in NFC, a program's note is kept
without them; on PostgreSQL a NUL is a refusal, never a database error."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine, func, select

from domain import memories
from domain.actors import SYSTEM
from domain.enums import Role
from domain.errors import AuthenticationFailed, InvalidInput
from domain.ingest import ingest
from domain.login import LOGIN_FAILED, check_credentials
from domain.models import Memory, SourceText, User
from domain.schemas import MemoryCreate, MemoryEdit, parse
from domain.users import create_user
from persistence.uow import unit_of_work
from tests.factories import TEST_PASSWORD, make_memory

HOSTILE = {
    "NUL": "Ann\x00",
    "BEL": "Ann\x07",
    "ESC": "Ann\x1b[31m",
    "C1": "Ann\x9b",
    "right-to-left override": "\u202enimda",
    "left-to-right isolate": "Ann\u2066x\u2069",
}


def _users(engine: Engine) -> int:
    with unit_of_work(engine, read_only=True) as session:
        return session.scalar(select(func.count()).select_from(User)) or 0


@pytest.mark.parametrize("kind", HOSTILE)
def test_a_display_name_with_hidden_characters_is_refused_and_nobody_is_created(engine: Engine, kind: str) -> None:
    before = _users(engine)
    with pytest.raises(InvalidInput) as refused, unit_of_work(engine) as session:
        create_user(
            session, SYSTEM, username="ann", password=TEST_PASSWORD, role=Role.ATHLETE, display_name=HOSTILE[kind]
        )
    assert str(refused.value).startswith("Display name: must not contain")
    assert _users(engine) == before


def test_a_display_name_is_one_line_in_nfc(engine: Engine) -> None:
    with unit_of_work(engine) as session:
        user = create_user(
            session, SYSTEM, username="rene", password=TEST_PASSWORD, role=Role.ATHLETE, display_name="Rene\u0301\n  B."
        )
    assert user.display_name == "René B."


@pytest.mark.parametrize("kind", ["NUL", "ESC", "right-to-left override"])
def test_an_admin_reason_with_hidden_characters_is_refused_and_the_memory_stays_deleted(
    engine: Engine, athlete: User, admin: User, kind: str
) -> None:
    memory = make_memory(engine, athlete)
    with unit_of_work(engine) as session:
        memories.delete_memory(session, athlete, memory_id=memory.id)
    with pytest.raises(InvalidInput, match="Reason: must not contain"), unit_of_work(engine) as session:
        memories.restore_memory(session, admin, memory_id=memory.id, reason=f"Restored {HOSTILE[kind]}")
    with pytest.raises(InvalidInput, match="Reason: must not contain"), unit_of_work(engine) as session:
        memories.hard_delete_memory(session, admin, memory_id=memory.id, reason=HOSTILE[kind])
    with unit_of_work(engine, read_only=True) as session:
        kept = memories.get_memory(session, admin, memory_id=memory.id)
    assert kept.status == "deleted"


def test_memory_content_refuses_a_direction_override_and_keeps_lines(engine: Engine, athlete: User) -> None:
    with pytest.raises(InvalidInput, match="Content: must not contain characters that change the reading direction"):
        parse(MemoryCreate, content="Knee \u202etsrow", type="preference")
    with pytest.raises(InvalidInput, match="Content: must not contain control characters"):
        parse(MemoryEdit, content="Knee\x00pain")
    with unit_of_work(engine) as session:
        added = memories.add_memory(
            session, athlete, data=parse(MemoryCreate, content="Cafe\u0301 runs\n\tbefore work", type="preference")
        )
    with unit_of_work(engine, read_only=True) as session:
        stored = session.get(Memory, added.id)
        assert stored is not None
        assert stored.content == "Café runs\n\tbefore work"


def test_a_coach_note_is_kept_without_hidden_characters(engine: Engine, athlete: User) -> None:
    with unit_of_work(engine) as session:
        result = ingest(
            session,
            athlete=athlete,
            kind="activity_note",
            reference="run-1",
            text="My left knee\x00 hurts\u202e after long runs.\nI prefer morning runs.",
        )
    assert result.proposals
    with unit_of_work(engine, read_only=True) as session:
        stored = session.scalars(select(SourceText.text)).one()
    assert stored == "My left knee hurts after long runs.\nI prefer morning runs."


@pytest.mark.parametrize("username", ["alex\x00", "\u202exela", "alex\x1b"])
def test_logging_in_with_hidden_characters_is_a_wrong_username(engine: Engine, athlete: User, username: str) -> None:
    with pytest.raises(AuthenticationFailed, match=LOGIN_FAILED), unit_of_work(engine, read_only=True) as session:
        check_credentials(session, username=username, password=TEST_PASSWORD)
