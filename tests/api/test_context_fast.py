"""The context route's short way (ui.api.context_fast, a lane in front of the whole middleware stack)
answers exactly as the FastAPI route does.

A request the short way does not take (here: one more, unknown, query parameter, which FastAPI
ignores) goes through the whole stack and the router; both answers must be the same bytes: status,
headers, body. What the lane leaves to the stack (no token, a body) is answered as it always was.
"""

from __future__ import annotations

from urllib.parse import urlencode

import httpx
import pytest
from starlette.types import Scope

from tests.api.conftest import ApiServer
from ui.api.context_fast import lane_ask, plain_ask
from ui.server import CONTENT_SECURITY_POLICY, SECURITY_HEADERS

TOKEN = "mr_" + "a" * 43


def scope(path: str = "/api/v1/athletes/Alex/context", query: str = "", **extra: object) -> Scope:
    headers = [(b"host", b"x"), (b"authorization", f"Bearer {TOKEN}".encode())]
    return {"type": "http", "method": "GET", "path": path, "query_string": query.encode(), "headers": headers, **extra}


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("", ("", 174)),
        ("query=my+knee+hurts", ("my knee hurts", 174)),
        ("query=Kn%C3%B6chel+%F0%9F%98%80&max_tokens=4000", ("Knöchel 😀", 4000)),
        ("max_tokens=1&query=", ("", 1)),
    ],
)
def test_a_plain_context_request_takes_the_short_way(query: str, expected: tuple[str, int]) -> None:
    ask = plain_ask(scope(query=query))
    assert ask is not None and (ask.username, ask.query, ask.max_tokens) == ("Alex", *expected)
    assert ask.credentials is not None and ask.credentials.credentials == TOKEN


@pytest.mark.parametrize(
    "odd",
    [
        {"query": "query=a&query=b"},  # repeated: FastAPI takes the last one
        {"query": "limit=3"},  # unknown: ignored by FastAPI, left to it
        {"query": "max_tokens=0"},
        {"query": "max_tokens=4001"},
        {"query": "max_tokens=017"},
        {"query": "max_tokens=+5"},
        {"query": "max_tokens=5.0"},
        {"query": "max_tokens="},
        {"query": "query=" + "a" * 1001},
        {"query": "query=tab%09here"},
        {"path": "/api/v1/athletes/a/context"},  # too short a name
        {"path": "/api/v1/athletes/Alex/context/"},
        {"path": "/api/v1/athletes/Al ex/context"},
        {"method": "HEAD"},
        {"method": "POST"},
        {"root_path": "/behind"},
    ],
)
def test_anything_odd_is_left_to_the_router(odd: dict[str, str]) -> None:
    assert plain_ask(scope(**odd)) is None


@pytest.mark.parametrize(
    ("headers", "reason"),
    [
        ([(b"host", b"x")], "no token: the gate's 401"),
        ([(b"host", b"x"), (b"authorization", b"Bearer ")], "no token: the gate's 401"),
        ([(b"host", b"x"), (b"authorization", f"Basic {TOKEN}".encode())], "no bearer token: the gate's 401"),
        ([*scope()["headers"], (b"content-length", b"3")], "a body: the gate reads or refuses it"),
        ([*scope()["headers"], (b"transfer-encoding", b"chunked")], "a body: the gate reads or refuses it"),
    ],
)
def test_the_lane_leaves_to_the_gate_what_the_gate_decides(headers: list[tuple[bytes, bytes]], reason: str) -> None:
    assert lane_ask(scope()) is not None
    assert lane_ask({**scope(), "headers": headers}) is None, reason


def _same(api: ApiServer, secret: str | None, username: str, params: dict[str, str], gzip: bool) -> httpx.Response:
    headers = {"Accept-Encoding": "gzip" if gzip else "identity"}
    with api.client(secret) as client:
        short = client.get(f"/api/v1/athletes/{username}/context?{urlencode(params)}", headers=headers)
        routed = client.get(
            f"/api/v1/athletes/{username}/context?{urlencode({**params, 'via': 'router'})}", headers=headers
        )
    assert short.status_code == routed.status_code
    assert _headers(short) == _headers(routed)
    assert short.content == routed.content
    return short


def _headers(response: httpx.Response) -> list[tuple[str, str]]:
    return [(k, v) for k, v in response.headers.multi_items() if k != "date"]


@pytest.mark.parametrize("gzip", [False, True], ids=["identity", "gzip"])
@pytest.mark.parametrize(
    "params",
    [{}, {"query": "knee pain after long runs"}, {"query": "Knöchel 😀 <b>&"}, {"query": "run", "max_tokens": "12"}],
    ids=["default", "words", "unicode", "tiny block"],
)
def test_the_short_way_answers_byte_for_byte_as_the_route(api: ApiServer, params: dict[str, str], gzip: bool) -> None:
    answer = _same(api, api.token("read"), "Alex", params, gzip)
    assert answer.status_code == 200 and answer.json()["athlete"] == "alex"
    if gzip and len(answer.content) >= 1000:
        assert answer.headers["content-encoding"] == "gzip"


@pytest.mark.parametrize(
    ("who", "username", "status"),
    [
        ("unknown token", "Alex", 401),
        ("revoked token", "Alex", 401),
        ("ingest-only token", "Alex", 403),
        ("read token", "nobody-here", 404),
        ("read token", "admin", 404),
    ],
)
def test_its_refusals_are_the_routes(api: ApiServer, who: str, username: str, status: int) -> None:
    secret = {
        "unknown token": TOKEN,
        "revoked token": api.token("read", revoked=True),
        "ingest-only token": api.token("ingest"),
        "read token": api.token("read"),
    }[who]
    answer = _same(api, secret, username, {"query": "knee"}, gzip=False)
    assert answer.status_code == status and answer.json()["error"]


@pytest.mark.parametrize("secret", ["read token", "unknown token"])
def test_the_lanes_answers_carry_the_security_headers(api: ApiServer, secret: str) -> None:
    token = api.token("read") if secret == "read token" else TOKEN
    with api.client(token) as client:
        answer = client.get("/api/v1/athletes/alex/context", params={"query": "knee"})
    assert answer.status_code == (200 if secret == "read token" else 401)
    assert answer.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    for name, value in SECURITY_HEADERS:
        assert answer.headers[name] == value, name
    assert "set-cookie" not in answer.headers


def test_a_bad_token_on_the_lane_is_refused_with_the_same_words(api: ApiServer) -> None:
    revoked = api.token("read", revoked=True)
    with api.client(TOKEN) as client:
        unknown = client.get("/api/v1/athletes/alex/context")
    with api.client(revoked) as client:
        gone = client.get("/api/v1/athletes/alex/context")
    with httpx.Client(base_url=api.url, timeout=20) as client:
        none = client.get("/api/v1/athletes/alex/context")
    assert (unknown.status_code, unknown.json()) == (401, {"error": "Invalid API token."})
    assert (gone.status_code, gone.json()) == (401, {"error": "This API token was revoked."})
    assert (none.status_code, none.json()) == (401, {"error": "Send an API token: Authorization: Bearer <token>."})
    assert all(r.headers["www-authenticate"] == "Bearer" for r in (unknown, gone, none))


def test_a_context_request_with_a_body_is_answered_through_the_gate(api: ApiServer) -> None:
    path = "/api/v1/athletes/alex/context?query=knee"
    with api.client(api.token("read")) as client:
        plain = client.get(path)
        with_body = client.request("GET", path, content=b"{}")
        too_big = client.request("GET", path, content=b"x" * (64 * 1024 + 1))
    assert with_body.status_code == 200 and with_body.json() == plain.json()
    assert too_big.status_code == 413 and "64 KiB" in too_big.json()["error"]
