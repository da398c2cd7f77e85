"""Shared page setup happens once: the 200th page load is as heavy as the first."""

from __future__ import annotations

import urllib.request

from tests.e2e.conftest import Server
from ui.assets import stylesheet

LOADS = 200


def _login_page(server: Server) -> str:
    with urllib.request.urlopen(f"{server.url}/login", timeout=10) as response:
        return str(response.read().decode("utf-8"))


def test_two_hundred_page_loads_leave_the_page_size_unchanged(server: Server) -> None:
    first = _login_page(server)
    for _ in range(LOADS - 2):
        _login_page(server)
    last = _login_page(server)
    marker = stylesheet().strip().splitlines()[0]
    assert first.count(marker) == 1
    assert last.count(marker) == 1
    assert len(last.encode()) == len(first.encode())
