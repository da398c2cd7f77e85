"""One memory as a row of the list: the statement first and strongest, then one quiet line of what it
is and where it came from (in words, not codes), how often the coach used it, whether it is hidden
from the coach; Edit, and the rarely used actions (History, Hide from coach, Delete) in a "more"
menu that is built only when it is first opened.

A row is six elements (seven when hidden or long): the page builds what it shows, not 12+ per memory.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime

from nicegui import ui

from domain.coach_reads import Usage
from domain.models import Memory
from ui.components.busy import busy as busy_while
from ui.components.labels import CONFIDENCE_LABELS, HIDDEN_FROM_COACH, TYPE_SINGULAR, usage_text
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
class Selection:
    """Selection mode: whether this row is ticked, and what to call when the tick changes."""

    selected: bool
    changed: Callable[[Memory, bool], None]


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


def memory_card(
    memory: Memory,
    actions: MemoryActions,
    usage: Usage | None = None,
    *,
    received_at: datetime | None = None,
    selection: Selection | None = None,
) -> ui.button:
    """Build the row; return its first action (where focus goes when the row before it is deleted)."""
    hidden = bool(memory.hidden_from_coach)
    name = clip(memory.content, NAME_CHARS)
    row = ui.element("div").classes("mr-memory").props('role="listitem"').mark(f"memory-{memory.id}")
    row.props["aria-label"] = name  # any text, set without building a props string from it
    if hidden:
        row.classes("mr-memory-hidden")
    with row:
        if selection is not None:
            box = ui.checkbox(value=selection.selected, on_change=lambda e: selection.changed(memory, bool(e.value)))
            box.props("dense").classes("mr-memory-check").mark("memory-select")
            box.props["aria-label"] = f"Select: {name}"
        with ui.element("div").classes("mr-memory-body"):
            text = ui.label(memory.content).classes("mr-memory-text").mark("memory-content")
            if is_long(memory.content):
                text.classes("mr-clamp")
                _expander(text)
            if hidden:
                ui.label(HIDDEN_FROM_COACH).classes("mr-hidden-note").mark("memory-hidden")
            ui.label(meta_line(memory, received_at)).classes("mr-meta mr-inline").mark("memory-meta")
            if memory.occurrences > 1:
                ui.label(f"Seen {memory.occurrences}×").classes("mr-meta mr-inline mr-seen").mark("memory-seen")
            count = usage.count if usage is not None else 0
            last_at = usage.last_at if usage is not None else None
            line = ui.label(usage_text(count, last_at)).classes("mr-meta").mark("memory-usage")
            if last_at is not None:
                line.props["title"] = last_at.strftime("%d %b %Y, %H:%M UTC")
        edit = ui.button("Edit", icon="edit", color="brand", on_click=lambda: actions.edit(memory))
        edit.props("flat dense no-caps").classes("mr-row-action").mark("memory-edit")
        edit.props["aria-label"] = f"Edit: {name}"
        edit.props["data-memory"] = str(memory.id)  # where focus goes after the row before it is deleted
        _more_menu(memory, actions, name, hidden)
    return edit


def _expander(text: ui.label) -> None:
    toggle = ui.button("Show more", color="brand").props('flat dense no-caps aria-expanded="false"')
    toggle.classes("mr-expand").mark("memory-expand")

    def flip() -> None:
        clamped = "mr-clamp" in text.classes
        if clamped:
            text.classes(remove="mr-clamp")
        else:
            text.classes(add="mr-clamp")
        toggle.set_text("Show less" if clamped else "Show more")
        toggle.props["aria-expanded"] = "true" if clamped else "false"
        toggle.update()

    toggle.on_click(flip)


def _more_menu(memory: Memory, actions: MemoryActions, name: str, hidden: bool) -> None:
    """The "more" button; its menu is built on the first click (most rows never open it), and every
    action run from it shows the button busy until it is done."""
    more = ui.button(icon="more_vert", color="meta").props("flat round dense").classes("mr-row-action")
    more.props["aria-label"] = f"More actions for: {name}"
    more.props["aria-haspopup"] = "menu"
    more.mark("memory-more")
    built: list[ui.menu] = []

    def busy(action: MemoryAction) -> Awaitable[None] | None:
        """Run `action`; one that takes time shows the button busy until it is done."""
        result = action(memory)
        return busy_while(more, lambda: result) if inspect.isawaitable(result) else None

    def build() -> None:
        if built:
            return  # built: Quasar opens and closes it on the button's clicks by itself
        with more, ui.menu().props('auto-close role="menu"') as menu:
            items = [ui.menu_item("History", on_click=lambda: busy(actions.history)).mark("memory-history")]
            if hidden:
                items.append(ui.menu_item("Show to coach", on_click=lambda: busy(actions.toggle_hidden)))
                items[-1].mark("memory-show")
            else:
                items.append(ui.menu_item("Hide from coach", on_click=lambda: busy(actions.toggle_hidden)))
                items[-1].mark("memory-hide")
            items.append(ui.menu_item("Delete", on_click=lambda: busy(actions.delete)).classes("mr-danger-text"))
            items[-1].mark("memory-delete")
            for item in items:
                item.props('role="menuitem"')
        built.append(menu)
        menu.open()

    more.on_click(build)
