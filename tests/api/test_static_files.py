"""NiceGUI's versioned script, style and font files, answered from memory after the first time
(ui/static_cache.py), against the real server in a subprocess: the same bytes every time, compressed
only for a browser that asks for it, still with the security headers; ranges, revalidations and
files that do not exist go the usual way and are never kept."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import httpx
from nicegui import __version__ as nicegui_version

from tests.api.conftest import ApiServer

STATIC = f"/_nicegui/{nicegui_version}/static"


def _get(api: ApiServer, path: str, **headers: str) -> httpx.Response:
    with httpx.Client(base_url=api.url, timeout=30, headers={"Accept-Encoding": "identity", **headers}) as client:
        return client.get(path)


def test_a_script_is_the_same_every_time_compressed_or_not_with_the_security_headers(api: ApiServer) -> None:
    path = f"{STATIC}/nicegui.js"
    plain = [_get(api, path) for _ in range(3)]
    with httpx.Client(base_url=api.url, timeout=30) as client:
        zipped = [client.get(path, headers={"Accept-Encoding": "gzip"}) for _ in range(3)]
    assert {r.status_code for r in plain + zipped} == {200}
    assert {r.headers.get("content-encoding") for r in plain} == {None}
    assert {r.headers.get("content-encoding") for r in zipped} == {"gzip"}
    assert len({r.content for r in plain + zipped}) == 1  # httpx unzips: one script
    assert b"export" in plain[0].content or b"function" in plain[0].content
    for response in plain + zipped:
        assert "immutable" in response.headers["cache-control"]
        assert response.headers["x-content-type-options"] == "nosniff"
        assert "default-src 'self'" in response.headers["content-security-policy"]
        assert response.headers["content-type"].startswith(("text/javascript", "application/javascript"))


def test_many_browsers_at_once_get_the_whole_file(api: ApiServer) -> None:
    """Twenty first requests for the largest script at the same moment: one is made, all get it whole."""
    path = f"{STATIC}/quasar.umd.prod.js"
    with httpx.Client(base_url=api.url, timeout=60) as client, ThreadPoolExecutor(20) as pool:
        answers = list(pool.map(lambda _: client.get(path, headers={"Accept-Encoding": "gzip"}), range(20)))
    assert {r.status_code for r in answers} == {200}
    bodies = {r.content for r in answers}
    assert len(bodies) == 1 and len(bodies.pop()) > 100_000
    lengths = {int(r.headers["content-length"]) for r in answers}
    assert len(lengths) == 1 and lengths.pop() < len(answers[0].content) / 2  # sent compressed


def test_a_range_and_a_revalidation_are_answered_by_the_file_itself(api: ApiServer) -> None:
    path = f"{STATIC}/nicegui.js"
    whole = _get(api, path)
    part = _get(api, path, Range="bytes=0-99")
    assert part.status_code == 206 and part.content == whole.content[:100]
    etag = whole.headers.get("etag")
    if etag:
        assert _get(api, path, **{"If-None-Match": etag}).status_code == 304


def test_a_missing_file_is_not_found_every_time(api: ApiServer) -> None:
    for _ in range(2):
        assert _get(api, f"{STATIC}/no-such-file.js").status_code == 404
    assert _get(api, f"/_nicegui/{nicegui_version}/components/nope/nope.js").status_code == 404
