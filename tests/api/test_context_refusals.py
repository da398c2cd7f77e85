"""The context route reads the token and the athlete in one statement (domain.coach_context.
caller_and_athlete), yet refuses in the order every route does: the token first (401), then its rate
limit (429) and its scope (403), and only then the athlete (404), whose name says nothing to a caller
the token check turned away.
"""

from __future__ import annotations

import pytest

from tests.api.conftest import RATE_LIMIT, ApiServer

UNKNOWN = "mr_" + "b" * 43


@pytest.mark.parametrize("path", ["/api/v1/athletes/nobody-here/context", "/api/v1/athletes/admin/context"])
@pytest.mark.parametrize(
    ("who", "status", "error"),
    [
        ("unknown token", 401, "Invalid API token."),
        ("revoked token", 401, "This API token was revoked."),
        ("not a token", 401, "Invalid API token."),
        ("ingest-only token", 403, "This token lacks the 'read' scope."),
        ("read token", 404, "Unknown athlete."),
    ],
)
def test_the_token_is_refused_before_the_athlete(api: ApiServer, path: str, who: str, status: int, error: str) -> None:
    secret = {
        "unknown token": UNKNOWN,
        "revoked token": api.token("read", revoked=True),
        "not a token": "x" * 200,
        "ingest-only token": api.token("ingest"),
        "read token": api.token("read"),
    }[who]
    with api.client(secret) as client:
        answer = client.get(path, params={"query": "knee"})
    assert (answer.status_code, answer.json()) == (status, {"error": error})


def test_requests_for_an_unknown_athlete_count_against_the_rate_limit(api: ApiServer) -> None:
    with api.client(api.token("read")) as client:
        statuses = {client.get("/api/v1/athletes/nobody/context").status_code for _ in range(RATE_LIMIT - 1)}
        known = client.get("/api/v1/athletes/alex/context", params={"query": "knee"})
        refused = client.get("/api/v1/athletes/nobody/context")
    assert statuses == {404} and known.status_code == 200
    assert refused.status_code == 429 and "Too many requests" in refused.json()["error"]
