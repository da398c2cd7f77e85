"""Who gets in: every route × {no token, wrong scope, right scope, revoked}; a browser's login counts for nothing."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from tests.api.conftest import ApiServer


@dataclass(frozen=True)
class Route:
    method: str
    path: str
    scope: str
    ok: int
    body: dict[str, Any] | None = None

    def call(self, client: httpx.Client) -> httpx.Response:
        body = self.body
        if body is not None:
            body = {**body, "reference": f"ref-{uuid.uuid4().hex}"}
        return client.request(self.method, self.path, json=body)


NOTE = {"athlete": "alex", "kind": "activity_note", "text": "My left knee hurt after the long run."}
ROUTES = [
    Route("POST", "/api/v1/ingest", "ingest", 201, NOTE),
    Route("GET", "/api/v1/athletes/alex/memories", "read", 200),
    Route("GET", "/api/v1/athletes/alex/context?query=knee", "read", 200),
]
WRONG_SCOPE = {"ingest": "read", "read": "ingest"}


@pytest.mark.parametrize("route", ROUTES, ids=lambda r: f"{r.method} {r.path.split('?')[0]}")
@pytest.mark.parametrize("token", ["none", "unknown", "wrong scope", "right scope", "revoked"])
def test_access_matrix(api: ApiServer, route: Route, token: str) -> None:
    secret = {
        "none": None,
        "unknown": "mr_" + uuid.uuid4().hex,
        "wrong scope": lambda: api.token(WRONG_SCOPE[route.scope]),
        "right scope": lambda: api.token(route.scope),
        "revoked": lambda: api.token(route.scope, revoked=True),
    }[token]
    with api.client(secret() if callable(secret) else secret) as client:
        response = route.call(client)
    expected = {"none": 401, "unknown": 401, "wrong scope": 403, "right scope": route.ok, "revoked": 401}[token]
    assert response.status_code == expected, response.text
    assert response.headers["content-type"].startswith("application/json")
    if expected == 401:
        assert response.headers["www-authenticate"] == "Bearer"
    if expected >= 400:
        assert set(response.json()) == {"error"} and response.json()["error"]


def test_other_authorization_schemes_are_refused(api: ApiServer) -> None:
    with httpx.Client(base_url=api.url) as client:
        for header in ("Basic YWxleDpkZW1vLWFsZXg=", "Bearer", "Bearer x y", "Token " + api.token("read")):
            response = client.get("/api/v1/athletes/alex/memories", headers={"Authorization": header})
            assert response.status_code == 401, header


def test_nothing_under_api_answers_without_a_token(api: ApiServer) -> None:
    with api.client() as client:
        for path in ("/api/", "/api/v1", "/api/v2/anything", "/api/v1/athletes/alex/export", "/api/v1/unknown"):
            assert client.get(path).status_code == 401, path
    with api.client(api.token("read")) as client:
        response = client.get("/api/v1/no/such/route")
    assert response.status_code == 404 and "No API route" in response.json()["error"]


def test_every_documented_route_requires_the_bearer_token(api: ApiServer) -> None:
    with httpx.Client(base_url=api.url) as client:
        schema = client.get("/openapi.json").json()
        assert client.get("/docs").status_code == 200
    api_paths = {path: ops for path, ops in schema["paths"].items() if path.startswith("/api/")}
    assert set(api_paths) >= {"/api/v1/ingest", "/api/v1/athletes/{username}/memories"}
    for path, operations in api_paths.items():
        for method, operation in operations.items():
            assert operation.get("security") == [{"HTTPBearer": []}], f"{method} {path}"


def test_a_logged_in_browser_session_grants_nothing(api: ApiServer) -> None:
    """Log in as the athlete in Chromium, then call the API with that browser's cookies."""
    playwright_api = pytest.importorskip("playwright.sync_api")
    from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS

    with playwright_api.sync_playwright() as runner:
        browser = runner.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            page.goto(f"{api.url}/login")
            page.get_by_label("Username").fill("alex")
            page.get_by_label("Password").fill("demo-alex")
            page.get_by_role("button", name="Log in").click()
            page.wait_for_url(f"{api.url}/")
            cookies = {c["name"]: c["value"] for c in page.context.cookies()}
            in_browser = page.request.get(f"{api.url}/api/v1/athletes/alex/memories")
            assert in_browser.status == 401
        finally:
            browser.close()
    assert cookies
    with httpx.Client(base_url=api.url, cookies=cookies) as client:
        assert client.get("/").status_code == 200  # the cookie is a real login
        assert client.get("/api/v1/athletes/alex/memories").status_code == 401
        bogus = client.get("/api/v1/athletes/alex/context", headers={"Authorization": "Bearer mr_bogus"})
        assert bogus.status_code == 401
