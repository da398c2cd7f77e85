"""The overview: memories per type, proposals waiting, and what was learned per week (a chart)."""

from __future__ import annotations

from typing import Any

from nicegui import ui

from domain.enums import MemoryType
from domain.overview import Overview
from ui.components.labels import TYPE_ICONS, TYPE_LABELS, TYPE_ORDER

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
    def __init__(self, data: Overview) -> None:
        self.counts: dict[MemoryType, ui.label] = {}
        with ui.element("section").classes("mr-overview w-full").props('aria-label="Overview"').mark("overview"):
            with ui.element("div").classes("mr-tiles"):
                with ui.element("div").classes("mr-tile mr-tile-review"):
                    ui.icon("pending_actions").props('aria-hidden="true"')
                    self.pending = ui.label().classes("mr-tile-count").mark("overview-pending")
                    ui.label("To review").classes("mr-tile-label")
                for memory_type in TYPE_ORDER:
                    with ui.element("div").classes("mr-tile"):
                        ui.icon(TYPE_ICONS[memory_type]).classes("mr-type-icon").props('aria-hidden="true"')
                        self.counts[memory_type] = (
                            ui.label().classes("mr-tile-count").mark(f"overview-{memory_type.value}")
                        )
                        ui.label(TYPE_LABELS[memory_type]).classes("mr-tile-label")
            with ui.element("div").classes("mr-card mr-chart-card"):
                with ui.row().classes("items-baseline justify-between w-full"):
                    ui.label("Learned per week").classes("font-semibold")
                    self.summary = ui.label().classes("mr-muted text-sm").mark("overview-summary")
                self.chart = ui.echart(_chart_options(data), renderer="svg").classes("mr-chart")
        self.update(data, chart=False)

    def update(self, data: Overview, *, chart: bool = True) -> None:
        self.pending.set_text(str(data.pending))
        for memory_type, label in self.counts.items():
            label.set_text(str(data.counts.get(memory_type, 0)))
        self.summary.set_text(_summary(data))
        if chart:
            self.chart.options.clear()
            self.chart.options.update(_chart_options(data))
            self.chart.update()
