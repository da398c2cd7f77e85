"""A form's submit that carries what its fields show in the browser.

Until a page's socket has finished its handshake, NiceGUI (static/nicegui.js) keeps each event on
a 10 ms retry timer of its own, and the events leave in the order their timers next fire, not the
order they happened: a click can reach the server before the typing that came first (browser
autofill, a quick hand, a slow network), and the server's copy of the fields is then still empty.
The submit event therefore sends the fields' values from the browser, and the fields take them
before the handler runs. NiceGUI's `User` test fixture sends no event values; the server's copy
is used then.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from nicegui import events, ui
from nicegui.element import Element

Submit = Callable[[], Awaitable[None]]


def on_submit(triggers: Sequence[tuple[Element, str]], fields: tuple[ui.input, ...], submit: Submit) -> None:
    """Run `submit` on each trigger's event (e.g. [(button, "click"), (field, "keydown.enter")]), the
    fields first set to what the browser shows."""
    send_values = _values_handler(fields)

    async def handle(event: events.GenericEventArguments) -> None:
        take_values(event.args, fields)
        await submit()

    for element, event_name in triggers:
        element.on(event_name, handle, js_handler=send_values)


def _values_handler(fields: tuple[ui.input, ...]) -> str:
    # Quasar gives the element's DOM id to the native input itself (its `for`).
    values = ", ".join(
        f"document.querySelector('input#c{field.id}, #c{field.id} input')?.value ?? null" for field in fields
    )
    return f"() => emit([{values}])"


def take_values(args: Any, fields: tuple[ui.input, ...]) -> None:
    if not isinstance(args, list) or len(args) != len(fields):
        return
    for field, typed in zip(fields, args, strict=True):
        if isinstance(typed, str):
            field.value = typed
