"""User accounts: creation, authentication, disabling. Passwords are argon2-hashed."""

from __future__ import annotations

import re

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from domain import audit
from domain.actors import require_admin
from domain.enums import Role
from domain.errors import AuthenticationFailed, InvalidInput, NotFound
from domain.models import AccessEvent, User
from domain.types import utcnow

USERNAME_PATTERN = re.compile(r"^[a-z0-9][a-z0-9._-]{1,31}$")
MIN_PASSWORD = 8
MAX_PASSWORD = 256
LOGIN_FAILED = "Wrong username or password."
_hasher = PasswordHasher()
# Verified against when the username is unknown, so both failures cost the same time.
_DUMMY_HASH = _hasher.hash("memory-review-timing-guard")


def normalize_username(username: str) -> str:
    return username.strip().lower()


def _check_new_password(password: str) -> None:
    if len(password) < MIN_PASSWORD:
        raise InvalidInput(f"Password: at least {MIN_PASSWORD} characters.", field="password")
    if len(password) > MAX_PASSWORD:
        raise InvalidInput(f"Password: at most {MAX_PASSWORD} characters.", field="password")


def find_user(session: Session, username: str) -> User | None:
    return session.scalar(select(User).where(User.username == normalize_username(username)))


def user_snapshot(user: User) -> dict[str, object]:
    return {
        "username": user.username,
        "display_name": user.display_name,
        "role": user.role.value,
        "disabled": user.disabled,
    }


def create_user(
    session: Session,
    actor: User | None,
    *,
    username: str,
    password: str,
    role: Role,
    display_name: str | None = None,
    bootstrap: bool = False,
) -> User:
    """Create an account. `bootstrap` is for the CLI and demo loader, which act as the system."""
    if not bootstrap:
        require_admin(actor)
    name = normalize_username(username)
    if not USERNAME_PATTERN.match(name):
        raise InvalidInput(
            "Username: 2–32 characters, letters, digits, '.', '_' or '-', starting with a letter or digit.",
            field="username",
        )
    _check_new_password(password)
    shown_name = " ".join((display_name or name.capitalize()).split())[:120]
    if find_user(session, name) is not None:
        raise InvalidInput(f"Username: '{name}' is taken.", field="username")
    user = User(
        username=name,
        display_name=shown_name,
        role=Role(role),
        password_hash=_hasher.hash(password),
        disabled=False,
        session_epoch=0,
    )
    session.add(user)
    session.flush()
    audit.record(
        session,
        actor=actor,
        action="user_create",
        target_type="user",
        target_id=user.id,
        athlete_id=user.id if user.role == Role.ATHLETE else None,
        after=user_snapshot(user),
    )
    return user


def authenticate(session: Session, *, username: str, password: str) -> User:
    user = find_user(session, username)
    try:
        _hasher.verify(user.password_hash if user else _DUMMY_HASH, password)
    except (VerificationError, InvalidHashError):
        raise AuthenticationFailed(LOGIN_FAILED) from None
    if user is None:
        raise AuthenticationFailed(LOGIN_FAILED)
    if user.disabled:
        raise AuthenticationFailed("This account is disabled. Ask an admin to enable it.")
    if _hasher.check_needs_rehash(user.password_hash):
        user.password_hash = _hasher.hash(password)
    user.last_login_at = utcnow()
    _log_access(session, user, user.username, "login")
    return user


def record_failed_login(session: Session, *, username: str) -> None:
    """Called in its own unit of work: the failed attempt's transaction was rolled back."""
    _log_access(session, find_user(session, username), normalize_username(username)[:64], "login_failed")


def _log_access(session: Session, user: User | None, label: str, kind: str) -> None:
    session.add(
        AccessEvent(actor_id=user.id if user else None, actor_label=label, kind=kind, athlete_id=None, at=utcnow())
    )


def set_disabled(session: Session, actor: User | None, *, user_id: int, disabled: bool) -> User:
    admin = require_admin(actor)
    user = session.get(User, user_id)
    if user is None:
        raise NotFound("User not found.")
    if disabled and user.role == Role.ADMIN and _active_admins(session, excluding=user.id) == 0:
        raise InvalidInput("At least one active admin must remain.")
    before = user_snapshot(user)
    user.disabled = disabled
    if disabled:
        user.session_epoch += 1  # ends every open session of this user
    session.flush()
    audit.record(
        session,
        actor=admin,
        action="user_disable" if disabled else "user_enable",
        target_type="user",
        target_id=user.id,
        athlete_id=user.id if user.role == Role.ATHLETE else None,
        before=before,
        after=user_snapshot(user),
    )
    return user


def _active_admins(session: Session, *, excluding: int) -> int:
    return (
        session.scalar(
            select(func.count())
            .select_from(User)
            .where(User.role == Role.ADMIN, User.disabled.is_(False), User.id != excluding)
        )
        or 0
    )


def get_user(session: Session, user_id: int) -> User | None:
    return session.get(User, user_id)
