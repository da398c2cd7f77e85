"""Who acts, and the permission checks every service starts with.

An actor is a logged-in `User` or a `SystemActor`: the application itself (the CLI, the demo
loader, the hourly expiry, retention, the coaching system sending text in). The system passes
only the check that names it, `require_admin_or_system`; every other check refuses it. No
check takes a missing actor (None) as allowed.
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.errors import PermissionDenied
from domain.models import User

SYSTEM_LABEL = "system"


@dataclass(frozen=True)
class SystemActor:
    """The application acting on its own; `label` names the part (audit events show it)."""

    label: str = SYSTEM_LABEL


@dataclass(frozen=True)
class TokenActor(SystemActor):
    """The coaching system calling with one API token; audit events name the token.

    It is an actor kind of its own: no permission check admits it (routes check its scopes),
    not even `require_admin_or_system`.
    """

    token_id: int = 0
    token_name: str = ""


def token_actor(token_id: int, name: str) -> TokenActor:
    return TokenActor(label=f"token:{name}", token_id=token_id, token_name=name)


SYSTEM = SystemActor()
Actor = User | SystemActor


def require_login(actor: Actor | None) -> User:
    if actor is None:
        raise PermissionDenied("Log in to do that.")
    if isinstance(actor, SystemActor):
        raise PermissionDenied("Only a logged-in user can do that.")
    if actor.disabled:
        raise PermissionDenied("This account is disabled.")
    return actor


def require_admin(actor: Actor | None) -> User:
    user = require_login(actor)
    if not user.is_admin:
        raise PermissionDenied("Only an admin can do that.")
    return user


def require_athlete(actor: Actor | None) -> User:
    user = require_login(actor)
    if user.is_admin:
        raise PermissionDenied("Admins do not change an athlete's memories.")
    return user


def require_admin_or_system(actor: Actor | None) -> Actor:
    """For what an admin may do and the system does on its own: accounts, retention."""
    if isinstance(actor, TokenActor):
        raise PermissionDenied("An API token cannot do that.")
    if isinstance(actor, SystemActor):
        return actor
    return require_admin(actor)


def actor_identity(actor: Actor) -> tuple[int | None, str]:
    """(user id, label) as events record them: a user by id and username, the system by its label."""
    if isinstance(actor, User):
        return actor.id, actor.username
    if isinstance(actor, SystemActor):
        return None, actor.label
    raise TypeError(f"an event needs a User or SystemActor as its actor, not {actor!r}")
