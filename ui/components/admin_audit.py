"""Admin tab "Audit log": filtered, keyset-paged events, one event's diff, CSV export, chain status.

Filters apply as they change (text once typing pauses). Summaries and reasons are in plain words;
the record ids an admin traces events by keep a quieter column of their own.
"""

from __future__ import annotations

from nicegui import background_tasks, ui

from domain.audit_checkpoints import StoredCheck, last_check, record
from domain.audit_export import export_csv
from domain.audit_log import AuditFilter, AuditPage, AuditRow, FieldChange, audit_event, audit_page, chain_status
from domain.audit_refused import RefusedEvents, refused_events
from domain.enums import AuditAction
from domain.errors import DomainError
from ui.components.admin_common import DayInput, Latest, live_text, when, when_short
from ui.components.admin_words import (
    ACTION_WORDS,
    field_value_words,
    field_words,
    reason_words,
    record_words,
    refs_words,
    summary_words,
)
from ui.components.dialogs import one_at_a_time, titled_dialog
from ui.components.labels import summary_text
from ui.components.timeago import time_ago
from ui.components.turns import building_turn
from ui.session import attempt, in_thread, write

EVENT_DIALOG = "event-dialog"

PAGE_SIZE = 25
ALL, SYSTEM = 0, -1
LEFT = {"align": "left", "headerClasses": "text-left"}
ONE_LINE = {"classes": "whitespace-nowrap", "headerClasses": "text-left whitespace-nowrap"}
EVENT_COLUMNS = [
    {"name": "at", "label": "Time (UTC)", "field": "at", **LEFT, **ONE_LINE},
    {"name": "actor", "label": "By", "field": "actor", **LEFT},
    {"name": "action", "label": "Action", "field": "action", **LEFT},
    {"name": "athlete", "label": "Athlete", "field": "athlete", **LEFT},
    {"name": "summary", "label": "Summary", "field": "summary", **LEFT},
    {"name": "record", "label": "Record", "field": "record", **LEFT},
    {"name": "open", "label": "Open", "field": "seq", **LEFT},
]
CHANGE_COLUMNS = [
    {"name": "field", "label": "Field", "field": "field", **LEFT},
    {"name": "before", "label": "Before", "field": "before", "classes": "mr-del mr-memory-text", **LEFT},
    {"name": "after", "label": "After", "field": "after", "classes": "mr-ins mr-memory-text", **LEFT},
]
# Vue templates show row values as text ({{ }}), never as HTML.
SUMMARY_CELL = """
<q-td :props="props">
  <div>{{ props.row.summary }}</div>
  <div v-if="props.row.reason" class="mr-muted">Reason: {{ props.row.reason }}</div>
</q-td>
"""
RECORD_CELL = """
<q-td :props="props" class="mr-muted text-sm">
  <div class="whitespace-nowrap">{{ props.row.record }}</div>
  <div v-if="props.row.refs">{{ props.row.refs }}</div>
</q-td>
"""
FIELD_CELL = '<q-th :props="props" scope="row">{{ props.value }}</q-th>'


class AuditTab:
    def __init__(self, *, people: dict[int, str], athletes: dict[int, str]) -> None:
        """`people` (every account) and `athletes`: id → username for the filters, read with the page."""
        self.filters = AuditFilter()
        self.page_data: AuditPage | None = None
        self.checking = False
        self.latest = Latest()
        self.status = ui.label("Audit chain: not checked yet").classes("font-medium").mark("chain-status")
        self.status.props('role=status aria-live="polite"')
        # Waiting events a writer refused to chain (PostgreSQL; domain.audit_refused): evidence of tampering.
        self.refused = ui.column().classes("gap-0 text-danger").mark("audit-refused")
        self.refused.set_visibility(False)
        with ui.row().classes("items-start gap-2 w-full").mark("audit-filters"):
            self.actor = ui.select({ALL: "All people", SYSTEM: "System (no user)", **people}, value=ALL, label="By")
            self.actor.props("dense").classes("w-40")
            self.athlete = ui.select({ALL: "All athletes", **athletes}, value=ALL, label="Athlete")
            self.athlete.props("dense").classes("w-40")
            self.action = ui.select({"": "All actions", **ACTION_WORDS}, value="", label="Action")
            self.action.props("dense").classes("w-48")
            self.since = DayInput("From", on_change=self.apply)
            self.until = DayInput("Until", on_change=self.apply)
            self.text = live_text("Search text", self.apply, width="w-48")
            for select in (self.actor, self.athlete, self.action):
                select.on_value_change(self.apply)
            ui.button("Export CSV", icon="download", color="brand", on_click=self.export).props("outline")
        self.empty = ui.label("No events match.").classes("mr-muted").mark("audit-empty")
        self.table = self._events_table()
        self._keyset_pager()
        for element in (self.empty, self.table, self.pager):
            element.set_visibility(False)  # until the first page is loaded

    def _events_table(self) -> ui.table:
        table = ui.table(columns=EVENT_COLUMNS, rows=[], row_key="seq").props("flat dense wrap-cells")
        table.classes("w-full").mark("audit-table")
        table.add_slot("body-cell-summary", SUMMARY_CELL)
        table.add_slot("body-cell-record", RECORD_CELL)
        with table.add_slot("header-cell-open"), table.header("open"):
            ui.label("Open").classes("sr-only")
        with table.add_slot("body-cell-open"), table.cell("open"):
            button = ui.button(icon="open_in_new", color="brand").props("flat round dense").mark("audit-open")
            button.props[":aria-label"] = "'Open event #' + props.row.seq + ': ' + props.row.action"
            button.on("click", lambda event: self.open(int(event.args)), js_handler="() => emit(props.row.seq)")
            button.tooltip("Show before and after")
        return table

    def _keyset_pager(self) -> None:
        """Newest / newer / older: the log pages by event number, so there are no page numbers to jump to."""
        with ui.row().classes("items-center gap-2").mark("audit-pager") as self.pager:
            self.newest = ui.button("Newest", icon="first_page", color="meta", on_click=lambda: self.load())
            self.newer = ui.button("Newer", icon="chevron_left", color="meta", on_click=self.show_newer)
            self.span = ui.label("").classes("mr-muted").props('aria-live="polite"')
            self.older = ui.button("Older", color="meta", on_click=self.show_older).props("icon-right=chevron_right")
            self.newer.mark("audit-newer")
            self.older.mark("audit-older")
            for button in (self.newest, self.newer, self.older):
                button.props("flat")

    async def load(self, *, older_than: int | None = None, newer_than: int | None = None) -> None:
        filters = self.filters
        ticket = self.latest.ticket()
        outcome = await attempt(
            lambda s, u: audit_page(
                s, u, filters=filters, older_than=older_than, newer_than=newer_than, page_size=PAGE_SIZE
            ),
        )
        if outcome.value is not None and self.latest.is_current(ticket):
            async with building_turn():
                self.show(outcome.value)

    def show(self, data: AuditPage) -> None:
        self.page_data = data
        self.table.rows = [_event_row(row) for row in data.rows]
        self.table.set_visibility(bool(data.rows))
        self.empty.set_visibility(not data.rows)
        self.span.set_text(f"Events #{data.oldest_seq:,}–#{data.newest_seq:,}" if data.rows else "No events")
        self.newest.set_enabled(data.has_newer)
        self.newer.set_enabled(data.has_newer)
        self.older.set_enabled(data.has_older)
        self.pager.set_visibility(True)

    async def apply(self) -> None:
        self.filters = AuditFilter(
            actor_id=self.actor.value if self.actor.value not in (ALL, SYSTEM) else None,
            by_system=self.actor.value == SYSTEM,
            athlete_id=self.athlete.value or None,
            action=self.action.value or None,
            since=self.since.day,
            until=self.until.day,
            text=self.text.value or "",
        )
        await self.load()

    async def show_newer(self) -> None:
        if self.page_data is not None:
            await self.load(newer_than=self.page_data.newest_seq)

    async def show_older(self) -> None:
        if self.page_data is not None:
            await self.load(older_than=self.page_data.oldest_seq)

    def check_chain(self) -> None:
        """Show the stored result at once, then check the events since it in the background."""
        if not self.checking:
            self.checking = True
            background_tasks.create(self._check(), name="verify audit chain", context=self.status)

    async def _check(self) -> None:
        try:
            stored = await in_thread(last_check)
            self._show_check(stored, checking=stored is None or stored.ok)
            self._show_refused(await in_thread(refused_events))
            if stored is not None and not stored.ok:
                return  # a break stands until a check that covers it passes: `memory-review audit verify`
            report = await in_thread(chain_status)  # from the last checkpoint: reads only newer events
            stored = await write(lambda s, u: record(s, u, report))
            self._show_check(stored, checking=False)
            self._show_refused(await in_thread(refused_events))
        except DomainError as error:
            self.status.set_text(f"Audit chain: not checked. {error}")
        finally:
            self.checking = False

    def _show_refused(self, refused: RefusedEvents) -> None:
        self.refused.clear()
        with self.refused:
            for line in refused_lines(refused):
                ui.label(line)
        self.refused.set_visibility(refused.count > 0)

    def _show_check(self, stored: StoredCheck | None, *, checking: bool) -> None:
        self.status.set_text(chain_text(stored) + (" · checking newer events…" if checking and stored else ""))
        tone = "" if stored is None else "text-brand" if stored.ok else "text-danger"
        self.status.classes(replace=f"font-medium {tone}")

    async def open(self, seq: int) -> None:
        found = await attempt(lambda s, u: audit_event(s, u, seq=seq))
        if found.value is None:
            return
        self._show_event(*found.value)

    @one_at_a_time(EVENT_DIALOG)  # a double click loads the event twice; the second finds it open
    def _show_event(self, row: AuditRow, changes: list[FieldChange]) -> None:
        with titled_dialog(f"Event #{row.seq}: {ACTION_WORDS.get(row.action, row.action)}", marker=EVENT_DIALOG):
            ui.label(f"{summary_words(row)}").classes("font-medium")
            facts = [when(row.at), f"by {row.actor}", record_words(row.target)]
            if row.athlete:
                facts.append(f"athlete {row.athlete}")
            ui.label(" · ".join(facts)).classes("mr-muted")
            reason = reason_words(row.reason)
            if reason is not None:
                ui.label(f"Reason: {reason.text}" + (f" ({reason.refs})" if reason.refs else ""))
            if row.redacted:
                ui.label("Content was redacted when the memory was deleted for good.").classes("mr-muted")
            if not changes:
                ui.label("No field changed.").classes("mr-muted")
                return
            rows = [
                {
                    "field": field_words(c.field),
                    "before": field_value_words(c.field, c.before),
                    "after": field_value_words(c.field, c.after),
                }
                for c in changes
            ]
            table = ui.table(columns=CHANGE_COLUMNS, rows=rows, row_key="field").props("flat dense wrap-cells")
            table.classes("w-full").mark("event-diff")
            table.add_slot("body-cell-field", FIELD_CELL)

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


def chain_text(stored: StoredCheck | None) -> str:
    if stored is None:
        return "Audit chain not verified yet · checking every event…"
    if stored.ok and stored.seq == 0:
        return f"Audit chain verified (no events yet), {time_ago(stored.verified_at)}"
    if not stored.ok:
        return f"Audit chain broken at event #{stored.seq:,}: {stored.problem} (found {time_ago(stored.verified_at)})"
    return f"Audit chain verified up to event #{stored.seq:,}, {time_ago(stored.verified_at)}"


_ACTIONS = frozenset(AuditAction)


def refused_text(refused: RefusedEvents) -> str:
    return "\n".join(refused_lines(refused))


def refused_lines(refused: RefusedEvents) -> list[str]:
    """The waiting events refused and set aside, newest first: what each claimed and why it was refused."""
    if not refused.count:
        return []
    lines = [
        f"{refused.count:,} audit event{'s' if refused.count != 1 else ''} waiting to be chained "
        f"{'were' if refused.count != 1 else 'was'} refused and set aside, never chained:"
    ]
    for event in refused.newest:
        action = event.action or "?"
        claimed = ACTION_WORDS.get(AuditAction(action), action) if action in _ACTIONS else action
        lines.append(f"#{event.pending_id}: {claimed} on {event.target} by {event.actor_label or '?'}: {event.problem}")
    if refused.count > len(refused.newest):
        lines.append(f"… and {refused.count - len(refused.newest):,} older")
    return lines


def _event_row(row: AuditRow) -> dict[str, object]:
    reason = reason_words(row.reason)
    return {
        "seq": row.seq,
        "at": when_short(row.at),
        "actor": row.actor,
        "action": ACTION_WORDS.get(row.action, row.action),
        "athlete": row.athlete or "—",
        "record": record_words(row.target),
        "refs": refs_words(row),
        "summary": summary_words(row),
        "reason": reason.text if reason else "",
    }
