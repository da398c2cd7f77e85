"""What was learned per week (a chart, built only when opened)."""

from __future__ import annotations

from typing import Any

from nicegui import ui

from domain.overview import Overview
from ui.components.disclosure import Disclosure
from ui.components.fixed_props import fixed_props

AXIS_GREY = "#8a94a3"


def _chart_options(data: Overview) -> dict[str, Any]:
    weeks = data.learned_per_week
    return {
        "aria": {"enabled": True},
        "animation": False,
        "grid": {"left": 28, "right": 8, "top": 12, "bottom": 24},
        "tooltip": {"trigger": "axis"},
        "xAxis": {
            "type": "category",
            "data": [w.week_start.strftime("%d %b") for w in weeks],
            "axisLabel": {"color": AXIS_GREY, "fontSize": 10},
            "axisTick": {"show": False},
        },
        "yAxis": {
            "type": "value",
            "minInterval": 1,
            "axisLabel": {"color": AXIS_GREY, "fontSize": 10},
            "splitLine": {"lineStyle": {"color": "rgba(138,148,163,0.25)"}},
        },
        "series": [
            {
                "name": "Memories learned",
                "type": "bar",
                "data": [w.count for w in weeks],
                "itemStyle": {"color": "#14b8a6", "borderRadius": [3, 3, 0, 0]},
            }
        ],
    }


def _summary(data: Overview) -> str:
    learned = sum(w.count for w in data.learned_per_week)
    return f"{learned} memories learned in the last {len(data.learned_per_week)} weeks"


class OverviewPanel:
    """'Learned per week': a one-line summary and the chart, built when the athlete opens it (the
    per-type counts are the list's type chips, and the page's tabs carry the totals)."""

    def __init__(self, data: Overview) -> None:
        self.data = data
        self.chart: ui.echart | None = None
        self.summary: ui.label | None = None
        with fixed_props(ui.element("section"), 'aria-label="Learned per week"').classes("w-full").mark("overview"):
            self.expansion = Disclosure("Learned per week", icon="bar_chart", on_toggle=self._toggled,
                                        props="dense-toggle")  # fmt: skip
            self.expansion.classes("mr-card mr-learned w-full").mark("learned")

    def _toggled(self) -> None:
        if self.expansion.value and self.chart is None:
            with self.expansion.body():
                self.summary = ui.label(_summary(self.data)).classes("mr-muted text-sm").mark("overview-summary")
                self.chart = ui.echart(_chart_options(self.data), renderer="svg").classes("mr-chart")

    def update(self, data: Overview) -> None:
        self.data = data
        if self.summary is not None:
            self.summary.set_text(_summary(data))
        if self.chart is not None:
            self.chart.options.clear()
            self.chart.options.update(_chart_options(data))
            self.chart.update()
