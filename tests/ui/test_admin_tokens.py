"""Admin tab "Tokens" in NiceGUI's User fixture: create a token (its secret shown once), revoke it."""

from __future__ import annotations

from nicegui import ui
from nicegui.testing import User

from domain.api_tokens import authenticate
from domain.errors import AuthenticationFailed
from persistence.engine import make_engine
from persistence.uow import unit_of_work
from tests.ui.admin_helpers import shows_error_at
from tests.ui.conftest import log_in
from tests.ui.context_support import eventually


def can_authenticate(database_url: str, secret: str) -> bool:
    engine = make_engine(database_url)
    try:
        with unit_of_work(engine, read_only=True) as session:
            authenticate(session, secret)
        return True
    except AuthenticationFailed:
        return False
    finally:
        engine.dispose()


async def open_tokens(user: User) -> None:
    await log_in(user, "admin")
    await user.should_see("Admin console")
    user.find(kind=ui.tab, content="Tokens").click()
    await user.should_see("No tokens yet.")


async def test_create_shows_the_secret_once_and_revoke_ends_it(user: User, app_database: str) -> None:
    await open_tokens(user)
    user.find("Token name").type("coach-prod")
    user.find(marker="token-create").click()
    await user.should_see(marker="token-secret")
    with user.scope(marker="token-secret"):
        await user.should_see("it is not shown again")
    field = next(e for e in user.find(marker="token-secret-value").elements if isinstance(e, ui.input))
    secret = str(field.value)
    assert secret.startswith("mr_")
    assert can_authenticate(app_database, secret)
    with user.scope(marker="token-secret"):
        user.find("Done").click()
    await user.should_see(marker="token-coach-prod")
    with user.scope(marker="token-coach-prod"):
        await user.should_see("Scopes: read")
        user.find("Revoke").click()
    await user.should_see(marker="revoke-dialog")
    with user.scope(marker="revoke-dialog"):
        user.find(marker="revoke-confirm").click()
    await eventually(lambda: not can_authenticate(app_database, secret))
    await user.should_see("Token 'coach-prod' revoked.")


async def test_a_bad_name_is_refused_with_a_message(user: User) -> None:
    await open_tokens(user)
    user.find("Token name").type("no spaces allowed")
    user.find(marker="token-create").click()
    await shows_error_at(user, "Token name", "Name: 1–64 characters")
    assert not user.notify.messages  # at the field, not as a toast
