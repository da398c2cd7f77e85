"""Numbered pages (the admin's lists of users and of deleted memories)."""

from __future__ import annotations


def page_count(total: int, page_size: int) -> int:
    """How many pages `total` rows fill; at least one, which then says there is nothing."""
    return max(1, -(-total // page_size))


def clamp_page(page: int, total: int, page_size: int) -> int:
    """The asked-for page, moved onto the first or last page when it is outside them."""
    return max(1, min(page, page_count(total, page_size)))
