"""The memory list's rows: each memory as data (its statement first and strongest, then one quiet
line of what it is and where it came from, in words; how often it was seen and how often the coach
used it; whether it is hidden from the coach), drawn in the browser by one element
(assets/components/memory_rows.js) with Edit beside each row and the rarely used actions (History,
Hide from coach / Show to coach, Delete) in its "more" menu.

One element for the whole list, not six per memory: an open page holds what it shows as data.
The browser names a row by its id only; an id the server did not send is ignored.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from nicegui import background_tasks, events, ui

from domain.coach_reads import Usage
from domain.models import Memory
from ui.assets import ASSETS
from ui.components.labels import CONFIDENCE_LABELS, HIDDEN_FROM_COACH, TYPE_SINGULAR, usage_text
from ui.components.page_json import page_json
from ui.components.text import clip
from ui.components.timeago import time_ago
from ui.components.words import source_words, tags_words

MemoryAction = Callable[[Memory], Awaitable[None] | None]
CLAMP_CHARS = 180  # longer statements (or 4+ lines) show 3 lines and "Show more"
CLAMP_LINES = 4
NAME_CHARS = 60  # how much of the statement names a row's controls for a screen reader


@dataclass(frozen=True)
class MemoryActions:
    edit: MemoryAction
    delete: MemoryAction
    history: MemoryAction
    toggle_hidden: MemoryAction  # hide from the coach, or show to the coach again


@dataclass(frozen=True)
class RowFacts:
    """What a row shows beyond the memory itself."""

    usage: Usage | None = None
    received_at: datetime | None = None


def is_long(content: str) -> bool:
    return len(content) > CLAMP_CHARS or content.count("\n") >= CLAMP_LINES - 1


def meta_line(memory: Memory, received_at: datetime | None = None, now: datetime | None = None) -> str:
    """What the memory is and where it came from, on one line, in words (how often it was seen is
    its own label beside it)."""
    parts = [
        TYPE_SINGULAR[memory.type],
        CONFIDENCE_LABELS[memory.confidence],
        source_words(memory.source, received_at or memory.created_at, now),
    ]
    parts.append(f"Updated {time_ago(memory.updated_at, now)}")
    if memory.tags:
        parts.append(tags_words(memory.tags))
    return " · ".join(parts)


Row = dict[str, Any]


def row_data(memory: Memory, facts: RowFacts, *, selected: bool = False) -> Row:
    """One row as the browser draws it (every value text or a number: the template shows them as text)."""
    count = facts.usage.count if facts.usage is not None else 0
    last_at = facts.usage.last_at if facts.usage is not None else None
    return {
        "id": memory.id,
        "name": clip(memory.content, NAME_CHARS),
        "text": memory.content,
        "long": is_long(memory.content),
        "hidden": bool(memory.hidden_from_coach),
        "meta": meta_line(memory, facts.received_at),
        "seen": f"Seen {memory.occurrences}×" if memory.occurrences > 1 else "",
        "usage": usage_text(count, last_at),
        "usage_title": last_at.strftime("%d %b %Y, %H:%M UTC") if last_at is not None else "",
        "selected": selected,
    }


ACTIONS = ("edit", "history", "toggle_hidden", "delete")
BUSY_ACTIONS = ("history", "toggle_hidden", "delete")  # run from the "more" menu: its button shows the work


class MemoryRows(ui.element, component=ASSETS / "components" / "memory_rows.js"):
    def __init__(self, actions: MemoryActions, on_select: Callable[[Memory, bool], None]) -> None:
        super().__init__()
        self.actions = actions
        self.on_select = on_select
        self.memories: dict[int, Memory] = {}
        # Plain dicts, sent as one JSON string (ui/components/page_json.py): NiceGUI wraps a list or dict
        # put into props in observable copies (dozens of objects per row); a string it sends as it is.
        self._rows: list[dict[str, Any]] = []
        self._props["rows"] = "[]"
        self._props["selecting"] = False
        self._props["busy"] = None
        self._props["hidden-note"] = HIDDEN_FROM_COACH
        self.on("action", self._action)
        self.on("select", self._selected)

    def show(self, memories: Iterable[tuple[Memory, Row]], *, selecting: bool, selected: set[int]) -> None:
        """Show these rows instead of the ones shown."""
        self.memories = {}
        self._rows = []
        self._props["selecting"] = selecting
        self.append(memories, selected=selected)

    def append(self, memories: Iterable[tuple[Memory, Row]], *, selected: set[int]) -> None:
        """Add these rows (`row_data`, put in words where they were read) after the ones shown."""
        for memory, row in memories:
            if memory.id in self.memories:
                continue
            self.memories[memory.id] = memory
            self._rows.append({**row, "selected": memory.id in selected})
        self._publish()

    def mark_selected(self, selected: set[int]) -> None:
        """Tick exactly these rows: the browser ticks its boxes, the rows are not sent again (they
        carry the ticks the next time they are)."""
        for row in self._rows:
            row["selected"] = row["id"] in selected
        self.run_method("setTicks", sorted(selected))

    def _publish(self) -> None:
        self._props["rows"] = page_json(self._rows)
        self.update()

    def shown_rows(self) -> list[dict[str, Any]]:
        """The rows as the browser gets them, in order."""
        return [dict(row) for row in self._rows]

    def texts(self, key: str) -> list[str]:
        """What the rows show under `key` ("text", "meta", "usage", …), in order."""
        return [str(row[key]) for row in self._rows]

    def _displayed_contents(self, *, only_visible: bool) -> list[Any]:
        """The rows' text, so that a simulated user (nicegui.testing.User) sees what a person would."""
        shown: list[Any] = []
        for row in self._rows:
            shown += [row["text"], row["meta"], row["seen"], row["usage"]]
            if row["hidden"]:
                shown.append(HIDDEN_FROM_COACH)
        return shown

    def _memory(self, args: Any) -> Memory | None:
        row_id = args.get("id") if isinstance(args, dict) else None
        return self.memories.get(row_id) if isinstance(row_id, int) else None

    def _action(self, event: events.GenericEventArguments) -> None:
        memory = self._memory(event.args)
        action = event.args.get("action") if isinstance(event.args, dict) else None
        if memory is None or action not in ACTIONS:
            return  # not a row this page showed, or not an action it offers
        result = getattr(self.actions, action)(memory)
        if inspect.isawaitable(result):  # an action that takes time runs on; its button shows the work
            background_tasks.create(self._busy(memory, result, shown=action in BUSY_ACTIONS), name=f"row {action}")

    async def _busy(self, memory: Memory, work: Awaitable[None], *, shown: bool) -> None:
        if shown:
            self._props["busy"] = memory.id
            self.update()
        try:
            with self.parent_slot or self.client.layout.default_slot:  # where a click's handler runs
                await work
        finally:
            if shown and not self.is_deleted and self._props["busy"] == memory.id:
                self._props["busy"] = None
                self.update()

    def _selected(self, event: events.GenericEventArguments) -> None:
        memory = self._memory(event.args)
        if memory is None:
            return
        value = bool(event.args.get("value"))
        for row in self._rows:  # kept for the next time the rows are sent; the browser shows the tick already
            if row["id"] == memory.id:
                row["selected"] = value
        # and is told it was taken: rows sent after the tick and before this reset it in the browser
        self.run_method("setTick", memory.id, value)
        self.on_select(memory, value)
