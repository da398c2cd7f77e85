"""An athlete's own account: what they deleted lately comes back in one step; their password is theirs to change."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import Engine, select

from domain import account, memories
from domain.enums import AuditAction, MemoryStatus
from domain.errors import InvalidInput, PermissionDenied
from domain.login import check_credentials
from domain.models import AuditEvent, Memory, User
from domain.recently_deleted import list_recently_deleted
from domain.types import utcnow
from domain.visibility import with_inactive
from persistence.uow import unit_of_work
from tests.factories import TEST_PASSWORD, make_memory


def _delete(engine: Engine, athlete: User, memory_id: int, *, days_ago: int = 0) -> None:
    with unit_of_work(engine) as session:
        memories.delete_memory(session, athlete, memory_id=memory_id)
    if days_ago:
        with unit_of_work(engine) as session:
            stored = session.get(Memory, memory_id, execution_options=with_inactive())
            assert stored is not None
            stored.deleted_at = utcnow() - timedelta(days=days_ago)


def test_recently_deleted_lists_only_my_own_deletes_within_thirty_days(
    engine: Engine, athlete: User, other_athlete: User
) -> None:
    recent, old, other = make_memory(engine, athlete), make_memory(engine, athlete), make_memory(engine, other_athlete)
    _delete(engine, athlete, recent.id, days_ago=29)
    _delete(engine, athlete, old.id, days_ago=31)
    _delete(engine, other_athlete, other.id)
    with unit_of_work(engine, read_only=True) as session:
        listed = list_recently_deleted(session, athlete)
    assert [m.id for m in listed.items] == [recent.id] and listed.total == 1


def test_a_recent_delete_is_restored_and_an_old_one_goes_to_the_admin(engine: Engine, athlete: User) -> None:
    recent, old = make_memory(engine, athlete), make_memory(engine, athlete)
    _delete(engine, athlete, recent.id, days_ago=29)
    _delete(engine, athlete, old.id, days_ago=31)
    with unit_of_work(engine) as session:
        memories.undo_delete(session, athlete, memory_id=recent.id)
    with pytest.raises(PermissionDenied, match="ask an admin"), unit_of_work(engine) as session:
        memories.undo_delete(session, athlete, memory_id=old.id)
    with unit_of_work(engine, read_only=True) as session:
        states = {m.id: m.status for m in session.scalars(select(Memory).execution_options(**with_inactive()))}
    assert states[recent.id] == MemoryStatus.ACTIVE and states[old.id] == MemoryStatus.DELETED


def test_an_admin_has_no_recently_deleted_list(engine: Engine, admin: User) -> None:
    with pytest.raises(PermissionDenied), unit_of_work(engine, read_only=True) as session:
        list_recently_deleted(session, admin)


def test_changing_my_password_needs_the_current_one_and_ends_other_sessions(engine: Engine, athlete: User) -> None:
    with pytest.raises(InvalidInput, match="not your password") as wrong, unit_of_work(engine) as session:
        account.change_own_password(session, athlete, current="not-it-at-all", new="a-new-password")
    assert wrong.value.field == "current"
    with pytest.raises(InvalidInput, match="at least 8"), unit_of_work(engine) as session:
        account.change_own_password(session, athlete, current=TEST_PASSWORD, new="short")
    with unit_of_work(engine) as session:
        changed = account.change_own_password(session, athlete, current=TEST_PASSWORD, new="a-new-password")
        epoch = changed.session_epoch
    assert epoch == athlete.session_epoch + 1
    with unit_of_work(engine, read_only=True) as session:
        assert check_credentials(session, username=athlete.username, password="a-new-password")
        events = session.scalars(select(AuditEvent).where(AuditEvent.action == AuditAction.USER_PASSWORD_CHANGE))
        payloads = [str(e.after) for e in events]
    assert len(payloads) == 1 and "a-new-password" not in payloads[0] and "argon2" not in payloads[0]
