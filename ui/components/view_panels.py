"""The Context page's two views as Quasar tab panels, shown by the page's tabs.

`ui.tab_panels` and `ui.tab_panel` carry a value, a binding to the tabs, an enabled state and their
listeners: about 0.75 ms of the event loop for the three on every page, for panels whose only job
is to show the view the tabs name. Here they are the plain q-tab-panels and q-tab-panel elements
with the same props and classes, and the page tells them which view to show when its tabs change
(the browser never changes them on its own: they are not swipeable).
"""

from __future__ import annotations

from nicegui import ui

PANELS_PROPS = {"animated": "false", "keep-alive": True}  # as the page set them on ui.tab_panels


class ViewPanels(ui.element):
    def __init__(self, view: str) -> None:
        super().__init__("q-tab-panels")
        self._props.update({"model-value": view, **PANELS_PROPS})
        self.classes("mr-panels w-full")

    @property
    def shown(self) -> str:
        return str(self._props["model-value"])

    def show(self, view: str) -> None:
        if self._props["model-value"] != view:
            self._props["model-value"] = view
            self.update()

    def panel(self, view: str) -> ui.element:
        """A view's panel (q-tab-panel, NiceGUI's column layout for its content)."""
        panel = ui.element("q-tab-panel").classes("nicegui-tab-panel mr-panel")
        panel._props["name"] = view
        return panel
