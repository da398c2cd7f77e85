"""Every hostile input (tests/data/hostile_inputs.txt) at the API of the real server, SQLite and PostgreSQL:
as the ingest's text, reference and athlete, as the memories search `q` and the context `query`, and as a
raw request body. The answer is a clear 4xx naming the field, or the input taken; never a 500.
A taken note is stored as sent, less the characters the text rule refuses (domain.content.scrub_text)."""

from __future__ import annotations

import json
import unicodedata
import uuid
from collections.abc import Callable
from urllib.parse import quote_from_bytes

import httpx
import pytest
from sqlalchemy import select

from domain.content import scrub_text
from domain.models import SourceText
from persistence.uow import unit_of_work
from tests.api.conftest import ApiServer
from tests.hostile import Hostile, hostile_inputs

INGEST = "/api/v1/ingest"


def _post(client: httpx.Client, body: dict[str, str]) -> httpx.Response:
    # json.dumps writes a lone surrogate as its \\u escape, as a client in another language might
    return client.post(INGEST, content=json.dumps(body), headers={"Content-Type": "application/json"})


def _field_named(response: httpx.Response, field: str) -> bool:
    return field in response.json().get("error", "").lower()


def _stored_text(api: ApiServer, reference: str) -> str | None:
    with unit_of_work(api.engine, read_only=True) as session:
        return session.scalar(select(SourceText.text).where(SourceText.reference == reference))


Check = Callable[[ApiServer, httpx.Client, Hostile], str | None]


def ingest_text(api: ApiServer, client: httpx.Client, hostile: Hostile) -> str | None:
    reference = f"hostile-{uuid.uuid4().hex}"
    response = _post(client, {"athlete": "alex", "kind": "activity_note", "reference": reference, "text": hostile.text})
    if response.status_code == 422:
        return None if _field_named(response, "text") else f"422 not naming the field: {response.text[:200]}"
    if response.status_code != 201:
        return f"{response.status_code}: {response.text[:200]}"
    stored = _stored_text(api, reference)
    expected = scrub_text(hostile.text)
    return None if stored == expected else f"stored {stored!r:.80} != {expected!r:.80}"


def ingest_reference(api: ApiServer, client: httpx.Client, hostile: Hostile) -> str | None:
    body = {"athlete": "alex", "kind": "activity_note", "reference": hostile.text, "text": "Easy run by the river."}
    response = _post(client, body)
    if response.status_code == 422:
        return None if _field_named(response, "reference") else f"422 not naming the field: {response.text[:200]}"
    if response.status_code not in (200, 201):
        return f"{response.status_code}: {response.text[:200]}"
    expected = unicodedata.normalize("NFC", hostile.text.strip())
    return None if response.json()["reference"] == expected else f"reference {response.json()}"


def ingest_athlete(api: ApiServer, client: httpx.Client, hostile: Hostile) -> str | None:
    body = {"athlete": hostile.text, "kind": "activity_note", "reference": uuid.uuid4().hex, "text": "Easy run."}
    response = _post(client, body)
    if response.status_code == 422:
        return None if _field_named(response, "athlete") else f"422 not naming the field: {response.text[:200]}"
    return None if response.status_code == 404 else f"{response.status_code}: {response.text[:200]}"


def raw_body(api: ApiServer, client: httpx.Client, hostile: Hostile) -> str | None:
    response = client.post(INGEST, content=hostile.data, headers={"Content-Type": "application/json"})
    if response.status_code not in (400, 422):
        return f"{response.status_code}: {response.text[:200]}"
    # In the API's own shape, malformed UTF-8 included (it was FastAPI's 400 {"detail": ...}).
    return (
        None if isinstance(response.json().get("error"), str) else f"not the API's error shape: {response.text[:200]}"
    )


def _read(path: str, parameter: str) -> Check:
    def check(api: ApiServer, client: httpx.Client, hostile: Hostile) -> str | None:
        # the input's bytes percent-encoded: malformed UTF-8 and lone surrogates reach the server as they are
        response = client.get(f"{path}?{parameter}={quote_from_bytes(hostile.data, safe='')}")
        if response.status_code == 422:
            return None if _field_named(response, parameter) else f"422 not naming the field: {response.text[:200]}"
        return None if response.status_code == 200 else f"{response.status_code}: {response.text[:200]}"

    return check


CHECKS: dict[str, tuple[str, Check]] = {
    "ingest text": ("ingest", ingest_text),
    "ingest reference": ("ingest", ingest_reference),
    "ingest athlete": ("ingest", ingest_athlete),
    "raw request body": ("ingest", raw_body),
    "memories q": ("read", _read("/api/v1/athletes/alex/memories", "q")),
    "context query": ("read", _read("/api/v1/athletes/alex/context", "query")),
}


@pytest.mark.parametrize("name", list(CHECKS))
def test_every_hostile_input_gets_a_clear_answer_never_a_server_error(api: ApiServer, name: str) -> None:
    scope, check = CHECKS[name]
    failures = {}
    with api.client(api.token(scope)) as client:  # a token per field: each stays under the rate limit
        for hostile in hostile_inputs():
            problem = check(api, client, hostile)
            if problem is not None:
                failures[str(hostile)] = problem
    assert not failures, "\n".join(f"{k}: {v}" for k, v in failures.items())


def test_a_query_parameter_named_query_is_named_in_the_message() -> None:
    """Found by the hostile inputs: the context route's `query` parameter was dropped from its own
    message ("must not contain control characters", no field), taken for the location 'query'."""
    from fastapi.exceptions import RequestValidationError

    from ui.api.errors import validation_message

    error = {
        "loc": ("query", "query"),
        "msg": "Value error, must not contain control characters",
        "type": "value_error",
    }
    assert validation_message(RequestValidationError([error])) == (
        "query: must not contain control characters",
        "query",
    )
    body = {"loc": ("body", "text"), "msg": "Field required", "type": "missing"}
    assert validation_message(RequestValidationError([body])) == ("text: Field required", "text")


def test_a_body_that_is_not_utf8_gets_the_apis_own_error_and_stores_nothing(api: ApiServer) -> None:
    reference = uuid.uuid4().hex
    fields = f'"athlete": "alex", "kind": "activity_note", "reference": "{reference}", "text": "Knee '
    body = b"{" + fields.encode() + b'\xff"}'  # one byte that is not UTF-8
    with api.client(api.token("ingest")) as client:
        response = client.post(INGEST, content=body, headers={"Content-Type": "application/json"})
    assert response.status_code == 422
    assert response.json() == {"error": "The body is not valid JSON: it must be UTF-8 text."}
    with unit_of_work(api.engine, read_only=True) as session:
        assert session.scalars(select(SourceText).where(SourceText.reference == reference)).all() == []
