"""Logging in: the slow password check holds no write lock; only the short record of the login writes.

The lock tests are deterministic: a hasher hook asks, at the moment argon2 verifies the password,
whether another connection can take SQLite's write lock at once (BEGIN IMMEDIATE, no waiting).
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable

import pytest
from argon2 import PasswordHasher
from sqlalchemy import Engine, select

from domain import passwords
from domain.enums import AccessKind, Role
from domain.errors import AuthenticationFailed
from domain.login import ACCOUNT_DISABLED, LOGIN_FAILED, check_credentials, record_failed_login, record_login
from domain.models import AccessEvent, User
from domain.users import reset_password, set_disabled
from persistence.settings import Settings
from persistence.uow import unit_of_work
from tests.factories import TEST_PASSWORD, log_in, make_user
from ui import runtime
from ui.pages import login as login_page


class ProbingHasher(PasswordHasher):
    """Runs `probe` whenever a password is verified, that is while argon2 would be working."""

    def __init__(self, probe: Callable[[], bool]) -> None:
        super().__init__()
        self.probe = probe
        self.seen: list[bool] = []

    def verify(self, hash: str | bytes, password: str | bytes) -> bool:
        self.seen.append(self.probe())
        return super().verify(hash, password)


def another_writer_gets_the_lock_at_once(engine: Engine) -> bool:
    connection = sqlite3.connect(str(engine.url.database), timeout=0, isolation_level=None)
    try:
        connection.execute("BEGIN IMMEDIATE")
        connection.execute("ROLLBACK")
        return True
    except sqlite3.OperationalError:  # "database is locked": someone holds the write lock
        return False
    finally:
        connection.close()


@pytest.fixture
def probe(sqlite_engine: Engine, monkeypatch: pytest.MonkeyPatch) -> ProbingHasher:
    hasher = ProbingHasher(lambda: another_writer_gets_the_lock_at_once(sqlite_engine))
    monkeypatch.setattr(passwords, "hasher", hasher)
    return hasher


def test_the_probe_sees_a_write_lock_when_there_is_one(sqlite_engine: Engine) -> None:
    assert another_writer_gets_the_lock_at_once(sqlite_engine)
    with unit_of_work(sqlite_engine) as session:
        session.execute(select(1))  # a write unit takes the lock when its transaction begins
        assert not another_writer_gets_the_lock_at_once(sqlite_engine)


def test_the_login_page_checks_the_password_while_others_can_write(
    sqlite_engine: Engine, probe: ProbingHasher, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page's own login steps, through the session gateway's worker threads."""
    make_user(sqlite_engine, "alex")
    monkeypatch.setattr(runtime, "_current", None)
    runtime.configure(sqlite_engine, Settings(database_url=str(sqlite_engine.url)))
    user = asyncio.run(login_page._log_in("alex", TEST_PASSWORD))
    assert probe.seen == [True]
    assert user.username == "alex" and user.last_login_at is not None
    assert _access_kinds(sqlite_engine) == [AccessKind.LOGIN]


def test_an_unknown_user_costs_a_verification_too_and_holds_no_lock(
    sqlite_engine: Engine, probe: ProbingHasher
) -> None:
    with pytest.raises(AuthenticationFailed, match=LOGIN_FAILED), unit_of_work(sqlite_engine, read_only=True) as s:
        check_credentials(s, username="nobody", password=TEST_PASSWORD)
    assert probe.seen == [True]


def test_a_refused_attempt_changes_nothing_but_its_own_record(engine: Engine) -> None:
    athlete = make_user(engine, "alex")
    with pytest.raises(AuthenticationFailed, match=LOGIN_FAILED):
        log_in(engine, "alex", "not the password")
    with unit_of_work(engine) as session:
        record_failed_login(session, username=" ALEX ")
    with unit_of_work(engine, read_only=True) as session:
        user = session.get(User, athlete.id)
        events = list(session.scalars(select(AccessEvent)))
    assert user is not None and user.last_login_at is None
    assert [(e.kind, e.actor_id, e.actor_label) for e in events] == [(AccessKind.LOGIN_FAILED, athlete.id, "alex")]


@pytest.mark.parametrize("change", ["disabled", "password reset"])
def test_an_account_changed_between_check_and_record_is_refused(engine: Engine, change: str) -> None:
    athlete, admin = make_user(engine, "alex"), make_user(engine, "admin", Role.ADMIN)
    with unit_of_work(engine, read_only=True) as session:
        verified = check_credentials(session, username="alex", password=TEST_PASSWORD)
    with unit_of_work(engine) as session:
        if change == "disabled":
            set_disabled(session, admin, user_id=athlete.id, disabled=True)
        else:
            reset_password(session, admin, user_id=athlete.id, new_password="a brand new one")
    with pytest.raises(AuthenticationFailed) as refused, unit_of_work(engine) as session:
        record_login(session, verified)
    assert str(refused.value) == (ACCOUNT_DISABLED if change == "disabled" else LOGIN_FAILED)


def test_an_outdated_hash_is_replaced_with_one_computed_during_the_check(engine: Engine) -> None:
    athlete = make_user(engine, "alex")
    weak = PasswordHasher(time_cost=1, memory_cost=8192).hash(TEST_PASSWORD)
    _set_hash(engine, athlete.id, weak)
    with unit_of_work(engine, read_only=True) as session:
        verified = check_credentials(session, username="alex", password=TEST_PASSWORD)
    assert verified.new_hash is not None and verified.verified_hash == weak
    with unit_of_work(engine) as session:
        record_login(session, verified)
    with unit_of_work(engine, read_only=True) as session:
        stored = session.get(User, athlete.id)
    assert stored is not None and stored.password_hash == verified.new_hash
    assert passwords.matches(stored.password_hash, TEST_PASSWORD)
    assert not passwords.needs_rehash(stored.password_hash)


def _set_hash(engine: Engine, user_id: int, password_hash: str) -> None:
    with unit_of_work(engine) as session:
        user = session.get(User, user_id)
        assert user is not None
        user.password_hash = password_hash


def _access_kinds(engine: Engine) -> list[AccessKind]:
    with unit_of_work(engine, read_only=True) as session:
        return list(session.scalars(select(AccessEvent.kind).order_by(AccessEvent.id)))
