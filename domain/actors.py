"""Who acts, and the permission checks every service starts with."""

from __future__ import annotations

from domain.errors import PermissionDenied
from domain.models import User


def require_login(actor: User | None) -> User:
    if actor is None:
        raise PermissionDenied("Log in to do that.")
    if actor.disabled:
        raise PermissionDenied("This account is disabled.")
    return actor


def require_admin(actor: User | None) -> User:
    user = require_login(actor)
    if not user.is_admin:
        raise PermissionDenied("Only an admin can do that.")
    return user


def require_athlete(actor: User | None) -> User:
    user = require_login(actor)
    if user.is_admin:
        raise PermissionDenied("Admins do not change an athlete's memories.")
    return user
