"""Source and confidence filters and the sort, as one element drawn in the browser
(assets/components/filter_controls.js): three fields and the phone's "Filter & sort" toggle, with one
event listener instead of ten and no server-side state but the choice. A value the page did not offer
is ignored."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import cache
from typing import Any

from nicegui import events, ui

from domain.enums import MemoryConfidence, MemorySource
from ui.assets import ASSETS
from ui.components.labels import CONFIDENCE_LABELS, SOURCE_LABELS
from ui.components.page_json import page_json

SORT_LABELS: dict[str, str] = {
    "updated": "Last updated",
    "created": "Newest first",
    "alpha": "A–Z",
    "seen": "Most seen",
    "confidence": "Confidence",
}
SOURCES = {s.value: SOURCE_LABELS[s] for s in MemorySource}
CONFIDENCES = {c.value: CONFIDENCE_LABELS[c] for c in MemoryConfidence}
FIELD_LABELS = ("Filter & sort", "Source", "Confidence", "Sort by")


@cache
def _options() -> str:
    """The same for every page: encoded once per process."""
    return page_json(
        {
            "sources": [{"value": v, "label": label} for v, label in SOURCES.items()],
            "confidences": [{"value": v, "label": label} for v, label in CONFIDENCES.items()],
            "sorts": [{"value": v, "label": label} for v, label in SORT_LABELS.items()],
        }
    )


class FilterControls(ui.element, component=ASSETS / "components" / "filter_controls.js"):
    """`on_change(sources, confidences, sort)` runs for each choice the athlete makes."""

    def __init__(self, on_change: Callable[[list[str], list[str], str], Awaitable[None]]) -> None:
        super().__init__()
        self.on_change = on_change
        self.sources: list[str] = []
        self.confidences: list[str] = []
        self.sort = "updated"
        self._props["options"] = _options()
        self._publish()
        self.on("change", self._changed)

    def show(self, sources: list[str], confidences: list[str], sort: str) -> None:
        """Show this choice (made by the page, not in these fields)."""
        if (sources, confidences, sort) != (self.sources, self.confidences, self.sort):
            self.sources, self.confidences, self.sort = list(sources), list(confidences), sort
            self._publish()
            self.update()

    def _publish(self) -> None:
        self._props["chosen"] = page_json({"sources": self.sources, "confidences": self.confidences, "sort": self.sort})

    def _displayed_contents(self, *, only_visible: bool) -> list[Any]:
        """What a person reads on the fields: their labels and what is chosen in them."""
        chosen = [SOURCES[s] for s in self.sources] + [CONFIDENCES[c] for c in self.confidences]
        return [*FIELD_LABELS, *chosen, SORT_LABELS[self.sort]]

    def _changed(self, event: events.GenericEventArguments) -> Awaitable[None] | None:
        """Takes the choice at once (a second pick builds on it), then runs `on_change` on the event loop."""
        args = event.args if isinstance(event.args, dict) else {}
        sources = _known(args.get("sources"), SOURCES)
        confidences = _known(args.get("confidences"), CONFIDENCES)
        sort = args.get("sort")
        sort = sort if isinstance(sort, str) and sort in SORT_LABELS else self.sort
        self.sources, self.confidences, self.sort = sources, confidences, sort
        self._publish()  # what the browser shows already: kept for the next time the page is sent
        return self.on_change(sources, confidences, sort)


def _known(values: Any, offered: dict[str, str]) -> list[str]:
    """The offered values among `values`, in the order offered; anything else is dropped."""
    chosen = {value for value in values if isinstance(value, str)} if isinstance(values, list) else set()
    return [value for value in offered if value in chosen]
