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

And an HTTP answer leaves in one send, not two (`OneSendHttp`): uvicorn writes a response's status
line and headers as soon as the app starts it, then its body, each a `send` on a socket with
Nagle's delay off, so two calls into the kernel and two wake-ups of the client for every answer.
"""

from __future__ import annotations

import asyncio
import base64
import os
import threading
import uuid
from collections.abc import Iterable
from types import SimpleNamespace
from typing import Any, cast

import engineio  # type: ignore[import-untyped]
from nicegui import client as nicegui_client
from nicegui import core
from nicegui.event_listener import EventListener
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

ID_BYTES = 16
POOL_BYTES = 256 * ID_BYTES
SEND_NOW_BYTES = 64 * 1024  # held writes past this go at once: the transport's flow control sees them as before


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


class OneSend:
    """A connection's transport whose writes within one turn of the loop leave together, at the end of the
    turn (or at once past SEND_NOW_BYTES, or before a close); everything else is the transport's own."""

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        self.raw = transport
        self._loop = loop
        self._held: list[bytes] = []
        self._size = 0

    def write(self, data: bytes | bytearray | memoryview) -> None:
        chunk = bytes(data)
        if not self._held:
            self._loop.call_soon(self.flush)
        self._held.append(chunk)
        self._size += len(chunk)
        if self._size >= SEND_NOW_BYTES:
            self.flush()

    def writelines(self, lines: Iterable[bytes | bytearray | memoryview]) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        held = self._held
        if not held:
            return
        data = held[0] if len(held) == 1 else b"".join(held)
        held.clear()
        self._size = 0
        if not self.raw.is_closing():
            self.raw.write(data)

    def close(self) -> None:
        self.flush()
        self.raw.close()

    def abort(self) -> None:
        self._held.clear()
        self._size = 0
        self.raw.abort()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.raw, name)


class OneSendHttp(HttpToolsProtocol):
    """uvicorn's HTTP protocol (httptools) on a `OneSend` transport; a connection upgraded to a websocket
    gets the transport itself back."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(cast(asyncio.Transport, OneSend(transport, self.loop)))

    def handle_websocket_upgrade(self) -> None:
        if isinstance(self.transport, OneSend):
            self.transport.flush()
            self.transport = self.transport.raw
        super().handle_websocket_upgrade()
