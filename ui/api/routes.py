"""The coach's routes under /api/v1. Their database work runs in worker threads, never on the event
loop that serves the pages: a plain `def` route runs in FastAPI's thread pool; the context route, the
one a coach calls on every message, in CONTEXT_THREADS threads of its own (ui.api.workers). A request
is one unit of work (the token checked in it, then the work); reads are recorded by ui.api.read_log,
just behind the answer. Answers are serialised once, straight to JSON (`response_model` documents
them): by pydantic, and the context answer, the hot one, by `context_body`."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query, Request, Response
from fastapi.security import HTTPAuthorizationCredentials
from nicegui import app
from pydantic import BaseModel
from sqlalchemy.exc import DBAPIError, IntegrityError

from domain.api_tokens import Caller
from domain.coach_block import DEFAULT_MAX_TOKENS
from domain.coach_context import (
    UNKNOWN_ATHLETE,
    AthleteRef,
    ContextAnswer,
    athlete_by_username,
    caller_and_athlete,
    coach_memories,
    context_for,
)
from domain.coach_ingest import IngestAnswer, ingest_for_token
from domain.coach_reads import PendingRead
from domain.enums import ApiScope
from domain.errors import NotFound
from domain.types import utcnow
from ui.api.errors import ApiRoute, documented, error_response
from ui.api.export_route import export_router
from ui.api.read_log import READ_LOG
from ui.api.schemas import (
    MAX_OFFSET,
    MAX_QUERY,
    MAX_SEARCH,
    MAX_TOKENS_LIMIT,
    USERNAME,
    ContextResponse,
    IngestRequest,
    IngestResponse,
    MemoryList,
    MemoryOut,
    OneLine,
    OptionalType,
    ProposalOut,
    context_body,
)
from ui.api.security import Credentials, admit, bearer, reading_session, token_session
from ui.api.workers import Workers

INGEST_ERRORS = documented(401, 403, 404, 413, 422, 429, 503)
router = APIRouter(prefix="/api/v1", route_class=ApiRoute, tags=["coach"])
AthleteName = Annotated[str, Path(pattern=USERNAME, description="The athlete's login name (case-insensitive)")]


def json(model: BaseModel, status: int = 200) -> Response:
    return Response(model.model_dump_json(), status_code=status, media_type="application/json")


@router.post(
    "/ingest",
    status_code=201,
    response_model=IngestResponse,
    responses={200: {"model": IngestResponse, "description": "Sent before: the same proposals"}, **INGEST_ERRORS},
    summary="Send an activity note or a message in; get the proposals it made (scope: ingest)",
)
def post_ingest(body: IngestRequest, credentials: Credentials) -> Response:
    answer = _ingest(body, credentials)
    reply = IngestResponse(
        athlete=answer.athlete,
        kind=body.kind,
        reference=body.reference,
        created=answer.created,
        proposals=[ProposalOut.of(p) for p in answer.proposals],
    )
    return json(reply, 201 if answer.created else 200)


def _ingest(body: IngestRequest, credentials: Credentials) -> IngestAnswer:
    """Two identical sends at once: one stores the text, the other (after a unique-key clash) finds it."""
    for attempt in (1, 2):
        try:
            with token_session(credentials, ApiScope.INGEST, writes=True) as (session, caller):
                return ingest_for_token(
                    session, caller, username=body.athlete, kind=body.kind, reference=body.reference, text=body.text
                )
        except IntegrityError:
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


@router.get(
    "/athletes/{username}/memories",
    response_model=MemoryList,
    responses=documented(401, 403, 404, 422, 429, 503),
    summary="Active memories the coach may see, newest first (scope: read)",
)
def get_memories(
    username: AthleteName,
    credentials: Credentials,
    memory_type: Annotated[OptionalType, Query(alias="type", description="Only this memory type")] = None,
    q: Annotated[OneLine, Query(max_length=MAX_SEARCH, description="Words the content contains")] = "",
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0,
) -> Response:
    with token_session(credentials, ApiScope.READ) as (session, caller):
        athlete = athlete_by_username(session, username)
        types = [memory_type] if memory_type else ()
        page = coach_memories(session, athlete, types=types, text=q, limit=limit, offset=offset)
        items = [MemoryOut.of(m) for m in page.items]
    READ_LOG.add(PendingRead(caller, athlete.id, "memories", tuple(m.id for m in items), utcnow(), query=q))
    return json(MemoryList(athlete=athlete.username, total=page.total, limit=limit, offset=offset, items=items))


@router.get(
    "/athletes/{username}/context",
    response_model=ContextResponse,
    responses=documented(401, 403, 404, 422, 429, 503),
    summary="The relevant memories and the compact MEMORY: block for a prompt (scope: read)",
    openapi_extra={"security": [{bearer.scheme_name: []}]},
    description=(
        "Scoring as in the M13 seed §5.5 (word overlap ×2, tag entity in the query +5, confidence high +3 / "
        "medium +1, updated <7 days +2 / <30 days +1; only scores above 0). Block as in the Josi seed: "
        "`MEMORY:` then `- Facts:` (injury history, preferences, context; at most 15), `- Patterns:` "
        "(insights; 5), `- Notes:` (training responses; 5), items joined by ` | `, highest value first. "
        "**Tokens are counted as ceil(characters / 4)** of the whole block (Unicode code points); the block "
        "never passes `max_tokens`. Ties break by confidence, occurrences, newest update, lowest id: the same "
        "data gives the same block. Every call is recorded for the athlete to see."
    ),
)
async def get_context(
    request: Request,
    username: AthleteName,
    query: Annotated[OneLine, Query(max_length=MAX_QUERY, description="What the coach is about to answer")] = "",
    max_tokens: Annotated[int, Query(ge=1, le=MAX_TOKENS_LIMIT)] = DEFAULT_MAX_TOKENS,
) -> Response:
    # The token read by `bearer` itself, not as a dependency: FastAPI's resolution of one costs the event loop
    # about as much as the rest of the route's parameters (py-spy, issue 9). The OpenAPI entry says the same.
    credentials = await bearer(request)
    return await CONTEXT_WORKERS.run(lambda: context_answer(username, credentials, query, max_tokens))


# A context answer is about a millisecond of Python (issue 9): twenty of them in twenty threads only take
# turns at the interpreter lock, each switch costing time, and the last to get it sets the p95. In a few
# threads the others wait in line instead (bench_api at 20 clients, 3 threads against 40: p95 34-51 ms
# against 44-69, requests/s 589-713 against 484-667, server CPU per request 1.4-1.6 ms against 1.5-2.6).
CONTEXT_THREADS = 4
CONTEXT_WORKERS = Workers(CONTEXT_THREADS, "coach-context")


def context_answer(
    username: str, credentials: HTTPAuthorizationCredentials | None, query: str, max_tokens: int
) -> Response:
    """The context route's work, in a worker thread; also the short way's (ui.api.context_fast). It reads
    on the thread's held connection (ui.api.security.HeldConnections); when that one turns out dead (the
    database restarted), once more on a fresh one from the pool."""
    try:
        caller, athlete, answer = _read_context(username, credentials, query, max_tokens, held=True)
    except DBAPIError as error:
        if not error.connection_invalidated:
            raise
        caller, athlete, answer = _read_context(username, credentials, query, max_tokens, held=False)
    block = answer.block
    ids = tuple(item.candidate.id for item in block.items)
    READ_LOG.add(PendingRead(caller, athlete.id, "context", ids, utcnow(), query, max_tokens, block.text))
    body = context_body(
        athlete=athlete.username,
        query=query,
        max_tokens=max_tokens,
        tokens=block.tokens,
        block=block.text,
        items=block.items,
        considered=answer.considered,
    )
    return Response(body, media_type="application/json")


def _read_context(
    username: str, credentials: HTTPAuthorizationCredentials | None, query: str, max_tokens: int, *, held: bool
) -> tuple[Caller, AthleteRef, ContextAnswer]:
    """The token and the athlete are read in one statement (caller_and_athlete), and refused in the order of
    every route: token (401), rate limit (429), scope (403), then the athlete (404)."""
    with reading_session(credentials, held=held) as (session, secret):
        caller, athlete = caller_and_athlete(session, secret, username)
        admit(caller, ApiScope.READ)
        if athlete is None:
            raise NotFound(UNKNOWN_ATHLETE)
        return caller, athlete, context_for(session, athlete, query=query, max_tokens=max_tokens)


router.include_router(export_router)  # before the catch-all below (ui.api.export_route)


@router.api_route("/{rest:path}", methods=["GET", "POST", "PUT", "PATCH", "DELETE"], include_in_schema=False)
def no_such_route(rest: str, credentials: Credentials) -> Response:
    with token_session(credentials, None):
        return error_response(404, f"No API route /api/v1/{rest[:100]}.")


app.include_router(router)
