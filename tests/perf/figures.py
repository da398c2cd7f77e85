"""The figures of one `make bench` run: bench modules call `record`, run_all prints and saves them.

A module of its own (not run_all, which runs as __main__): every bench module that imports it,
and run_all, share the one registry.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

# The unit is the name's last part(s): context_page_first_memory_ms, search_p95_ms_1m, add_per_s_sqlite.
UNITS = {
    "ms": "ms",
    "s": "s",
    "per_s": "/s",
    "rps": "/s",
    "mib": "MiB",
    "kib": "KiB",
    "pct": "%",
    "x": "×",
    "count": "",
}


@dataclass(frozen=True)
class Figure:
    name: str
    value: float
    unit: str
    load: float  # the 1-minute load average when it was recorded (2 shared cores: noisy)


_figures: dict[str, Figure] = {}


def unit_of(name: str) -> str:
    """The unit a figure's name carries: its last `_ms`, `_per_s`, `_mib`, … part, wherever it is."""
    parts = name.lower().split("_")
    for i in range(len(parts) - 1, -1, -1):
        if i > 0 and f"{parts[i - 1]}_{parts[i]}" in UNITS:
            return UNITS[f"{parts[i - 1]}_{parts[i]}"]
        if parts[i] in UNITS:
            return UNITS[parts[i]]
    return ""


def record(name: str, value: float) -> None:
    """One figure; the unit is in its name (`…_ms`, `…_per_s`, `…_mib`). A later value replaces it."""
    _figures[name] = Figure(name, float(value), unit_of(name), os.getloadavg()[0])


def recorded() -> list[Figure]:
    return list(_figures.values())


def clear() -> None:
    _figures.clear()
