"""The server's full garbage collections run on its timer: what closed pages left behind is freed then."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from ui.gc_policy import DUE_AFTER_YOUNGER_COLLECTIONS, collect_if_due


class _Node:
    """A page's elements point at each other: only the garbage collector frees such a cycle."""

    def __init__(self) -> None:
        self.itself = self


@pytest.fixture
def manual_collections() -> Iterator[None]:
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def test_nothing_is_due_right_after_a_full_collection(manual_collections: None) -> None:
    gc.collect()
    assert collect_if_due() is False


def test_a_long_lived_cycle_left_behind_is_freed_once_a_full_collection_is_due(manual_collections: None) -> None:
    gc.collect()
    page = _Node()
    still_held = weakref.ref(page)
    for _ in range(DUE_AFTER_YOUNGER_COLLECTIONS):
        gc.collect(1)  # it lives through them, into the oldest generation
    del page  # the page is closed
    gc.collect(1)
    assert still_held() is not None  # younger collections never look at it

    assert collect_if_due() is True
    assert still_held() is None
