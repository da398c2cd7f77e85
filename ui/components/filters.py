"""Search, filters and sort for the memory list. Holds the choices; says when they change.

The search box sits in the page's sticky header (`FilterBar.search_box`); type is chosen with the
list's type chips (one type, or all); source, confidence and sort sit above the list."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import astuple, field

from nicegui import binding, ui

from domain.enums import MemoryConfidence, MemorySource, MemoryType
from domain.memory_lists import MemoryQuery, SortKey
from ui.components.labels import CONFIDENCE_LABELS, SOURCE_LABELS

SORT_LABELS: dict[str, str] = {
    "updated": "Last updated",
    "created": "Newest first",
    "alpha": "A–Z",
    "seen": "Most seen",
    "confidence": "Confidence",
}
SORT_KEYS: dict[str, SortKey] = {"updated": "updated", "created": "created", "alpha": "alpha", "seen": "seen",
                                 "confidence": "confidence"}  # fmt: skip


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

    def query(self, *, limit: int) -> MemoryQuery:
        """The list's query: the chosen type (or every type), the other filters, the sort."""
        return MemoryQuery(
            types=frozenset(MemoryType(t) for t in self.types),
            sources=frozenset(MemorySource(s) for s in self.sources),
            confidences=frozenset(MemoryConfidence(c) for c in self.confidences),
            text=self.text,
            sort=SORT_KEYS.get(self.sort, "updated"),
            limit=limit,
        )


class FilterBar:
    """The controls write into `filters` through their bindings; `on_change` runs once per new choice."""

    def __init__(self, filters: MemoryFilters, on_change: Callable[[], Awaitable[None]]) -> None:
        self.filters = filters
        self.on_change = on_change
        self.applied = astuple(filters)

    def search_box(self) -> ui.input:
        search = (
            ui.input("Search memories")
            .bind_value(self.filters, "text", forward=lambda value: value or "")
            .props('dense outlined clearable debounce=300 type=search role="searchbox"')
            .classes("mr-search")
            .mark("search")
        )
        with search.add_slot("prepend"):
            ui.icon("search").props('aria-hidden="true"')
        search.on_value_change(self.changed)
        return search

    def controls(self) -> None:
        """Source and confidence filters and the sort, in one wrapping row; on a phone they fold
        behind "Filter & sort" (assets/app.css), so the first memory is on the first screen."""
        with ui.element("div").classes("mr-filters") as row:
            toggle = (
                ui.button("Filter & sort", icon="tune", color="brand")
                .props('flat dense no-caps aria-expanded="false"')
                .classes("mr-filters-toggle")
                .mark("filters-toggle")
            )
            toggle.on_click(lambda: self._fold(row, toggle))
            sources = _multi(
                "Source", {s.value: SOURCE_LABELS[s] for s in MemorySource}, (self.filters, "sources"), "filter-source"
            )
            confidences = _multi(
                "Confidence",
                {c.value: CONFIDENCE_LABELS[c] for c in MemoryConfidence},
                (self.filters, "confidences"),
                "filter-confidence",
            )
            sort = ui.select(SORT_LABELS, label="Sort by").bind_value(self.filters, "sort")
            sort.props("dense options-dense").classes("mr-filter").mark("sort")
        for element in (sources, confidences, sort):
            element.on_value_change(self.changed)

    @staticmethod
    def _fold(row: ui.element, toggle: ui.button) -> None:
        opened = "mr-filters-open" not in row.classes
        if opened:
            row.classes(add="mr-filters-open")
        else:
            row.classes(remove="mr-filters-open")
        toggle.props(f'aria-expanded="{str(opened).lower()}"')

    async def choose_type(self, memory_type: str | None) -> None:
        self.filters.types = [memory_type] if memory_type else []
        await self.changed()

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
        .props("dense options-dense use-chips")
        .classes("mr-filter")
        .mark(marker)
    )
