"""Admin tab "Audit log": filtered, keyset-paged events, one event's diff, CSV export, chain status."""

from __future__ import annotations

from nicegui import background_tasks, ui

from domain.audit_export import export_csv
from domain.audit_log import AuditFilter, AuditPage, AuditRow, audit_event, audit_page, chain_status
from domain.errors import DomainError
from domain.users import athlete_choices, user_choices
from ui.components.admin_common import date_input, parse_day, set_aria_label, when
from ui.components.labels import ACTION_LABELS, summary_text, value_text
from ui.session import attempt, in_thread, read

PAGE_SIZE = 25
ALL, SYSTEM = 0, -1
HEADERS = ("Time", "Actor", "Action", "Athlete", "Target", "Summary", "")


class AuditTab:
    def __init__(self) -> None:
        self.filters = AuditFilter()
        self.older_than: int | None = None
        self.newer_than: int | None = None
        self.page_data: AuditPage | None = None
        self.status = ui.label("Audit chain: not checked yet").classes("font-medium").mark("chain-status")
        self.status.props('role=status aria-live="polite"')
        actors = read(user_choices)
        athletes = read(athlete_choices)
        with ui.row().classes("items-end gap-2 w-full").mark("audit-filters"):
            self.actor = ui.select({ALL: "All actors", SYSTEM: "System (no user)", **actors}, value=ALL, label="Actor")
            self.actor.props("outlined dense").classes("w-40")
            self.athlete = ui.select({ALL: "All athletes", **athletes}, value=ALL, label="Athlete")
            self.athlete.props("outlined dense").classes("w-40")
            self.action = ui.select({"": "All actions", **ACTION_LABELS}, value="", label="Action")
            self.action.props("outlined dense").classes("w-48")
            self.since = date_input("From")
            self.until = date_input("Until")
            self.text = ui.input("Search text").props("outlined dense clearable").classes("w-48")
            self.text.on("keydown.enter", self.apply)
            ui.button("Apply", icon="filter_alt", on_click=self.apply).props("no-caps unelevated color=teal-8").mark(
                "audit-apply"
            )
            ui.button("Export CSV", icon="download", on_click=self.export).props("no-caps outline color=teal-8")
        self.detail_dialog = self._detail_dialog()
        self.results()

    async def load(self) -> None:
        filters, older, newer = self.filters, self.older_than, self.newer_than
        outcome = await attempt(
            lambda s, u: audit_page(s, u, filters=filters, older_than=older, newer_than=newer, page_size=PAGE_SIZE),
        )
        self.page_data = outcome.value
        self.results.refresh()

    async def apply(self) -> None:
        self.filters = AuditFilter(
            actor_id=self.actor.value if self.actor.value not in (ALL, SYSTEM) else None,
            by_system=self.actor.value == SYSTEM,
            athlete_id=self.athlete.value or None,
            action=self.action.value or None,
            since=parse_day(self.since.value),
            until=parse_day(self.until.value),
            text=self.text.value or "",
        )
        await self.page(None, None)

    async def page(self, older_than: int | None, newer_than: int | None) -> None:
        self.older_than, self.newer_than = older_than, newer_than
        await self.load()

    def check_chain(self) -> None:
        self.status.set_text("Checking the audit chain…")
        background_tasks.create(self._check(), name="verify audit chain", context=self.status)

    async def _check(self) -> None:
        try:
            report = await in_thread(chain_status)
        except DomainError as error:
            self.status.set_text(f"Audit chain: not checked. {error}")
            return
        self.status.set_text(report.summary())
        self.status.classes(replace="font-medium " + ("mr-btn-brand" if report.ok else "mr-btn-danger"))

    @ui.refreshable_method
    def results(self) -> None:
        data = self.page_data
        if data is None:
            return
        if not data.rows:
            ui.label("No events match.").classes("mr-muted").mark("audit-empty")
        else:
            with ui.element("div").classes("w-full overflow-x-auto"):
                self._table(data.rows)
        with ui.row().classes("items-center gap-2").mark("audit-pager"):
            newest = ui.button("Newest", icon="first_page", on_click=lambda: self.page(None, None))
            newest.props("flat no-caps").classes("mr-btn-meta").set_enabled(data.has_newer)
            newer = ui.button("Newer", icon="chevron_left", on_click=lambda: self.page(None, data.newest_seq))
            newer.mark("audit-newer")
            newer.props("flat no-caps").classes("mr-btn-meta").set_enabled(data.has_newer)
            span = f"Events #{data.oldest_seq:,}–#{data.newest_seq:,}" if data.rows else "No events"
            ui.label(span).classes("mr-muted").props('aria-live="polite"')
            older = ui.button("Older", on_click=lambda: self.page(data.oldest_seq, None)).mark("audit-older")
            older.props("flat no-caps icon-right=chevron_right").classes("mr-btn-meta").set_enabled(data.has_older)

    def _table(self, rows: list[AuditRow]) -> None:
        with ui.element("table").classes("mr-table w-full text-sm").mark("audit-table"):
            with ui.element("thead"), ui.element("tr"):
                for header in HEADERS:
                    with ui.element("th").props("scope=col").classes("text-left p-1"):
                        if header:
                            ui.label(header)
                        else:
                            ui.label("Open").classes("sr-only")
            with ui.element("tbody"):
                for row in rows:
                    with ui.element("tr").mark(f"audit-{row.seq}"):
                        for text in (
                            when(row.at),
                            row.actor,
                            ACTION_LABELS.get(row.action, row.action),
                            row.athlete or "—",
                            row.target,
                        ):
                            with ui.element("td").classes("p-1 align-top"):
                                ui.label(text)
                        with ui.element("td").classes("p-1 align-top"):
                            ui.label(summary_text(row.summary))
                            if row.reason:
                                ui.label(f"Reason: {row.reason}").classes("mr-muted")
                        with ui.element("td").classes("p-1 align-top"):
                            button = ui.button(icon="open_in_new", on_click=lambda seq=row.seq: self.open(seq))
                            button.props("flat round dense").mark(f"open-{row.seq}").tooltip("Show before and after")
                            set_aria_label(button, f"Open event {row.seq}")

    def _detail_dialog(self) -> ui.dialog:
        with ui.dialog() as dialog, ui.card().classes("w-[40rem] max-w-full").mark("event-dialog"):
            self.detail = ui.column().classes("w-full gap-2")
            with ui.row().classes("justify-end w-full"):
                ui.button("Close", on_click=dialog.close).props("flat no-caps").classes("mr-btn-meta")
        return dialog

    async def open(self, seq: int) -> None:
        found = await attempt(lambda s, u: audit_event(s, u, seq=seq))
        if found.value is None:
            return
        row, changes = found.value
        self.detail.clear()
        with self.detail:
            ui.label(f"Event #{row.seq}: {ACTION_LABELS.get(row.action, row.action)}").classes("text-lg font-semibold")
            ui.label(f"{when(row.at)} · by {row.actor} · {row.target}" + (f" · {row.athlete}" if row.athlete else ""))
            if row.reason:
                ui.label(f"Reason: {row.reason}")
            if row.redacted:
                ui.label("Content was redacted when the memory was deleted for good.").classes("mr-muted")
            if not changes:
                ui.label("No field changed.").classes("mr-muted")
            else:
                with ui.element("table").classes("mr-table w-full text-sm").mark("event-diff"):
                    with ui.element("thead"), ui.element("tr"):
                        for header in ("Field", "Before", "After"):
                            with ui.element("th").props("scope=col").classes("text-left p-1"):
                                ui.label(header)
                    with ui.element("tbody"):
                        for change in changes:
                            with ui.element("tr"):
                                with ui.element("th").props("scope=row").classes("text-left p-1 align-top"):
                                    ui.label(change.field)
                                with ui.element("td").classes("p-1 align-top"):
                                    ui.label(value_text(change.before)).classes("mr-del px-1 mr-memory-text")
                                with ui.element("td").classes("p-1 align-top"):
                                    ui.label(value_text(change.after)).classes("mr-ins px-1 mr-memory-text")
        self.detail_dialog.open()

    async def export(self) -> None:
        filters = self.filters
        outcome = await attempt(lambda s, u: export_csv(s, u, filters=filters, summary=summary_text))
        result = outcome.value
        if result is None:
            return
        ui.download.content(result.text.encode("utf-8"), "audit-log.csv", "text/csv")
        note = f"Exported {result.rows:,} events."
        if result.truncated:
            note += " That is the export limit: narrow the filters for the rest."
        ui.notify(note, type="positive")
