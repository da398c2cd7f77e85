"""A sign of work: a button's spinner while the action it started runs."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from nicegui import ui


async def busy(button: ui.button, action: Callable[[], Awaitable[object]]) -> None:
    """Show the button as working (a spinner, not clickable again) until the action is done."""
    button.props("loading")
    try:
        await action()
    finally:
        if not button.is_deleted:  # a refresh often removed it already
            button.props(remove="loading")
