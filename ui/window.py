"""Whether this browser is the desktop app's own window (ui/desktop.py logs it in and marks it)."""

from __future__ import annotations

from nicegui import app

RUN_KEY = "desktop_run"  # in app.storage.user: the run whose one-time token logged this browser in


def in_desktop_window() -> bool:
    """True in the desktop window: there, the whole database is the owner's own (ui/desktop.OwnerOnly
    refuses every other browser), so the owner also runs what an admin runs on a server."""
    return app.storage.user.get(RUN_KEY) is not None
