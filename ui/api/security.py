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


@contextmanager
def token_session(
    credentials: HTTPAuthorizationCredentials | None, scope: ApiScope | None, *, writes: bool = False
) -> Iterator[tuple[Session, Caller]]:
    """One unit of work for the whole request: the token is checked in it, then the route's work
    runs in it. Call it from a plain `def` route (a worker thread); `scope` None admits any token."""
    if credentials is None or credentials.scheme.lower() != "bearer":
        raise HTTPException(401, "Send an API token: Authorization: Bearer <token>.", BEARER_CHALLENGE)
    with unit_of_work(runtime.current().engine, read_only=not writes) as session:
        caller = authenticate(session, credentials.credentials.strip())
        rate_limit().check(caller.token_id)
        if scope is not None and scope not in caller.scopes:
            raise HTTPException(403, f"This token lacks the '{scope.value}' scope.")
        yield session, caller
