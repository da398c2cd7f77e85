"""The admin's text search of deleted memories counts no further than COUNT_CAP."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine

from domain import admin_deleted
from domain.admin_deleted import DeletedQuery, list_deleted
from domain.models import User
from persistence.uow import unit_of_work
from tests.integration.admin_helpers import deleted_memory


def test_a_text_search_counts_up_to_the_cap_and_says_there_are_more(
    engine: Engine, athlete: User, admin: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(admin_deleted, "COUNT_CAP", 4)
    for n in range(6):
        deleted_memory(engine, athlete, f"Knee strapping {n}")
    deleted_memory(engine, athlete, "Prefers morning runs")
    with unit_of_work(engine) as session:
        many = list_deleted(session, admin, query=DeletedQuery(text="knee", page_size=3))
        beyond = list_deleted(session, admin, query=DeletedQuery(text="knee", page_size=3, page=9))
        few = list_deleted(session, admin, query=DeletedQuery(text="morning"))
        everything = list_deleted(session, admin)
    assert (many.total, many.capped, many.pages, len(many.rows)) == (4, True, 2, 3)
    assert (beyond.page, len(beyond.rows)) == (2, 3), "the last page within the cap"
    assert (few.total, few.capped) == (1, False)
    assert (everything.total, everything.capped) == (7, False), "without text the count is exact"
