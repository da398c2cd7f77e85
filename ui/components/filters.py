"""Search, filters and sort for the memory list. Holds the choices; says when they change."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import astuple, field

from nicegui import binding, ui

from domain.enums import MemoryConfidence, MemorySource, MemoryType
from domain.memory_lists import MemoryQuery, SortKey
from ui.components.labels import CONFIDENCE_LABELS, SOURCE_LABELS, TYPE_LABELS, TYPE_ORDER

SORT_LABELS: dict[str, str] = {"updated": "Last updated", "confidence": "Confidence"}


@binding.bindable_dataclass
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
    """Build the controls, bound to `filters`; return a function that clears every filter."""
    return FilterBar(filters, on_change).clear


class FilterBar:
    """The controls write into `filters` through their bindings; `on_change` runs once per new choice."""

    def __init__(self, filters: MemoryFilters, on_change: Callable[[], Awaitable[None]]) -> None:
        self.filters = filters
        self.on_change = on_change
        self.applied = astuple(filters)
        with ui.row().classes("mr-filters w-full items-start gap-2"):
            search = (
                ui.input("Search memories")
                .bind_value(filters, "text", forward=lambda value: value or "")
                .props('dense clearable debounce=300 type=search role="searchbox"')
                .classes("mr-search")
                .mark("search")
            )
            with search.add_slot("prepend"):
                ui.icon("search").props('aria-hidden="true"')
            types = _multi("Type", {t.value: TYPE_LABELS[t] for t in TYPE_ORDER}, (filters, "types"), "filter-type")
            sources = _multi(
                "Source", {s.value: SOURCE_LABELS[s] for s in MemorySource}, (filters, "sources"), "filter-source"
            )
            confidences = _multi(
                "Confidence",
                {c.value: CONFIDENCE_LABELS[c] for c in MemoryConfidence},
                (filters, "confidences"),
                "filter-confidence",
            )
            sort = ui.select(SORT_LABELS, label="Sort by").bind_value(filters, "sort")
            sort.props("dense").classes("mr-filter").mark("sort")
        for element in (search, types, sources, confidences, sort):
            element.on_value_change(self.changed)

    async def changed(self) -> None:
        """Reload only for a choice not yet applied (clearing changes several fields at once)."""
        chosen = astuple(self.filters)
        if chosen == self.applied:
            return
        self.applied = chosen
        await self.on_change()

    async def clear(self) -> None:
        self.filters.text = ""
        self.filters.types, self.filters.sources, self.filters.confidences = [], [], []
        await self.changed()


def _multi(label: str, options: dict[str, str], bound: tuple[MemoryFilters, str], marker: str) -> ui.select:
    return (
        ui.select(options, label=label, multiple=True)
        .bind_value(*bound, forward=lambda value: list(value or []))
        .props("dense use-chips")
        .classes("mr-filter")
        .mark(marker)
    )
