"""Search, filters and sort for the memory list. Holds the choices; says when they change.

The search box sits in the page's sticky header (`FilterBar.search_box`); type is chosen with the
list's type chips (one type, or all); source, confidence and sort sit above the list, one element
drawn in the browser (ui/components/filter_controls.py)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import astuple, field

from nicegui import binding, ui
from nicegui.events import ValueChangeEventArguments

from domain.enums import MemoryConfidence, MemorySource, MemoryType
from domain.memory_lists import MemoryQuery, SortKey
from ui.components.filter_controls import FilterControls
from ui.components.fixed_props import fixed_props

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
    """The controls write into `filters` as they change; `on_change` runs once per new choice."""

    def __init__(self, filters: MemoryFilters, on_change: Callable[[], Awaitable[None]]) -> None:
        self.filters = filters
        self.on_change = on_change
        self.search: ui.input | None = None
        self.applied = astuple(filters)
        self.fields: FilterControls | None = None

    def search_box(self) -> ui.input:
        """Its text goes into the filters as it changes (no binding: a two-way binding costs the page's
        build about 40 µs of the event loop); `clear` empties it."""
        self.search = search = ui.input("Search memories")
        fixed_props(search, 'dense outlined clearable debounce=300 type=search role="searchbox"')
        search.classes("mr-search").mark("search")
        with search.add_slot("prepend"):
            fixed_props(ui.element("q-icon"), 'name=search aria-hidden="true"')  # a plain q-icon: nothing to update
        search.on_value_change(self._typed)
        return search

    async def _typed(self, event: ValueChangeEventArguments[str | None]) -> None:
        self.filters.text = event.value or ""  # the clear button sends None
        await self.changed()

    def controls(self) -> FilterControls:
        """Source and confidence filters and the sort, in one wrapping row; on a phone they fold
        behind "Filter & sort" (assets/app.css), so the first memory is on the first screen."""
        self.fields = FilterControls(self._chosen).mark("filters")
        self._show_fields()
        return self.fields

    async def _chosen(self, sources: list[str], confidences: list[str], sort: str) -> None:
        self.filters.sources, self.filters.confidences, self.filters.sort = sources, confidences, sort
        await self.changed()

    def _show_fields(self) -> None:
        if self.fields is not None:
            self.fields.show(self.filters.sources, self.filters.confidences, self.filters.sort)

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
        if self.search is not None:
            self.search.set_value("")
        self.filters.types, self.filters.sources, self.filters.confidences = [], [], []
        self._show_fields()
        await self.changed()
