"""A notification with 'Undo' that stays for 10 seconds (a snackbar reachable with Tab).

It sits at the bottom centre; the app's toasts are lifted above it (assets/app.css), so a toast
never covers Undo."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from nicegui import ui

from ui.components.fixed_props import fixed_props
from ui.components.focus import focus

UNDO_SECONDS = 10.0


class UndoBar:
    """The live region is on the page from the start (a screen reader announces what appears in it);
    its message and buttons are built the first time there is something to undo."""

    def __init__(self) -> None:
        self._on_undo: Callable[[], Awaitable[None]] | None = None
        self.bar = fixed_props(ui.element("div"), 'role="status" aria-live="polite"').classes("mr-undo")
        self.bar.mark("undo-bar")
        self.bar.set_visibility(False)
        self.message: ui.label | None = None
        self.undo_button: ui.button | None = None
        self.timer: ui.timer | None = None

    def _build(self) -> ui.label:
        if self.message is None:
            with self.bar:
                self.message = ui.label("").classes("mr-undo-text")
                self.undo_button = (
                    ui.button("Undo", color="amber-4", on_click=self._undo)
                    .props("flat")
                    .classes("text-weight-bold")
                    .mark("undo")
                )
                ui.button(icon="close", on_click=self.hide).props('flat round dense color=white aria-label="Dismiss"')
        return self.message

    def show(self, message: str, on_undo: Callable[[], Awaitable[None]]) -> None:
        self._on_undo = on_undo
        self._build().set_text(message)
        self.bar.set_visibility(True)
        if self.timer is not None:
            self.timer.cancel()
        with self.bar:  # not in the caller's context: that card may be gone after the refresh
            self.timer = ui.timer(UNDO_SECONDS, self.hide, once=True)

    def focus(self) -> None:
        """Put keyboard focus on Undo (after a delete left no row to move to)."""
        if self.undo_button is not None:
            focus(self.undo_button)

    def hide(self) -> None:
        self._on_undo = None
        self.bar.set_visibility(False)

    async def _undo(self) -> None:
        action, self._on_undo = self._on_undo, None
        self.bar.set_visibility(False)
        if action is not None:
            await action()
