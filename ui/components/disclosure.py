"""A section that opens and closes: Quasar's q-expansion-item as a plain element.

`ui.expansion` is five mixins (sortable, icon, text, value, enabled) with their bindable properties
around NiceGUI's own component: about 130 µs of the event loop to build, against 40 µs for the plain
element (tests/perf/page_reads.py --build). The Context page opens with two, both closed, and both
build their content only when first opened. Here the browser opens and closes the item itself
(Quasar keeps the state when it is given no model value) and tells the server, which keeps
`value`; setting `value` on the server opens or closes it in the browser. It looks and works as
`ui.expansion` does: the header is one focusable control (Enter or Space toggles it) and the content
sits in the same padded column.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from nicegui import events, ui

from ui.components.fixed_props import parsed

Toggled = Callable[[], Awaitable[None] | None]


class Disclosure(ui.element):
    def __init__(self, label: str, *, icon: str, on_toggle: Toggled, props: str = "") -> None:
        """`on_toggle` runs after each open and close (read `value`); `props`: Quasar props written in the code."""
        super().__init__("q-expansion-item")
        self._props.update({"label": label, "icon": icon, **parsed(props)})
        self._classes.append("nicegui-expansion")
        self._value = False
        self._on_toggle = on_toggle
        self._body: ui.element | None = None
        self.on("update:model-value", self._toggled_in_browser, [None])

    @property
    def value(self) -> bool:
        """Whether it is open."""
        return self._value

    @value.setter
    def value(self, value: bool) -> None:
        if self._changed(bool(value)):
            self.run_method("show" if value else "hide")

    def body(self) -> ui.element:
        """The column the content goes in, made the first time it is asked for."""
        if self._body is None:
            with self:
                self._body = ui.element("div").classes("nicegui-expansion-content")
        return self._body

    def _toggled_in_browser(self, event: events.GenericEventArguments) -> None:
        self._changed(event.args is True)

    def _changed(self, value: bool) -> bool:
        if value == self._value:
            return False
        previous, self._value = self._value, value
        client = self.client
        changed = events.ValueChangeEventArguments(sender=self, client=client, value=value, previous_value=previous)
        events.handle_event(self._on_toggle, changed)
        return True
