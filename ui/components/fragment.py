"""An element that is only its children in the page (no element of its own in the browser, as a
refreshable's container): a place to add elements later among their siblings, e.g. a list's rows
built a few per turn (ui/components/turns.py)."""

from __future__ import annotations

from pathlib import Path

import nicegui
from nicegui import ui

SLOT_ONLY_JS = Path(nicegui.__file__).parent / "functions" / "refreshable.js"  # template: <slot></slot>


class Fragment(ui.element, component=SLOT_ONLY_JS):
    pass
