"""The page's header (Quasar's q-header, drawn by NiceGUI's own header component) without
`ui.header`'s value binding: the app's header is always shown, so there is nothing to bind.

`ui.header` is a value element (a bindable "shown" property and its change listener) that costs the
event loop about 0.1 ms on every page; this one sends the browser the same element, placed where
`ui.header` places it (first in the page's layout, the layout told the header is fixed), for about
a third of that (tests/perf/page_reads.py --build).
"""

from __future__ import annotations

from pathlib import Path

import nicegui
from nicegui import context, ui

HEADER_JS = Path(nicegui.__file__).parent / "elements" / "header.js"  # the component ui.header draws with


class PlainHeader(ui.element, component=HEADER_JS, default_classes="nicegui-header"):
    def __init__(self) -> None:
        layout = context.client.layout
        with layout:
            super().__init__()
        # ui.header's defaults: shown, no border or shadow, link targets kept clear of it when scrolled to
        self._props.update({"model-value": True, "bordered": False, "elevated": False, "add-scroll-padding": True})
        self._classes.append("wrap")
        view = layout.props["view"]
        layout.props["view"] = f"{view[0]}H{view[2:]}"  # fixed to the top of the page
        self.move(target_index=0)
