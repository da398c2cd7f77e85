"""Admin tab "Audit log" in NiceGUI's User fixture: chain status, filters, pages, diff, CSV."""

from __future__ import annotations

import csv
import io

from nicegui.testing import User

from domain.audit import verify_chain
from persistence.engine import make_engine
from persistence.uow import unit_of_work
from tests.ui.admin_helpers import access_kinds, choose, open_admin, table_lacks, table_shows


def event_count(database_url: str) -> int:
    engine = make_engine(database_url)
    with unit_of_work(engine, read_only=True) as session:
        count = verify_chain(session).events_checked
    engine.dispose()
    return count


async def test_status_line_says_the_chain_verifies(user: User, app_database: str) -> None:
    await open_admin(user, "Audit log")
    await user.should_see(f"Audit chain verified: {event_count(app_database):,} events", retries=50)


async def test_filter_by_action_and_open_the_diff(user: User, app_database: str) -> None:
    await open_admin(user, "Audit log")
    with user.scope(marker="audit-filters"):
        choose(user, "Action", "Deleted")
    user.find(marker="audit-apply").click()
    await table_shows(
        user,
        "audit-table",
        "Deleted: Owns a dog that joins easy runs",
        "Deleted: Prefers running with a club on Thursday evenings",
    )
    await table_lacks(user, "audit-table", "Imported: Occasional knee soreness")
    delete_seq = _seq_of_first_row(user)
    user.find(marker="audit-open").trigger("click", delete_seq)  # the row's button sends its event number
    await user.should_see("Event #")
    await table_shows(user, "event-diff", "status", "active", "deleted")
    assert any(kind == "admin_view_audit_event" for kind, _, _ in access_kinds(app_database))


async def test_text_search_and_athlete_filter(user: User) -> None:
    await open_admin(user, "Audit log")
    with user.scope(marker="audit-filters"):
        user.find("Search text").type("knee soreness")
    user.find(marker="audit-apply").click()
    await table_shows(user, "audit-table", "Imported: Occasional knee soreness")
    await table_lacks(user, "audit-table", "Imported: Travels for work most weeks")
    with user.scope(marker="audit-filters"):
        user.find("Search text").clear()
        choose(user, "Athlete", "sam")
    user.find(marker="audit-apply").click()
    await table_shows(user, "audit-table", "Imported: Travels for work most weeks")
    await table_lacks(user, "audit-table", "Imported: Occasional knee soreness")


async def test_older_and_newer_pages(user: User) -> None:
    await open_admin(user, "Audit log")
    await user.should_see("Events #")
    first_span = _span(user)
    user.find(marker="audit-older").click()
    await user.should_not_see(first_span)
    older_span = _span(user)
    assert older_span != first_span
    user.find(marker="audit-newer").click()
    await user.should_see(first_span)


def _span(user: User) -> str:
    with user.scope(marker="audit-pager"):
        labels = list(user.find("Events #").elements)
    return str(labels[0].text)


def _seq_of_first_row(user: User) -> int:
    """The newest event's seq, read from the pager's "Events #first–#last" line."""
    return int(_span(user).rsplit("#", 1)[1].replace(",", ""))


async def test_export_csv_downloads_the_filtered_view(user: User) -> None:
    await open_admin(user, "Audit log")
    with user.scope(marker="audit-filters"):
        choose(user, "Action", "Deleted")
    user.find(marker="audit-apply").click()
    await table_shows(user, "audit-table", "Deleted: Owns a dog that joins easy runs")
    user.find("Export CSV").click()
    response = await user.download.next()
    rows = list(csv.DictReader(io.StringIO(response.text)))
    assert {row["action"] for row in rows} == {"delete"}
    assert len(rows) == 2
    await user.should_see("Exported 2 events.")
