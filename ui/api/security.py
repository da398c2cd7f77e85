"""Who is calling: the bearer token, checked in the request's unit of work; its rate limit; its scopes.

Order of refusals: no or bad or revoked token → 401; over the token's rate limit → 429 with
Retry-After; token without the route's scope → 403.
"""

from __future__ import annotations

import math
import threading
import time
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated

from fastapi import Depends, HTTPException
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from limits import RateLimitItem, parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from sqlalchemy import Connection, Engine
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from domain.api_tokens import Caller, authenticate
from domain.enums import ApiScope
from persistence.uow import unit_of_work
from ui import runtime
from ui.api.errors import BEARER_CHALLENGE

bearer = HTTPBearer(auto_error=False, description="An API token from `memory-review token create` (shown once).")


def seconds_until_room(limiter: MovingWindowRateLimiter, item: RateLimitItem, namespace: str, key: str) -> int:
    """Whole seconds until the moving window of `item` for `key` has room again (at least 1)."""
    reset_at = limiter.get_window_stats(item, namespace, key).reset_time
    return max(1, math.ceil(reset_at - time.time()))


class TokenWindow:
    """A moving window per key: at most `amount` hits in any `seconds`; no threads, O(1) per hit.

    The `limits` library's in-memory storage starts a timer thread on a hit whenever its last one
    (10 ms) has ended, so at API rates about one thread per request, and it inserts each hit at the
    front of a list as long as the window is full (a copy of up to `amount` entries per hit)."""

    def __init__(self, amount: int, seconds: float) -> None:
        self.amount = amount
        self.seconds = seconds
        self._hits: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def hit(self, key: str) -> float:
        """0 if this hit fits in the window (and is counted); else the seconds until one would."""
        now = time.monotonic()
        with self._lock:
            hits = self._hits.get(key)
            if hits is None:
                hits = self._hits[key] = deque()
            horizon = now - self.seconds
            while hits and hits[0] <= horizon:
                hits.popleft()
            if len(hits) < self.amount:
                hits.append(now)
                return 0.0
            return hits[0] - horizon


class RateLimit:
    """A moving-window limit per token, kept in this process's memory (`TokenWindow`).

    Its `limiter` (the `limits` library) is the process's limiter for the login throttle (ui.auth),
    which keeps its counts in it under its own namespaces."""

    def __init__(self, rule: str) -> None:
        self.rule = rule
        self.item: RateLimitItem = parse(rule)
        self.window = TokenWindow(self.item.amount, self.item.get_expiry())
        self.limiter = MovingWindowRateLimiter(MemoryStorage())

    def check(self, token_id: int) -> None:
        wait = self.window.hit(str(token_id))
        if wait <= 0:
            return
        retry = str(max(1, math.ceil(wait)))
        raise HTTPException(429, f"Too many requests for this token (limit {self.rule}).", {"Retry-After": retry})


_limit: RateLimit | None = None


def configure_rate_limit(rule: str) -> None:
    """Set when the server starts; a rule `limits` cannot read stops the start with its message."""
    global _limit
    _limit = RateLimit(rule)


def rate_limit() -> RateLimit:
    if _limit is None:
        raise RuntimeError("the API rate limit is not configured; start the app with `memory-review serve`")
    return _limit


def limiter() -> MovingWindowRateLimiter:
    """The process's one rate limiter (set up with the API's limit when the server starts)."""
    return rate_limit().limiter


Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]


_READER = "_memory_review_api_reader"


def _reader(engine: Engine) -> Engine:
    """The engine the context route reads through (held connections). PostgreSQL: in autocommit, each
    statement its own snapshot: no BEGIN and no ROLLBACK, two round trips of the five a context request
    made (issue 9). Its reads need no common snapshot: the token, the athlete and their change stamp are
    each checked on their own, and memories read after the stamp are at least as new as it
    (domain.coach_index). Other routes keep one transaction (a list's total and its page agree).
    SQLite: the engine as it is (its reads begin with a deferred BEGIN, which costs no round trip).
    Made once per engine and kept on it, as persistence.uow keeps its writers' engine."""
    reader: Engine | None = getattr(engine, _READER, None)
    if reader is None:
        postgresql = engine.dialect.name == "postgresql"
        reader = engine.execution_options(isolation_level="AUTOCOMMIT") if postgresql else engine
        setattr(engine, _READER, reader)
    return reader


class HeldConnections:
    """A reading connection per thread, and a session bound to it, kept from one request to the next: for
    the context route's few worker threads only (ui.api.routes), never FastAPI's pool of up to 40, which
    would outnumber the engine's pool. A connection taken from the pool is first pinged on PostgreSQL
    (pool_pre_ping): one round trip of the three a context request now makes. The session is closed at
    the end of each request (its transaction ends, it forgets every object) and used again by the next:
    making one per request was half the cost of its unit of work (issue 9: 32 -> 18 us). A held
    connection that failed in a request is closed and the next request takes a new one from the pool."""

    def __init__(self) -> None:
        self._local = threading.local()

    def session(self, reader: Engine) -> Session:
        held: Session | None = getattr(self._local, "session", None)
        if held is not None and isinstance(held.bind, Connection) and _usable(held.bind, reader):
            return held
        self.drop()
        fresh = self._local.session = Session(bind=reader.connect(), expire_on_commit=False, autoflush=True)
        return fresh

    def drop(self) -> None:
        held: Session | None = getattr(self._local, "session", None)
        self._local.session = None
        if held is not None:
            held.close()
            if isinstance(held.bind, Connection):
                held.bind.close()


def _usable(connection: Connection, reader: Engine) -> bool:
    return connection.engine is reader and not connection.closed and not connection.invalidated


HELD = HeldConnections()


@contextmanager
def token_session(
    credentials: HTTPAuthorizationCredentials | None,
    scope: ApiScope | None,
    *,
    writes: bool = False,
    held: bool = False,
) -> Iterator[tuple[Session, Caller]]:
    """One unit of work for the whole request: the token is checked in it, then the route's work
    runs in it. Call it from a plain `def` route (a worker thread); `scope` None admits any token.
    `held`: a read on this thread's held connection (`HeldConnections`; the context route's threads)."""
    secret = bearer_secret(credentials)
    engine = runtime.current().engine
    if held and not writes:
        with _held_unit(_reader(engine)) as session:
            yield session, admit(authenticate(session, secret), scope)
        return
    with unit_of_work(engine, read_only=not writes) as session:
        yield session, admit(authenticate(session, secret), scope)


@contextmanager
def reading_session(credentials: HTTPAuthorizationCredentials | None, *, held: bool) -> Iterator[tuple[Session, str]]:
    """`token_session(scope, held=held)` for a route that reads the token itself, with what it reads in the
    same statement (the context route: domain.coach_context.caller_and_athlete), and then `admit`s it:
    a read-only unit of work and the bearer's secret (401 without one, before any database work)."""
    secret = bearer_secret(credentials)
    engine = runtime.current().engine
    with _held_unit(_reader(engine)) if held else unit_of_work(engine, read_only=True) as session:
        yield session, secret


def bearer_secret(credentials: HTTPAuthorizationCredentials | None) -> str:
    if credentials is None or credentials.scheme.lower() != "bearer":
        raise HTTPException(401, "Send an API token: Authorization: Bearer <token>.", BEARER_CHALLENGE)
    return credentials.credentials.strip()


def admit(caller: Caller, scope: ApiScope | None) -> Caller:
    """An authenticated caller past its rate limit (429) and with the route's scope (403), in that order."""
    rate_limit().check(caller.token_id)
    if scope is not None and scope not in caller.scopes:
        raise HTTPException(403, f"This token lacks the '{scope.value}' scope.")
    return caller


@contextmanager
def _held_unit(reader: Engine) -> Iterator[Session]:
    """A read-only unit of work on this thread's held session: its transaction (SQLite's deferred BEGIN;
    none on PostgreSQL, in autocommit) ends with the unit, the connection stays. A database error drops it."""
    session = HELD.session(reader)
    try:
        yield session
    except SQLAlchemyError:
        HELD.drop()
        raise
    finally:
        session.close()
