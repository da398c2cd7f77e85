"""The admin console as a whole (issue 11, admin consistency) in NiceGUI's User fixture: the tab in
the address, filters that apply as they change, the app's date format with a Quasar date picker,
errors at the field, one name per action, controls named for what they act on, plain words."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta

import pytest
from nicegui import ui
from nicegui.functions.navigate import History
from nicegui.testing import User

from domain.enums import AuditAction
from domain.types import utcnow
from tests.ui.admin_helpers import choose, field_error, memory_id, open_admin, shows_error_at, table_cells, table_lacks
from tests.ui.conftest import log_in
from tests.ui.context_support import eventually
from ui.components.admin_common import DayInput, day_text, parse_day, when
from ui.components.admin_words import ACTION_WORDS, Reason, reason_words, record_words

DOG = "Owns a dog that joins easy runs"
CLUB = "Prefers running with a club on Thursday evenings"
APP_DATE = re.compile(r"^\d{2} [A-Z][a-z]{2} \d{4}$")


def day_input(user: User, label: str) -> DayInput:
    return next(e for e in user.find(label).elements if isinstance(e, DayInput))


def enter_day(user: User, label: str, text: str | None) -> None:
    """What a person types into a date field (the User fixture types only into plain inputs)."""
    with user.client:  # type: ignore[union-attr]
        day_input(user, label).value = text


def shown_panel(user: User) -> str:
    return str(next(iter(user.find(kind=ui.tab_panels).elements)).value)


def record_addresses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every address the page puts in place of the current one (ui.navigate.history.replace)."""
    addresses: list[str] = []
    monkeypatch.setattr(History, "replace", lambda _self, url: addresses.append(url))
    return addresses


# The tab in the address.


async def test_the_address_opens_its_tab(user: User) -> None:
    await log_in(user, "admin")
    await user.open("/admin?tab=audit")
    await user.should_see(marker="audit-pager")  # loaded: the audit log's first page
    assert shown_panel(user) == "audit"
    await user.open("/admin?tab=cleanup")
    await user.should_see(marker="purge-plan")
    assert shown_panel(user) == "cleanup"


async def test_an_unknown_tab_in_the_address_opens_the_first(user: User) -> None:
    await log_in(user, "admin")
    await user.open("/admin?tab=nonsense")
    await user.should_see(marker="deleted-pager")
    assert shown_panel(user) == "deleted"


async def test_switching_tabs_puts_the_tab_in_the_address_without_a_reload(
    user: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    await open_admin(user)
    addresses = record_addresses(monkeypatch)
    client = user.client
    user.find(kind=ui.tab, content="Users").click()
    await user.should_see(marker="users-pager")
    user.find(kind=ui.tab, content="Audit log").click()
    await eventually(lambda: addresses == ["/admin?tab=users", "/admin?tab=audit"])
    assert user.client is client  # the same page: no reload


# Filters apply as they change.


async def test_the_users_role_filter_applies_at_once(user: User) -> None:
    await open_admin(user, "Users")
    await user.should_see("Page 1 of 1 · 3 users")
    with user.scope(marker="user-filters"):
        choose(user, "Role", "Admin")
    await user.should_see("Page 1 of 1 · 1 users")
    await user.should_not_see(marker="user-alex")
    with user.scope(marker="user-filters"):
        user.find("Search users").type("zzz")
    await user.should_see("No users match.")


async def test_audit_dates_filter_as_they_change_in_the_apps_format(user: User) -> None:
    await open_admin(user, "Audit log")
    await user.should_see(marker="audit-table")
    today, tomorrow = utcnow().date(), utcnow().date() + timedelta(days=1)
    enter_day(user, "From", day_text(tomorrow))
    await user.should_see("No events match.")
    enter_day(user, "From", day_text(today))
    await user.should_not_see("No events match.")
    assert day_input(user, "From").day == today


async def test_an_unreadable_date_is_marked_at_its_field_and_changes_nothing(user: User) -> None:
    await open_admin(user)
    await user.should_see(DOG)
    enter_day(user, "Deleted from", "31 Foo 2026")
    await shows_error_at(user, "Deleted from", "Use a date like 12 Nov 2026.")
    await user.should_see(DOG)  # the last good filter stands
    enter_day(user, "Deleted from", day_text(utcnow() + timedelta(days=1)))
    await user.should_see("No deleted memories match.")
    assert field_error(user, "Deleted from") is None


async def test_date_fields_use_quasars_picker_in_the_apps_format(user: User) -> None:
    await open_admin(user)
    field = day_input(user, "Deleted from")
    assert field.picker.props["mask"] == "DD MMM YYYY"  # the picker writes 12 Nov 2026 too
    assert field.button.props["aria-label"] == "Deleted from: choose a date"
    assert "type" not in field.props  # a text field with a picker, not the browser's mm/dd/yyyy one
    tomorrow = utcnow().date() + timedelta(days=1)
    picked = f"{tomorrow:%d} {tomorrow:%b} {tomorrow:%Y}"  # as Quasar's DD MMM YYYY writes it
    with user.client:  # type: ignore[union-attr]
        field.picker.value = picked  # a day picked in the calendar lands in the field
    assert field.value == picked
    await eventually(lambda: field.day == tomorrow)
    await user.should_see("No deleted memories match.")  # and applies


async def test_dates_in_the_console_are_the_apps(user: User) -> None:
    await open_admin(user, "Audit log")
    await user.should_see(marker="audit-table")
    times = [str(row["at"]) for table in user.find(marker="audit-table").elements for row in table.rows]
    assert times
    assert all(re.fullmatch(r"\d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}", time) for time in times), times[:3]


# Errors at the field.


async def test_a_too_long_restore_reason_is_marked_at_the_reason(user: User, app_database: str) -> None:
    await open_admin(user)
    with user.scope(marker=f"deleted-{memory_id(app_database, DOG)}"):
        user.find("Restore").click()
    with user.scope(marker="restore-dialog"):
        user.find("Reason (optional)").type("x" * 501)
    user.find(marker="restore-confirm").click()
    await shows_error_at(user, "Reason (optional)", "Reason")
    assert not user.notify.messages
    assert memory_id(app_database, DOG) is not None


async def test_import_without_an_athlete_says_so_at_the_athlete_field(user: User) -> None:
    await log_in(user, "admin")
    await user.open("/admin?tab=import")
    await user.should_see(marker="admin-import")
    user.find(marker="admin-import").click()
    athlete = next(iter(user.find(marker="import-athlete").elements))
    assert athlete.props.get("error") is True
    assert athlete.props.get("error-message") == "Choose an athlete first."
    assert not user.notify.messages


# Names: one per action; each control says what it acts on.


async def test_each_rows_buttons_name_their_memory(user: User, app_database: str) -> None:
    await open_admin(user)
    await user.should_see(DOG)
    names = [str(e.props.get("aria-label")) for e in user.find(kind=ui.button).elements if e.props.get("aria-label")]
    for content in (DOG, CLUB):
        assert f"Restore: {content}" in names
        assert f"Delete permanently: {content}" in names
    boxes = [str(e.props.get("aria-label")) for e in user.find(kind=ui.checkbox).elements]
    assert f"Select: {DOG}" in boxes
    assert len(set(names)) == len(names)


async def test_each_users_buttons_name_the_account(user: User) -> None:
    await open_admin(user, "Users")
    with user.scope(marker="user-sam"):
        names = {str(e.props.get("aria-label")) for e in user.find(kind=ui.button).elements}
    assert names == {"Reset password: sam", "Disable: sam", "Make admin: sam"}


# Plain words.


async def test_audit_rows_read_in_plain_words_with_ids_apart(user: User) -> None:
    await open_admin(user, "Audit log")
    await user.should_see(marker="audit-table")
    with user.scope(marker="audit-filters"):
        choose(user, "Action", "Received text")
    await eventually(lambda: "Received text: an activity note" in table_cells(user, "audit-table"))
    cells = table_cells(user, "audit-table")
    assert any(cell.startswith("Received text #") for cell in cells)  # the record, in its own column
    assert any(cell.startswith("ref act_2026_") for cell in cells)  # the reference an admin traces by
    await table_lacks(user, "audit-table", "source_text")


def test_reasons_the_app_writes_read_in_plain_words_with_their_ids_apart() -> None:
    assert reason_words("Confirmed proposal #10, replacing memory #25") == Reason(
        "Confirmed by the athlete from a proposal, replacing an earlier memory", "proposal #10, replaced memory #25"
    )
    assert reason_words("Confirmed proposal #4") == Reason("Confirmed by the athlete from a proposal", "proposal #4")
    assert reason_words("Replaced by memory #31") == Reason("Replaced by a newer memory", "by memory #31")
    assert reason_words("Restored the version of event #17") == Reason(
        "An earlier version brought back", "version of event #17"
    )
    assert reason_words("Retention: archived more than 90 days ago") == Reason(
        "Clean-up: replaced more than 90 days ago"
    )
    assert reason_words("Deleted by mistake") == Reason("Deleted by mistake")  # a person's own words, as typed
    assert reason_words(None) is None
    assert record_words("source_text #3") == "Received text #3"
    assert record_words("memory #19") == "Memory #19"
    assert record_words("retention") == "Clean-up"
    assert [parse_day(text) for text in ("12 Nov 2026", "12 november 2026", "2026-11-12", " 12  Nov 2026 ")] == [
        date(2026, 11, 12)
    ] * 4
    assert parse_day("") is None
    assert when(datetime(2026, 11, 12, 14, 5)) == "12 Nov 2026, 14:05 UTC"


def test_the_clean_up_has_one_name_in_the_audit_log_too() -> None:
    assert ACTION_WORDS[AuditAction.RETENTION_RUN] == "Clean-up"
    assert ACTION_WORDS[AuditAction.PURGE] == "Removed by clean-up"
    assert not [words for words in ACTION_WORDS.values() if "purge" in words.lower()]
