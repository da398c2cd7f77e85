"""A button that is only a Quasar q-btn and a click listener.

`ui.button` builds five mixins (text, icon, colour, enabled, awaitable click), each with its own
bindable properties: about half a millisecond of the event loop per button, and the Context page
opens with eight of them. Where a button only starts something (log out, open a dialog, show more),
this one looks the same (the theme's button props included), is found and clicked by its label as
`ui.button` is, and costs the loop a fraction of that.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from nicegui import ui

from ui.components.fixed_props import parsed


class PlainButton(ui.element):
    def __init__(
        self,
        text: str = "",
        *,
        icon: str | None = None,
        color: str = "primary",
        props: str = "",
        on_click: Callable[[], Any] | None = None,
    ) -> None:
        """`props`: Quasar props written in the code (ui/components/fixed_props.py)."""
        super().__init__("q-btn")
        own = {"color": color, "label": text, **({"icon": icon} if icon is not None else {}), **parsed(props)}
        self._props.update({**ui.button._default_props, **own})  # the theme's (ui/server.py), as ui.button takes them
        if on_click is not None:
            self.on_click(on_click)

    def on_click(self, handler: Callable[[], Any]) -> PlainButton:
        return self.on("click", lambda _: handler(), [])  # [] : the browser sends no event data

    @property
    def text(self) -> str:
        return str(self._props["label"])

    def set_text(self, text: str) -> None:
        if self._props["label"] != text:
            self._props["label"] = text
            self.update()
