"""The one way a page reaches the database: every action checks that the tab still belongs to
the user it was built for, then runs in one unit of work.

A tab is bound to its user by `bind_tab` when its page is built. An action from a tab whose
user logged out, was disabled, had the password reset, or was replaced by someone else
logging in on the same browser changes nothing, and the tab is sent to the login page.

`read` is for the short reads that build a page. Anything that may wait for a lock or take
longer than a few milliseconds (writes, searches, exports, a chain check) goes through
`write`, `attempt` or `in_thread`, which run the work in a worker thread so the event loop
keeps serving every other browser.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Generic, ParamSpec, TypeVar

from nicegui import Client, app, context, run, ui
from nicegui.slot import Slot
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from domain.errors import DomainError, PermissionDenied
from domain.models import User
from domain.users import get_user
from persistence.uow import in_transaction, unit_of_work
from ui import runtime
from ui.auth import PAGE_USER_KEY, log_out, logged_in_identity

T = TypeVar("T")
R = TypeVar("R")
P = ParamSpec("P")
Work = Callable[[Session, User], T]

SESSION_ENDED = "Your session has ended. Log in again."
DATABASE_TROUBLE = "The database did not answer in time, so nothing was changed. Please try again."


class SessionEnded(PermissionDenied):
    """The tab no longer belongs to a logged-in user it was built for."""

    def __init__(self, *, stale_login: bool) -> None:
        super().__init__(SESSION_ENDED)
        self.stale_login = stale_login


class DatabaseTrouble(DomainError):
    """A database failure that is not the user's doing (lock timeout, deadlock, lost connection)."""

    def __init__(self) -> None:
        super().__init__(DATABASE_TROUBLE)


@dataclass(frozen=True)
class TabOwner:
    """Who the tab was built for and who is logged in on its browser, read on the event loop
    (NiceGUI's storage is not reachable from a worker thread) and checked in the transaction."""

    page_user_id: object
    logged_in_id: int | None
    epoch: object

    def check(self, session: Session) -> User:
        if self.logged_in_id is None or self.logged_in_id != self.page_user_id:
            raise SessionEnded(stale_login=False)
        user = get_user(session, self.logged_in_id)
        if user is None or user.disabled or user.session_epoch != self.epoch:
            raise SessionEnded(stale_login=True)
        return user


@dataclass(frozen=True)
class Outcome(Generic[T]):
    """What `attempt` reports: whether the work was done and what it returned."""

    ok: bool
    value: T | None = None


_tab_client: ContextVar[Client | None] = ContextVar("tab_client", default=None)


def _client() -> Client:
    """The tab this action came from.

    An action often removes the element that started it (a confirmed proposal's card is
    refreshed away); what the action does after that (the next read, a notification) goes on
    in the page's layout instead of failing on a deleted element.
    """
    stack = Slot.get_stack()
    if not stack:
        return context.client
    try:
        client = stack[-1].parent.client
    except RuntimeError:
        remembered = _tab_client.get()
        if remembered is None:
            raise
        client = remembered
        stack.append(client.layout.default_slot)
    _tab_client.set(client)
    return client


def tab_action(handler: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
    """For handlers of elements a refresh may remove before the handler's task even starts (a
    card's or a bulk bar's buttons): the tab is noted while the element still exists."""

    @functools.wraps(handler)
    def noted(*args: P.args, **kwargs: P.kwargs) -> Awaitable[R]:
        client = context.client

        async def run() -> R:
            _tab_client.set(client)
            return await handler(*args, **kwargs)

        return run()

    return noted


def bind_tab(user: User) -> None:
    """Record whom this tab's page was built for; every later action is checked against it."""
    app.storage.client[PAGE_USER_KEY] = user.id


def _owner() -> TabOwner:
    page_user_id = _client().storage.get(PAGE_USER_KEY)
    logged_in_id, epoch = logged_in_identity()
    return TabOwner(page_user_id=page_user_id, logged_in_id=logged_in_id, epoch=epoch)


def _send_to_login(error: SessionEnded) -> None:
    if error.stale_login:
        log_out()
    ui.navigate.to("/login")


def _in_unit_of_work(owner: TabOwner, work: Work[T], *, read_only: bool) -> T:
    try:
        # A deadlock's victim runs again (persistence.uow.in_transaction).
        return in_transaction(runtime.current().engine, lambda s: work(s, owner.check(s)), read_only=read_only)
    except SQLAlchemyError as error:
        raise DatabaseTrouble() from error


def read(work: Work[T]) -> T:
    """A short read for building a page, on the event loop."""
    try:
        return _in_unit_of_work(_owner(), work, read_only=True)
    except SessionEnded as error:
        _send_to_login(error)
        raise


async def _off_loop(call: Callable[[], T]) -> T:
    boxed = await run.io_bound(lambda: (call(),))
    if boxed is None:  # NiceGUI cancelled it: the app is stopping
        raise asyncio.CancelledError
    return boxed[0]


async def in_thread(work: Work[T], *, writes: bool = False) -> T:
    """Run `work` in a worker thread (one transaction); domain errors propagate to the caller."""
    owner = _owner()
    try:
        return await _off_loop(lambda: _in_unit_of_work(owner, work, read_only=not writes))
    except SessionEnded as error:
        _send_to_login(error)
        raise


async def write(work: Work[T]) -> T:
    """Change something in one transaction; domain errors propagate for the caller to show."""
    return await in_thread(work, writes=True)


async def attempt(work: Work[T]) -> Outcome[T]:
    """Write; show a domain or database error as a notification and say whether it worked."""
    try:
        return Outcome(ok=True, value=await write(work))
    except DomainError as error:
        ui.notify(str(error), type="negative")
        return Outcome(ok=False)


async def logged_in_user() -> User | None:
    """Whoever is logged in on this browser (read in a worker thread); a stale login is ended."""
    logged_in_id, epoch = logged_in_identity()
    if logged_in_id is None:
        return None
    user = await as_visitor(lambda session: current_login(session, logged_in_id, epoch), read_only=True)
    if user is None:
        log_out()
    return user


def current_login(session: Session, logged_in_id: int, epoch: object) -> User | None:
    """The logged-in user, unless the login went stale: disabled, password reset, or the user is gone."""
    user = get_user(session, logged_in_id)
    if user is None or user.disabled or user.session_epoch != epoch:
        return None
    return user


async def as_visitor(work: Callable[[Session], T], *, read_only: bool = False) -> T:
    """Work done for someone not yet logged in (the login itself), in a worker thread.

    `read_only` work takes no write lock, so slow reads (the password check) never hold up writers.
    """

    def in_unit_of_work() -> T:
        try:
            with unit_of_work(runtime.current().engine, read_only=read_only) as session:
                return work(session)
        except SQLAlchemyError as error:
            raise DatabaseTrouble() from error

    return await _off_loop(in_unit_of_work)
