"""The API's description (/openapi.json) is served by the API's own middleware stack (ui.api.setup
ApiPath), as the routes it describes are: the same document, gzip and security headers, and no page
session (no cookie), which only the pages need."""

from __future__ import annotations

import httpx

from tests.api.conftest import ApiServer
from ui.server import CONTENT_SECURITY_POLICY, SECURITY_HEADERS


def test_the_description_is_served_whole_with_the_security_headers_and_no_session(api: ApiServer) -> None:
    with httpx.Client(base_url=api.url, timeout=20) as client:
        plain = client.get("/openapi.json", headers={"Accept-Encoding": "identity"})
        packed = client.get("/openapi.json", headers={"Accept-Encoding": "gzip"})
    assert plain.status_code == packed.status_code == 200
    assert plain.headers["content-type"] == "application/json"
    schema = plain.json()
    assert schema["info"]["title"] == "Memory Review API"
    assert "/api/v1/athletes/{username}/context" in schema["paths"]
    assert packed.headers["content-encoding"] == "gzip" and packed.json() == schema
    for answer in (plain, packed):
        assert answer.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
        assert all(answer.headers[name] == value for name, value in SECURITY_HEADERS)
        assert "set-cookie" not in answer.headers


def test_the_docs_page_still_loads_the_description(api: ApiServer) -> None:
    with httpx.Client(base_url=api.url, timeout=20) as client:
        page = client.get("/docs")
    assert page.status_code == 200 and "/openapi.json" in page.text
