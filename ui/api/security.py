"""Who is calling: the bearer token, checked in the request's unit of work; its rate limit; its scopes.

Order of refusals: no or bad or revoked token → 401; over the token's rate limit → 429 with
Retry-After; token without the route's scope → 403.
"""

from __future__ import annotations

import math
import time
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


class RateLimit:
    """A moving-window limit per token, kept in this process's memory (the `limits` library).

    Its `limiter` is the process's one limiter: the login throttle (ui.auth) keeps its counts in it
    too, under its own namespaces."""

    def __init__(self, rule: str) -> None:
        self.rule = rule
        self.item: RateLimitItem = parse(rule)
        self.limiter = MovingWindowRateLimiter(MemoryStorage())

    def check(self, token_id: int) -> None:
        key = str(token_id)
        if self.limiter.hit(self.item, "api-token", key):
            return
        wait = seconds_until_room(self.limiter, self.item, "api-token", key)
        raise HTTPException(429, f"Too many requests for this token (limit {self.rule}).", {"Retry-After": str(wait)})


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
