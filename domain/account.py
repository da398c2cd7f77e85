"""What a user does to their own account: change their password."""

from __future__ import annotations

from sqlalchemy.orm import Session

from domain.actors import require_login
from domain.enums import AuditAction
from domain.errors import InvalidInput
from domain.models import User
from domain.passwords import matches
from domain.users import replace_password

WRONG_CURRENT = "Current password: that is not your password."
SAME_AS_BEFORE = "New password: choose one you have not been using."


def change_own_password(session: Session, actor: User | None, *, current: str, new: str) -> User:
    """Check the current password, set the new one and end the user's other sessions (the epoch moves
    on; the caller logs this browser in again with the new epoch). Slow by design: argon2 twice."""
    user = require_login(actor)
    stored = session.get(User, user.id)
    if stored is None or not matches(stored.password_hash, current):
        raise InvalidInput(WRONG_CURRENT, field="current")
    if new == current:
        raise InvalidInput(SAME_AS_BEFORE, field="password")
    return replace_password(session, stored, stored, new, action=AuditAction.USER_PASSWORD_CHANGE)
