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
        chip_counts = {memory_type.value: f"{counts.get(memory_type, 0)}" for memory_type in TYPE_ORDER}
        self._show(f"{sum(counts.values())}", chip_counts, chosen)

    def show_uncounted(self, all_count: str, chosen: str | None, chosen_count: str) -> None:
        """Types not counted one by one (a search with very many matches): "All" and the chosen type
        say what was counted, e.g. "1,000+"; the other types carry no number."""
        self._show(all_count, {chosen: chosen_count} if chosen else {}, chosen)

    def _show(self, all_count: str, counts: Mapping[str, str], chosen: str | None) -> None:
        chips: list[dict[str, Any]] = [{"value": ALL, "label": f"All ({all_count})", "pressed": not chosen}]
        for memory_type in TYPE_ORDER:
            count = counts.get(memory_type.value)
            label = TYPE_LABELS[memory_type] if count is None else f"{TYPE_LABELS[memory_type]} ({count})"
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
