"""Numbered pages: how many, and which one a request lands on."""

from __future__ import annotations

import pytest

from domain.paging import clamp_page, page_count


@pytest.mark.parametrize(("total", "size", "pages"), [(0, 25, 1), (1, 25, 1), (25, 25, 1), (26, 25, 2), (100, 10, 10)])
def test_page_count_is_at_least_one(total: int, size: int, pages: int) -> None:
    assert page_count(total, size) == pages


@pytest.mark.parametrize(("asked", "landed"), [(-3, 1), (0, 1), (1, 1), (2, 2), (3, 3), (99, 3)])
def test_a_page_outside_the_range_lands_on_the_first_or_last(asked: int, landed: int) -> None:
    assert clamp_page(asked, total=51, page_size=25) == landed
