"""Search, filters and sort for the memory list. Holds the choices; says when they change."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from nicegui import ui

from domain.enums import MemoryConfidence, MemorySource, MemoryType
from domain.memories import MemoryQuery, SortKey
from ui.components.labels import CONFIDENCE_LABELS, SOURCE_LABELS, TYPE_LABELS, TYPE_ORDER

SORT_LABELS: dict[str, str] = {"updated": "Last updated", "confidence": "Confidence"}


@dataclass
class MemoryFilters:
    text: str = ""
    types: list[str] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)
    confidences: list[str] = field(default_factory=list)
    sort: str = "updated"

    @property
    def active(self) -> bool:
        return bool(self.text.strip() or self.types or self.sources or self.confidences)

    def shown_types(self) -> list[MemoryType]:
        wanted = {MemoryType(t) for t in self.types}
        return [t for t in TYPE_ORDER if not wanted or t in wanted]

    def query(self, memory_type: MemoryType, *, limit: int, offset: int = 0) -> MemoryQuery:
        sort: SortKey = "confidence" if self.sort == "confidence" else "updated"
        return MemoryQuery(
            types=frozenset({memory_type}),
            sources=frozenset(MemorySource(s) for s in self.sources),
            confidences=frozenset(MemoryConfidence(c) for c in self.confidences),
            text=self.text,
            sort=sort,
            limit=limit,
            offset=offset,
        )


def filter_bar(filters: MemoryFilters, on_change: Callable[[], Awaitable[None]]) -> Callable[[], Awaitable[None]]:
    """Build the controls; return a function that clears every filter."""

    quiet = {"on": False}

    async def changed() -> None:
        if quiet["on"]:
            return
        filters.text = search.value or ""
        filters.types = list(types.value or [])
        filters.sources = list(sources.value or [])
        filters.confidences = list(confidences.value or [])
        filters.sort = sort.value or "updated"
        await on_change()

    with ui.row().classes("mr-filters w-full items-start gap-2"):
        search = (
            ui.input("Search memories", value=filters.text)
            .props('outlined dense clearable debounce=300 type=search role="searchbox"')
            .classes("mr-search")
            .mark("search")
        )
        with search.add_slot("prepend"):
            ui.icon("search").props('aria-hidden="true"')
        types = _multi("Type", {t.value: TYPE_LABELS[t] for t in TYPE_ORDER}, filters.types, "filter-type")
        sources = _multi("Source", {s.value: SOURCE_LABELS[s] for s in MemorySource}, filters.sources, "filter-source")
        confidences = _multi(
            "Confidence",
            {c.value: CONFIDENCE_LABELS[c] for c in MemoryConfidence},
            filters.confidences,
            "filter-confidence",
        )
        sort = (
            ui.select(SORT_LABELS, label="Sort by", value=filters.sort)
            .props("outlined dense")
            .classes("mr-filter")
            .mark("sort")
        )
    for element in (search, types, sources, confidences, sort):
        element.on_value_change(changed)

    async def clear() -> None:
        quiet["on"] = True
        search.value = ""
        for element in (types, sources, confidences):
            element.value = []
        quiet["on"] = False
        await changed()

    return clear


def _multi(label: str, options: dict[str, str], value: list[str], marker: str) -> ui.select:
    return (
        ui.select(options, label=label, value=list(value), multiple=True)
        .props("outlined dense use-chips")
        .classes("mr-filter")
        .mark(marker)
    )
