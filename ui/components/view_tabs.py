"""The Context page's tabs ('To review', 'Memories') as plain Quasar q-tabs and q-tab elements.

`ui.tabs` and `ui.tab` are value, label, icon and enabled mixins with their bindable properties:
about 230 µs of the event loop for the three on every page, against about 100 µs for plain elements
(tests/perf/page_reads.py --build). Quasar moves the tabs in the browser on its own (the q-tabs are
given no update listener); a tab's click (a pointer, or Enter or Space on the focused tab) tells
the server, which shows that tab's panel. When the server shows a view itself (a search shows the
memories), it moves the tabs too.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from nicegui import events, ui

from ui.components.fixed_props import parsed

TABS_PROPS = "dense no-caps inline-label align=left"
Changed = Callable[[], Awaitable[None] | None]


class ViewTabs(ui.element):
    """`show(view)` shows a view's panel, at once; `on_change` runs after it (read `value`)."""

    def __init__(self, view: str, *, show: Callable[[str], None], on_change: Changed) -> None:
        super().__init__("q-tabs")
        self._props.update({**ui.tabs._default_props, **parsed(TABS_PROPS), "model-value": view})
        self._show = show
        self._on_change = on_change

    @property
    def value(self) -> str:
        return str(self._props["model-value"])

    def set_value(self, view: str) -> None:
        """Show `view`: its tab and its panel."""
        if view != self.value:
            self._props["model-value"] = view
            self.update()
            self._shown(view)

    def tab(self, view: str, label: str, icon: str) -> ui.element:
        tab = ui.element("q-tab")
        tab._props.update({"name": view, "label": label, "icon": icon})
        tab.on("click", lambda _: self._clicked(view), [])
        return tab

    def _clicked(self, view: str) -> None:
        if view != self.value:
            self._props["model-value"] = view  # the browser shows it already
            self._shown(view)

    def _shown(self, view: str) -> None:
        self._show(view)  # at once, not in a task
        changed = events.ValueChangeEventArguments(sender=self, client=self.client, value=view)
        events.handle_event(self._on_change, changed)
