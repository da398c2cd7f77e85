"""The type chips above the memory list: "All" and one per type, each with its count; pressing one
shows only that type, pressing it again shows all. One element, the chips drawn in the browser
(assets/components/type_chips.js); a value the page did not offer is ignored."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from nicegui import events, ui

from domain.enums import MemoryType
from ui.assets import ASSETS
from ui.components.labels import TYPE_LABELS, TYPE_ORDER

ALL = ""  # the "All" chip's value


class TypeChips(ui.element, component=ASSETS / "components" / "type_chips.js"):
    def __init__(self, on_choose: Callable[[str | None], Awaitable[None]]) -> None:
        super().__init__()
        self.on_choose = on_choose
        self._pressed: dict[str, bool] = {}
        self._props["chips"] = ()  # a tuple of plain dicts: NiceGUI sends it as it is (see memory_rows.py)
        self.on("choose", self._chosen)

    def show(self, counts: Mapping[MemoryType, int], chosen: str | None) -> None:
        chips: list[dict[str, Any]] = [{"value": ALL, "label": f"All ({sum(counts.values())})", "pressed": not chosen}]
        for memory_type in TYPE_ORDER:
            label = f"{TYPE_LABELS[memory_type]} ({counts.get(memory_type, 0)})"
            chips.append({"value": memory_type.value, "label": label, "pressed": chosen == memory_type.value})
        self._pressed = {chip["value"]: chip["pressed"] for chip in chips}
        self._props["chips"] = tuple(chips)
        self.update()

    def labels(self) -> list[str]:
        return [chip["label"] for chip in self._props["chips"]]

    def pressed(self) -> list[str]:
        return [chip["label"] for chip in self._props["chips"] if chip["pressed"]]

    def _displayed_contents(self, *, only_visible: bool) -> list[Any]:
        return self.labels()

    async def _chosen(self, event: events.GenericEventArguments) -> None:
        value = event.args.get("value") if isinstance(event.args, dict) else None
        if not isinstance(value, str) or value not in self._pressed:
            return
        await self.on_choose(None if value == ALL or self._pressed[value] else value)
