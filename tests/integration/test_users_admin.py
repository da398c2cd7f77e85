"""Managing accounts: list, create, reset password, disable/enable, change role; never lose the last admin."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine

from domain.enums import AccessKind, Role
from domain.errors import AuthenticationFailed, InvalidInput
from domain.models import AuditEvent, User
from domain.users import (
    change_role,
    create_user,
    get_user,
    list_users,
    reset_password,
    set_disabled,
)
from persistence.uow import unit_of_work
from tests.factories import TEST_PASSWORD, log_in, make_user
from tests.integration.admin_helpers import access_events


def test_lists_users_with_role_status_and_last_login(
    engine: Engine, athlete: User, other_athlete: User, admin: User
) -> None:
    log_in(engine, "alex", TEST_PASSWORD)
    with unit_of_work(engine) as session:
        page = list_users(session, admin)
        only_admins = list_users(session, admin, role=Role.ADMIN)
        found = list_users(session, admin, text="SA")
        paged = list_users(session, admin, page_size=2, page=2)
    assert [u.username for u in page.users] == ["admin", "alex", "sam"]
    assert page.users[1].last_login_at is not None
    assert page.users[2].last_login_at is None
    assert [u.username for u in only_admins.users] == ["admin"]
    assert [u.username for u in found.users] == ["sam"]
    assert ([u.username for u in paged.users], paged.pages) == (["sam"], 2)
    assert {e.athlete_id for e in access_events(engine, AccessKind.ADMIN_VIEW_USERS)} >= {athlete.id, other_athlete.id}


def test_admin_creates_athletes_and_admins(engine: Engine, admin: User) -> None:
    with unit_of_work(engine) as session:
        create_user(session, admin, username="Jo", password="long enough", role=Role.ATHLETE, display_name="Jo Lee")
        create_user(session, admin, username="boss", password="long enough", role=Role.ADMIN)
    assert log_in(engine, "jo", "long enough").display_name == "Jo Lee"
    assert log_in(engine, "boss", "long enough").role == Role.ADMIN
    with pytest.raises(InvalidInput, match="taken"), unit_of_work(engine) as session:
        create_user(session, admin, username="JO", password="long enough", role=Role.ATHLETE)


def test_reset_password_ends_sessions_and_is_audited_without_the_password(
    engine: Engine, athlete: User, admin: User
) -> None:
    with unit_of_work(engine) as session:
        reset_password(session, admin, user_id=athlete.id, new_password="brand new pass")
    with unit_of_work(engine) as session:
        user = get_user(session, athlete.id)
        assert user is not None and user.session_epoch == athlete.session_epoch + 1
        event = session.get(AuditEvent, 1)
        assert event is not None and event.action == "user_password_reset"
        assert "brand new pass" not in str(event.after) and "argon2" not in str(event.after)
    with pytest.raises(AuthenticationFailed):
        log_in(engine, "alex", TEST_PASSWORD)
    log_in(engine, "alex", "brand new pass")
    with pytest.raises(InvalidInput, match="at least 8"), unit_of_work(engine) as session:
        reset_password(session, admin, user_id=athlete.id, new_password="short")


def test_disable_ends_sessions_and_enable_lets_them_back(engine: Engine, athlete: User, admin: User) -> None:
    with unit_of_work(engine) as session:
        set_disabled(session, admin, user_id=athlete.id, disabled=True)
    with pytest.raises(AuthenticationFailed, match="disabled"):
        log_in(engine, "alex", TEST_PASSWORD)
    with unit_of_work(engine) as session:
        set_disabled(session, admin, user_id=athlete.id, disabled=False)
    log_in(engine, "alex", TEST_PASSWORD)


def test_the_last_active_admin_can_be_neither_disabled_nor_demoted(engine: Engine, admin: User) -> None:
    with pytest.raises(InvalidInput, match="active admin"), unit_of_work(engine) as session:
        set_disabled(session, admin, user_id=admin.id, disabled=True)
    with pytest.raises(InvalidInput, match="active admin"), unit_of_work(engine) as session:
        change_role(session, admin, user_id=admin.id, role=Role.ATHLETE)
    second = make_user(engine, "second", Role.ADMIN)
    with unit_of_work(engine) as session:
        set_disabled(session, admin, user_id=second.id, disabled=True)
    with pytest.raises(InvalidInput, match="active admin"), unit_of_work(engine) as session:
        change_role(session, admin, user_id=admin.id, role=Role.ATHLETE)
    with unit_of_work(engine) as session:
        set_disabled(session, admin, user_id=second.id, disabled=False)
    with unit_of_work(engine) as session:
        change_role(session, admin, user_id=admin.id, role=Role.ATHLETE)
        demoted = get_user(session, admin.id)
        assert demoted is not None and demoted.role == Role.ATHLETE
        assert demoted.session_epoch == admin.session_epoch + 1


def test_promote_an_athlete(engine: Engine, athlete: User, admin: User) -> None:
    with unit_of_work(engine) as session:
        change_role(session, admin, user_id=athlete.id, role=Role.ADMIN)
    with unit_of_work(engine) as session:
        user = get_user(session, athlete.id)
        assert user is not None and user.role == Role.ADMIN
        event = session.get(AuditEvent, 1)
        assert event is not None and event.action == "user_role"
        assert (event.before or {})["role"] == "athlete" and (event.after or {})["role"] == "admin"
