"""Dialog scaffolding shared by the page's dialogs: titled, closable with Escape, removed on close."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from typing import ParamSpec, TypeVar

from nicegui import ElementFilter, ui

Params = ParamSpec("Params")
Result = TypeVar("Result")


@contextmanager
def titled_dialog(title: str, *, marker: str, wide: bool = False) -> Iterator[ui.dialog]:
    """A dialog named by its title; Escape or the close button closes it; it is deleted once hidden."""
    width = "mr-dialog-wide" if wide else "mr-dialog"
    with (
        ui.context.client.layout,  # not inside the card that opened it: a refresh may remove that card
        ui.dialog().mark(marker) as dialog,
        ui.card().classes(f"{width} gap-3"),
    ):
        dialog.props["aria-label"] = title  # any text, without building a props string from it
        with ui.row().classes("w-full items-center justify-between no-wrap"):
            ui.label(title).classes("text-xl font-semibold").props('role="heading" aria-level="2"')
            ui.button(icon="close", color="meta", on_click=dialog.close).props('flat round dense aria-label="Close"')
        yield dialog
    # Deleted once the browser has hidden it, never inside the handler that closed it (which may go on).
    dialog.on("hide", dialog.delete)
    dialog.open()


def one_at_a_time(marker: str) -> Callable[[Callable[Params, Result]], Callable[Params, Result | None]]:
    """A function that opens the dialog `marker` does nothing while that dialog is open in this browser.

    A double click sends two clicks before the first one's dialog covers the button: the second
    would open a copy under the first, left behind when the first is closed."""

    def guard(open_dialog: Callable[Params, Result]) -> Callable[Params, Result | None]:
        @wraps(open_dialog)
        def guarded(*args: Params.args, **kwargs: Params.kwargs) -> Result | None:
            if any(dialog.value for dialog in ElementFilter(kind=ui.dialog, marker=marker)):
                return None
            return open_dialog(*args, **kwargs)

        return guarded

    return guard
