"""Calls into the operating system that NiceGUI makes on the event loop for every page, made rarely.

A call that enters the kernel lets go of the interpreter's lock while it waits there. When the
worker threads are busy (a page's data is read in one: SQLAlchemy's Python holds the lock), the
loop gets the lock back only when the thread gives it up, up to the switch interval (5 ms) later.
So a 1 µs call costs the loop up to 5 ms, and NiceGUI made two dozen per page: an `os.urandom` for
every event listener's id, the client's id and each socket's ids, and a `stat` of the page template
to see whether it changed on disk. With 50 pages opening at once that was a fifth of the loop's
time (cProfile: 1,200 `urandom` calls, 0.54 s of 2.4 s).

Here the ids come from one read of 4 KiB of the same randomness, 256 ids at a time (the same
unpredictable bytes, fewer reads), and the template, which never changes while the server runs,
is read once.
"""

from __future__ import annotations

import base64
import os
import threading
import uuid
from types import SimpleNamespace
from typing import Any

import engineio  # type: ignore[import-untyped]
from nicegui import client as nicegui_client
from nicegui import core
from nicegui.event_listener import EventListener

ID_BYTES = 16
POOL_BYTES = 256 * ID_BYTES


class RandomPool:
    """Bytes from `os.urandom`, read POOL_BYTES at a time; each handed out once (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pool = b""
        self._at = 0

    def take(self, size: int) -> bytes:
        with self._lock:
            if self._at + size > len(self._pool):
                self._pool, self._at = os.urandom(max(POOL_BYTES, size)), 0
            taken = self._pool[self._at : self._at + size]
            self._at += size
            return taken

    def forget(self) -> None:
        """In a forked child: its parent hands out the same bytes, so read new ones."""
        self._lock = threading.Lock()
        self._pool, self._at = b"", 0


_pool = RandomPool()
os.register_at_fork(after_in_child=_pool.forget)


def uuid4() -> uuid.UUID:
    """A random (version 4) UUID, as `uuid.uuid4()` makes it, from the pool."""
    return uuid.UUID(bytes=_pool.take(ID_BYTES), version=4)


def _listener_id(listener: EventListener) -> None:
    listener.id = str(uuid4())


def _socket_id(server: Any) -> str:
    """engineio's session id (12 random bytes and a sequence number), the random bytes from the pool."""
    sequence: int = server.sequence_number
    server.sequence_number = (sequence + 1) & 0xFFFFFF
    raw = base64.b64encode(_pool.take(12) + sequence.to_bytes(3, "big"))
    return raw.decode("ascii").replace("/", "_").replace("+", "-")


def install() -> None:
    """Once per process, after NiceGUI is imported (its socket server exists)."""
    EventListener.__post_init__ = _listener_id  # type: ignore[method-assign, assignment]
    setattr(nicegui_client, "uuid", SimpleNamespace(uuid4=uuid4))  # noqa: B010  # Client.id, JS request ids
    server = core.sio.eio
    if isinstance(server, engineio.AsyncServer):
        server.generate_id = lambda: _socket_id(server)
    nicegui_client.templates.env.auto_reload = False  # the page template: no stat of its file per page
