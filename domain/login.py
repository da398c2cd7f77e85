"""Logging in, in two steps, so the slow password check never holds the write lock.

1. `check_credentials` runs in a read-only unit of work: it finds the account and verifies the
   password with argon2 (about 0.6 s), and computes a new hash if the parameters changed.
   An unknown username is verified against a dummy hash, so both failures cost the same.
2. `record_login` runs in a short write: last login time, the new hash if any, the access
   event. It refuses if the account changed in between (disabled, password reset).

A refused attempt is recorded by `record_failed_login`, in its own short write.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.orm import Session

from domain.enums import AccessKind
from domain.errors import AuthenticationFailed
from domain.models import AccessEvent, User
from domain.passwords import hash_password, matches, needs_rehash
from domain.types import utcnow
from domain.users import find_user, normalize_username

LOGIN_FAILED = "Wrong username or password."
ACCOUNT_DISABLED = "This account is disabled. Ask an admin to enable it."
MAX_LABEL = 64
# Verified against when the username is unknown, so both failures cost the same time.
_DUMMY_HASH = hash_password("memory-review-timing-guard")


@dataclass(frozen=True)
class VerifiedLogin:
    """A password that matched: which account, the hash it matched, and a newer hash if due."""

    user_id: int
    verified_hash: str
    new_hash: str | None = None


def check_credentials(session: Session, *, username: str, password: str) -> VerifiedLogin:
    """The slow step; reads only. Raises AuthenticationFailed with the message to show."""
    user = find_user(session, username)
    if not matches(user.password_hash if user else _DUMMY_HASH, password) or user is None:
        raise AuthenticationFailed(LOGIN_FAILED)
    if user.disabled:
        raise AuthenticationFailed(ACCOUNT_DISABLED)
    new_hash = hash_password(password) if needs_rehash(user.password_hash) else None
    return VerifiedLogin(user.id, user.password_hash, new_hash)


def record_login(session: Session, verified: VerifiedLogin) -> User:
    """The short write after a successful check; the user as logged in (with its session epoch)."""
    user = session.get(User, verified.user_id)
    if user is None or user.password_hash != verified.verified_hash:
        raise AuthenticationFailed(LOGIN_FAILED)  # removed, or the password was reset meanwhile
    if user.disabled:
        raise AuthenticationFailed(ACCOUNT_DISABLED)
    if verified.new_hash is not None:
        user.password_hash = verified.new_hash
    user.last_login_at = utcnow()
    _log_access(session, user, user.username, AccessKind.LOGIN)
    return user


def record_failed_login(session: Session, *, username: str) -> None:
    """Called in its own unit of work after a refused attempt."""
    _log_access(
        session, find_user(session, username), normalize_username(username)[:MAX_LABEL], AccessKind.LOGIN_FAILED
    )


def _log_access(session: Session, user: User | None, label: str, kind: AccessKind) -> None:
    session.add(
        AccessEvent(actor_id=user.id if user else None, actor_label=label, kind=kind, athlete_id=None, at=utcnow())
    )
