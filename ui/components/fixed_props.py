"""Quasar props written in the code, parsed once per process and set in one change.

`element.props("flat round aria-label=…")` parses its text with a regular expression (and
`ast.literal_eval` for each quoted value) on every call, and sets each prop on its own: each one a
change that schedules the element's update. That is 20-60 µs of the event loop per call, and a page
makes a dozen such calls with the same strings every time. Here a string is parsed the first time
and its props are set with one update.

Only for strings written in the code: the cache keeps every string it is given.
"""

from __future__ import annotations

from functools import cache
from typing import Any, TypeVar

from nicegui import ui
from nicegui.props import Props

E = TypeVar("E", bound=ui.element)


@cache
def parsed(text: str) -> dict[str, Any]:
    return Props.parse(text)


def fixed_props(element: E, text: str) -> E:
    element.props.update(parsed(text))
    return element
