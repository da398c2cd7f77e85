"""Accounts: argon2 hashes, case-insensitive names, clear login failures, disabling."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine, select

from domain.actors import SYSTEM
from domain.enums import Role
from domain.errors import AuthenticationFailed, InvalidInput, PermissionDenied
from domain.models import AuditEvent, User
from domain.users import create_user, set_disabled
from persistence.uow import unit_of_work
from tests.factories import log_in


def test_create_and_authenticate_case_insensitively(engine: Engine, admin: User) -> None:
    with unit_of_work(engine) as session:
        created = create_user(session, admin, username="Jo.Runner", password="s3cret-pass", role=Role.ATHLETE)
    assert created.username == "jo.runner"
    assert created.password_hash.startswith("$argon2")
    user = log_in(engine, "JO.RUNNER", "s3cret-pass")
    assert user.id == created.id and user.last_login_at is not None


def test_wrong_password_and_unknown_user_fail_the_same_way(engine: Engine, athlete: User) -> None:
    messages = []
    for username, password in (("alex", "wrong password"), ("nobody", "correct horse battery")):
        with pytest.raises(AuthenticationFailed) as caught:
            log_in(engine, username, password)
        messages.append(str(caught.value))
    assert messages == ["Wrong username or password."] * 2


def test_bad_usernames_passwords_and_duplicates_are_refused(engine: Engine, admin: User) -> None:
    with unit_of_work(engine) as session:
        create_user(session, admin, username="kim", password="long enough", role=Role.ATHLETE)
    cases = [
        ("k", "long enough", "Username"),
        ("kim", "long enough", "'kim' is taken"),
        ("KIM", "long enough", "'kim' is taken"),
        ("lee", "short", "at least 8"),
        ("<b>x</b>", "long enough", "Username"),
    ]
    for username, password, message in cases:
        with pytest.raises(InvalidInput, match=message), unit_of_work(engine) as session:
            create_user(session, admin, username=username, password=password, role=Role.ATHLETE)


def test_only_admins_and_the_system_create_users(engine: Engine, athlete: User) -> None:
    for nobody_allowed in (athlete, None):
        with pytest.raises(PermissionDenied), unit_of_work(engine) as session:
            create_user(session, nobody_allowed, username="mallory", password="long enough", role=Role.ADMIN)
    with unit_of_work(engine) as session:
        created = create_user(session, SYSTEM, username="first-admin", password="long enough", role=Role.ADMIN)
    with unit_of_work(engine, read_only=True) as session:
        event = session.scalars(select(AuditEvent).order_by(AuditEvent.seq.desc())).first()
    assert event is not None and event.target_id == created.id
    assert (event.action, event.actor_id, event.actor_label) == ("user_create", None, "system")


def test_disabled_user_cannot_log_in_and_the_last_admin_stays(engine: Engine, athlete: User, admin: User) -> None:
    with unit_of_work(engine) as session:
        disabled = set_disabled(session, admin, user_id=athlete.id, disabled=True)
    assert disabled.session_epoch == 1
    with pytest.raises(AuthenticationFailed, match="disabled"):
        log_in(engine, "alex", "correct horse battery")
    with pytest.raises(InvalidInput, match="At least one active admin"), unit_of_work(engine) as session:
        set_disabled(session, admin, user_id=admin.id, disabled=True)
