"""The context route's short way through the server: the one request a coach makes on every message.

It sits outermost in the app's stack (`ui.api.setup.with_context_lane`). A GET of
/api/v1/athletes/{name}/context whose parameters are plainly valid, with a bearer token and no body
(everything the gate would let in as it is), is answered there by the same work as the FastAPI route
(`ui.api.routes.context_answer`, in the same worker threads) and the same error answers
(`ui.api.errors.api_error`), shaped by what shapes every API answer: the security headers and gzip,
the same middlewares built around it. Everything else, an odd or invalid parameter or a missing token
included, goes on through the whole stack, which answers or refuses it as it always has.

Why (issue 9): first py-spy on the event loop, 20 clients: FastAPI's routing, its request object and
its parameter resolution were about half of the loop's time for a context request; then the layers
between the app and the router (the page-or-API switch, the static cache, FastAPI's error, telemetry
and body-limit layers, the gate, the exception layers): skipping them took the loop's CPU per context
request from 0.125-0.142 to 0.095-0.114 ms.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import parse_qsl

from fastapi.security import HTTPAuthorizationCredentials
from fastapi.security.utils import get_authorization_scheme_param
from starlette.types import ASGIApp, Receive, Scope, Send

from domain.coach_block import DEFAULT_MAX_TOKENS
from ui.api.errors import api_error
from ui.api.routes import CONTEXT_WORKERS, context_answer
from ui.api.schemas import MAX_QUERY, MAX_TOKENS_LIMIT, USERNAME, one_line

# The route's path with a name its pattern takes (routes.AthleteName: USERNAME without its anchors).
CONTEXT_PATH = re.compile(r"/api/v1/athletes/(" + USERNAME.removeprefix("^").removesuffix("$") + r")/context")
PLAIN_NUMBER = re.compile(r"[1-9][0-9]{0,3}")
LANE_ASK = "memory_review.context_ask"  # the scope key the lane hands the parsed request on in
BODY_HEADERS = (b"content-length", b"transfer-encoding")


@dataclass(frozen=True)
class ContextAsk:
    username: str
    query: str
    max_tokens: int
    credentials: HTTPAuthorizationCredentials | None


def plain_ask(scope: Scope) -> ContextAsk | None:
    """The request as the route's parameters, when FastAPI would take them as they are; None when it
    might answer otherwise (a refusal, a redirect, a repeated or unknown parameter): the router decides."""
    if scope["type"] != "http" or scope["method"] != "GET" or scope.get("root_path"):
        return None
    path = CONTEXT_PATH.fullmatch(scope["path"])
    if path is None:
        return None
    query, max_tokens = "", DEFAULT_MAX_TOKENS
    seen: set[str] = set()
    # as Starlette reads a query string (QueryParams)
    for key, value in parse_qsl(scope["query_string"].decode("latin-1"), keep_blank_values=True):
        if key in seen:
            return None
        seen.add(key)
        if key == "query":
            if len(value) > MAX_QUERY:
                return None
            try:
                query = one_line(value)
            except ValueError:
                return None
        elif key == "max_tokens" and PLAIN_NUMBER.fullmatch(value) and int(value) <= MAX_TOKENS_LIMIT:
            max_tokens = int(value)
        else:
            return None
    return ContextAsk(path[1], query, max_tokens, _bearer(scope))


def _bearer(scope: Scope) -> HTTPAuthorizationCredentials | None:
    """As `HTTPBearer(auto_error=False)` reads the first Authorization header."""
    authorization = next((v.decode("latin-1") for k, v in scope["headers"] if k == b"authorization"), None)
    scheme, credentials = get_authorization_scheme_param(authorization)
    if not (authorization and scheme and credentials) or scheme.lower() != "bearer":
        return None
    return HTTPAuthorizationCredentials(scheme=scheme, credentials=credentials)


def lane_ask(scope: Scope) -> ContextAsk | None:
    """`plain_ask`, for a request the gate would let through untouched: a bearer token, no body."""
    ask = plain_ask(scope)
    if ask is None or ask.credentials is None:
        return None  # the gate's 401
    if any(name in BODY_HEADERS for name, _ in scope["headers"]):
        return None  # the gate reads or refuses a body
    return ask


async def answer_context(scope: Scope, receive: Receive, send: Send) -> None:
    """The route's answer to the request `lane_ask` read (in the scope under LANE_ASK)."""
    ask: ContextAsk = scope[LANE_ASK]
    try:
        response = await CONTEXT_WORKERS.run(
            lambda: context_answer(ask.username, ask.credentials, ask.query, ask.max_tokens)
        )
    except Exception as exc:
        answer = api_error(exc, f"GET {scope['path']}")
        if answer is None:
            raise  # as through the whole stack: the server logs it and answers 500
        response = answer
    await response(scope, receive, send)


class ContextLane:
    """Outermost: a plain context request to `answer` (answer_context in the API answers' shaping
    middlewares), everything else to `app`, the whole stack."""

    def __init__(self, app: ASGIApp, answer: ASGIApp) -> None:
        self.app = app
        self.answer = answer

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        ask = lane_ask(scope) if scope["type"] == "http" else None
        if ask is None:
            await self.app(scope, receive, send)
            return
        scope[LANE_ASK] = ask
        await self.answer(scope, receive, send)
