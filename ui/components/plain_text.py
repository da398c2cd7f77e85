"""Text someone typed (a name), shown as text, that keeps the page's element tree plain ASCII
(ui/components/page_json.py explains why that matters)."""

from __future__ import annotations

from typing import Any

from nicegui import ui

from ui.assets import ASSETS
from ui.components.page_json import page_json


class PlainText(ui.element, component=ASSETS / "components" / "plain_text.js"):
    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text
        self._props["text"] = page_json(text)

    def _displayed_contents(self, *, only_visible: bool) -> list[Any]:
        return [self.text]
