"""An address that is no page: the app's own page with a way home; the API keeps its JSON answer."""

from __future__ import annotations

from nicegui.testing import User

from tests.ui.conftest import log_in


async def test_a_missing_page_keeps_the_app_frame_and_a_way_home(user: User) -> None:
    await log_in(user, "alex")
    answer = await user.http_client.get("/no/such/page")
    assert answer.status_code == 404
    assert "Page not found · Memory Review" in answer.text
    assert "This page doesn&#x27;t exist" in answer.text or "This page doesn't exist" in answer.text
    assert "Go to your memory" in answer.text
    assert "The address may be mistyped" in answer.text and "HTTPException" not in answer.text


async def test_the_api_still_answers_json_for_an_unknown_route(user: User) -> None:
    answer = await user.http_client.get("/api/v1/nothing-here")
    assert answer.headers["content-type"].startswith("application/json")
    assert answer.status_code in (401, 404)
