"""A link to one of the app's pages, drawn by NiceGUI's own link component (so an app served under a
path prefix still links right), without `ui.link`'s bindable text: the text is fixed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import nicegui
from nicegui import ui

LINK_JS = Path(nicegui.__file__).parent / "elements" / "link.js"


class PlainLink(ui.element, component=LINK_JS, default_classes="nicegui-link"):
    def __init__(self, text: str, href: str) -> None:
        super().__init__()
        self._text = text  # sent as the element's text, as ui.link sends it
        self._props.update({"href": href, "target": "_self"})

    @property
    def text(self) -> str:
        return str(self._text)

    def _displayed_contents(self, *, only_visible: bool) -> list[Any]:
        return [self._text]
