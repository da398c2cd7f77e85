"""Who may act: the system passes exactly the check that names it; nobody (None) passes none."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from domain.actors import (
    SYSTEM,
    Actor,
    SystemActor,
    actor_identity,
    require_admin,
    require_admin_or_system,
    require_athlete,
    require_login,
)
from domain.enums import Role
from domain.errors import PermissionDenied
from domain.models import User

Check = Callable[[Actor | None], Actor]


def person(role: Role, *, disabled: bool = False) -> User:
    """A transient user: never added to a session."""
    return User(id=7, username=role.value, display_name="X", role=role, password_hash="-", disabled=disabled)


ATHLETE, ADMIN = person(Role.ATHLETE), person(Role.ADMIN)
DISABLED_ADMIN = person(Role.ADMIN, disabled=True)
CHECKS: dict[str, Check] = {
    "login": require_login,
    "athlete": require_athlete,
    "admin": require_admin,
    "admin or system": require_admin_or_system,
}
# Which checks each actor passes; every other check refuses it.
PASSES: list[tuple[str, Actor | None, set[str]]] = [
    ("system", SYSTEM, {"admin or system"}),
    ("a named part of the system", SystemActor("demo"), {"admin or system"}),
    ("athlete", ATHLETE, {"login", "athlete"}),
    ("admin", ADMIN, {"login", "admin", "admin or system"}),
    ("disabled admin", DISABLED_ADMIN, set()),
    ("nobody", None, set()),
]


@pytest.mark.parametrize(("who", "actor", "passes"), PASSES, ids=[p[0] for p in PASSES])
@pytest.mark.parametrize("check", CHECKS)
def test_each_actor_passes_exactly_its_checks(who: str, actor: Actor | None, passes: set[str], check: str) -> None:
    if check in passes:
        assert CHECKS[check](actor) is actor
    else:
        with pytest.raises(PermissionDenied):
            CHECKS[check](actor)


def test_events_name_a_user_by_id_and_the_system_by_its_label() -> None:
    assert actor_identity(ATHLETE) == (7, "athlete")
    assert actor_identity(SYSTEM) == (None, "system")
    assert actor_identity(SystemActor("coaching-system")) == (None, "coaching-system")


def test_an_event_without_an_actor_is_refused() -> None:
    with pytest.raises(TypeError):
        actor_identity(None)  # type: ignore[arg-type]
