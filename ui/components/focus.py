"""Move keyboard focus to an element after an action (once the browser has drawn it)."""

from __future__ import annotations

from nicegui import Client, ui


def focus(element: ui.element) -> None:
    """Focus `element` in the browser; it may have been created by this very update, so wait a moment."""
    # Through the element's own tab: the control that started the action may be gone by now.
    element.client.run_javascript(f"setTimeout(() => document.getElementById('c{element.id}')?.focus(), 150)")


def focus_selector(client: Client, selector: str) -> None:
    """Focus the first element matching a CSS `selector` (written by us, never from user text)."""
    client.run_javascript(f"setTimeout(() => document.querySelector('{selector}')?.focus(), 150)")
