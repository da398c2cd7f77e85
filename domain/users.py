"""User accounts: creation, roles, disabling, password resets, the admin's list. Logging in: domain.login."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from sqlalchemy import bindparam, func, or_, select
from sqlalchemy.orm import Session
from sqlalchemy.orm.instrumentation import manager_of_class
from sqlalchemy.orm.util import identity_key

from domain import audit
from domain.access_log import record_admin_view
from domain.actors import Actor, require_admin, require_admin_or_system
from domain.content import scrub_text
from domain.enums import AccessKind, AuditAction, AuditTarget, Role
from domain.errors import InvalidInput, NotFound
from domain.memory_rows import RowReader, attached
from domain.models import User
from domain.paging import clamp_page, page_count
from domain.passwords import check_new_password, hash_password
from domain.schemas import clean_line

USERNAME_PATTERN = re.compile(r"^[a-z0-9][a-z0-9._-]{1,31}$")


def normalize_username(username: str) -> str:
    return unicodedata.normalize("NFC", username.strip().lower())


def account_name(username: str) -> str | None:
    """The name as an account would store it; None when no account can have it (no query needed, and
    PostgreSQL refuses a NUL in one)."""
    name = normalize_username(username)
    return name if USERNAME_PATTERN.match(name) else None


def find_user(session: Session, username: str) -> User | None:
    name = account_name(username)
    if name is None:
        return None
    return session.scalar(select(User).where(User.username == name))


def user_snapshot(user: User) -> dict[str, object]:
    return {
        "username": user.username,
        "display_name": user.display_name,
        "role": user.role.value,
        "disabled": user.disabled,
    }


def create_user(
    session: Session,
    actor: Actor | None,
    *,
    username: str,
    password: str,
    role: Role,
    display_name: str | None = None,
) -> User:
    """Create an account: an admin does, or the system (the CLI, the demo loader) as SYSTEM."""
    creator = require_admin_or_system(actor)
    name = normalize_username(username)
    if not USERNAME_PATTERN.match(name):
        raise InvalidInput(
            "Username: 2–32 characters, letters, digits, '.', '_' or '-', starting with a letter or digit.",
            field="username",
        )
    check_new_password(password)
    shown_name = clean_line(display_name, label="Display name", field="display_name", limit=120) or name.capitalize()
    if find_user(session, name) is not None:
        raise InvalidInput(f"Username: '{name}' is taken.", field="username")
    user = User(
        username=name,
        display_name=shown_name,
        role=Role(role),
        password_hash=hash_password(password),
        disabled=False,
        session_epoch=0,
    )
    session.add(user)
    session.flush()
    audit.record(
        session,
        actor=creator,
        action=AuditAction.USER_CREATE,
        target_type=AuditTarget.USER,
        target_id=user.id,
        athlete_id=user.id if user.role == Role.ATHLETE else None,
        after=user_snapshot(user),
    )
    return user


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
        action=AuditAction.USER_DISABLE if disabled else AuditAction.USER_ENABLE,
        target_type=AuditTarget.USER,
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


_USER_BY_ID = RowReader(select(*User.__table__.columns).where(User.id == bindparam("user_id")))
NEW_USER = manager_of_class(User).new_instance  # an instance without its constructor


def get_user(session: Session, user_id: int) -> User | None:
    """`session.get(User, user_id)` with a statement compiled once: every page open and every page
    action reads its user (about a quarter of a millisecond of the ORM's work each time, issue 9)."""
    held = session.identity_map.get(identity_key(User, user_id))
    if held is not None:
        return session.get(User, user_id)  # what the session holds (refreshed if it was expired)
    row = _USER_BY_ID.one(session.connection(), {"user_id": user_id})  # no autoflush, as session.get
    return None if row is None else attached(session, NEW_USER(), row)


def reset_password(session: Session, actor: User | None, *, user_id: int, new_password: str) -> User:
    """Set a new password and end every open session of that user."""
    admin = require_admin(actor)
    user = _user_or_404(session, user_id)
    return replace_password(session, admin, user, new_password, action=AuditAction.USER_PASSWORD_RESET)


def replace_password(session: Session, actor: User, user: User, new_password: str, *, action: AuditAction) -> User:
    """The one way a password changes (a reset, or the user's own change): the rules, the hash,
    every open session of the user ended, and the audit event (never the password or its hash)."""
    check_new_password(new_password)
    user.password_hash = hash_password(new_password)
    user.session_epoch += 1
    session.flush()
    audit.record(
        session,
        actor=actor,
        action=action,
        target_type=AuditTarget.USER,
        target_id=user.id,
        athlete_id=_athlete_of(user),
        after=user_snapshot(user),
    )
    return user


def change_role(session: Session, actor: User | None, *, user_id: int, role: Role) -> User:
    """Promote or demote; the last active admin cannot be demoted. Sessions end, so rights follow."""
    admin = require_admin(actor)
    user = _user_or_404(session, user_id)
    role = Role(role)
    if user.role == role:
        return user
    if user.role == Role.ADMIN and not user.disabled and _active_admins(session, excluding=user.id) == 0:
        raise InvalidInput("At least one active admin must remain.")
    before = user_snapshot(user)
    user.role = role
    user.session_epoch += 1
    session.flush()
    audit.record(
        session,
        actor=admin,
        action=AuditAction.USER_ROLE,
        target_type=AuditTarget.USER,
        target_id=user.id,
        athlete_id=user.id,
        before=before,
        after=user_snapshot(user),
    )
    return user


def _user_or_404(session: Session, user_id: int) -> User:
    user = session.get(User, user_id)
    if user is None:
        raise NotFound("User not found.")
    return user


def _athlete_of(user: User) -> int | None:
    return user.id if user.role == Role.ATHLETE else None


@dataclass(frozen=True)
class UserPage:
    users: list[User]
    total: int
    page: int
    page_size: int

    @property
    def pages(self) -> int:
        return page_count(self.total, self.page_size)


def list_users(
    session: Session,
    actor: User | None,
    *,
    text: str = "",
    role: Role | None = None,
    page: int = 1,
    page_size: int = 25,
) -> UserPage:
    """Accounts by username, with role, status and last login; one query per page."""
    admin = require_admin(actor)
    stmt = select(User)
    if role is not None:
        stmt = stmt.where(User.role == Role(role))
    words = scrub_text(text, multiline=False).strip()[:64]  # no character a driver cannot send
    if words:
        stmt = stmt.where(
            or_(User.username.icontains(words, autoescape=True), User.display_name.icontains(words, autoescape=True))
        )
    size = max(1, min(page_size, 100))
    total = session.scalar(select(func.count()).select_from(stmt.subquery())) or 0
    page = clamp_page(page, total, size)
    users = list(session.scalars(stmt.order_by(User.username).limit(size).offset((page - 1) * size)))
    record_admin_view(
        session,
        admin,
        kind=AccessKind.ADMIN_VIEW_USERS,
        athlete_ids=[_athlete_of(u) for u in users],
        detail=f"page {page}",
    )
    return UserPage(users=users, total=total, page=page, page_size=size)


def athlete_choices(session: Session, actor: User | None) -> dict[int, str]:
    """Every athlete's id → username, for filters (names only: not recorded as a view)."""
    require_admin(actor)
    rows = session.execute(select(User.id, User.username).where(User.role == Role.ATHLETE).order_by(User.username))
    return {row.id: row.username for row in rows}


def user_choices(session: Session, actor: User | None) -> dict[int, str]:
    """Every account's id → username, for the audit log's actor filter."""
    require_admin(actor)
    return {row.id: row.username for row in session.execute(select(User.id, User.username).order_by(User.username))}
