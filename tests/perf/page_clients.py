"""Clients that open a page as a browser does on the wire, without a browser: GET the page (its HTML
holds the first memories, as the Context page builds them in the request), then connect the page's
socket with the client id the HTML gives, as nicegui.js does (the implicit handshake). "Ready" is
when the server has accepted the socket: the page is on screen and live, but for the browser's own
rendering. Fifty Chromium tabs on this 2-core machine spend most of their time rendering; these
clients cost the server what a tab costs it and themselves little, so their figures are the
server's.

They share the two cores with the server, so they are lean: plain asyncio streams, one prepared
request per page, the socket's Engine.IO/Socket.IO and WebSocket framing written out here (a client
built from httpx and python-socketio took more CPU per page than the server gave it, about 45 ms,
and set the p95 itself). Their own CPU per page is measured and reported beside the server's.
"""

from __future__ import annotations

import asyncio
import base64
import os
import re
import struct
import time
import urllib.parse
import uuid
import zlib
from dataclasses import dataclass, field
from pathlib import Path

from tests.perf.browser import Running

CLIENT_ID = re.compile(rb"'client_id': '([0-9a-f-]{36})'")
# The memory list's first row in the page's elements: its rows as a JSON string (ui/components/page_json.py),
# or as a list (before that), so that the same clients measure both.
FIRST_ROWS = (b'"rows":"[{', b'"rows":[{')
SOCKET_PATH = "/_nicegui_ws/socket.io/"
TIMEOUT_S = 180


def _cpu_s(pid: int, thread: int | None = None) -> float:
    """The process's (or one of its threads') user + system CPU seconds so far (/proc/<pid>/stat)."""
    stat = Path(f"/proc/{pid}/stat" if thread is None else f"/proc/{pid}/task/{thread}/stat")
    fields = stat.read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _read_response(reader: asyncio.StreamReader) -> tuple[int, dict[bytes, bytes], bytes]:
    """One HTTP/1.1 response: status, headers (lower-case names), body (un-gzipped)."""
    head = await reader.readuntil(b"\r\n\r\n")
    status_line, *lines = head[:-4].split(b"\r\n")
    headers = {}
    for line in lines:
        name, _, value = line.partition(b":")
        headers[name.strip().lower()] = value.strip()
    if b"chunked" in headers.get(b"transfer-encoding", b"").lower():
        parts = []
        while size := int((await reader.readuntil(b"\r\n")).split(b";")[0], 16):
            parts.append((await reader.readexactly(size + 2))[:-2])
        await reader.readuntil(b"\r\n")
        body = b"".join(parts)
    else:
        body = await reader.readexactly(int(headers.get(b"content-length", b"0")))
    if headers.get(b"content-encoding") == b"gzip":
        body = zlib.decompress(body, wbits=31)
    return int(status_line.split(b" ", 2)[1]), headers, body


def _frame(text: bytes) -> bytes:
    """A masked WebSocket text frame (every frame from a client is masked)."""
    mask = os.urandom(4)
    size = len(text)
    header = bytes((0x81, 0x80 | size)) if size < 126 else bytes((0x81, 0x80 | 126)) + struct.pack("!H", size)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(text))
    return header + mask + masked


async def _read_frame(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    """One unmasked frame from the server: (opcode, payload)."""
    first, second = await reader.readexactly(2)
    size = second & 0x7F
    if size == 126:
        (size,) = struct.unpack("!H", await reader.readexactly(2))
    elif size == 127:
        (size,) = struct.unpack("!Q", await reader.readexactly(8))
    return first & 0x0F, await reader.readexactly(size)


@dataclass
class Socket:
    """A page's connected socket: answers the server's pings (Engine.IO "2" → "3") until closed."""

    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    listening: asyncio.Task[None] | None = None

    def listen(self) -> None:
        self.listening = asyncio.create_task(self._answer_pings())

    async def _answer_pings(self) -> None:
        try:
            while True:
                opcode, payload = await _read_frame(self.reader)
                if opcode == 0x8:  # closed by the server
                    return
                if opcode == 0x9:  # a WebSocket ping: pong with its payload (payloads here are short)
                    self.writer.write(bytes((0x8A, 0x80 | len(payload))) + b"\0\0\0\0" + payload)
                elif opcode == 0x1 and payload == b"2":
                    self.writer.write(_frame(b"3"))
        except (asyncio.IncompleteReadError, ConnectionError):
            return

    async def close(self) -> None:
        if self.listening is not None:
            self.listening.cancel()
        try:
            self.writer.write(_frame(b"41") + bytes((0x88, 0x80)) + b"\0\0\0\0")  # leave the namespace, close
            await self.writer.drain()
        except ConnectionError:
            pass
        self.writer.close()


@dataclass
class PageClients:
    """Open pages whose sockets stay connected until `close`: the Context page, or the page at `path`
    whose HTML holds one of `shows` (e.g. /admin and its first tab's rows)."""

    running: Running
    cookies: dict[str, str]
    path: str = "/"
    shows: tuple[bytes, ...] = FIRST_ROWS
    sockets: list[Socket] = field(default_factory=list)
    client_cpu_ms: float = 0.0  # the last `open`'s own CPU time per page (this process)
    loop_cpu_ms: float = 0.0  # the last `open`'s server CPU per page in its main thread, the event loop's

    def __post_init__(self) -> None:
        parsed = urllib.parse.urlsplit(self.running.url)
        self.host, self.port = str(parsed.hostname), int(parsed.port or 80)
        self.cookie = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        self.page_request = (
            f"GET {self.path} HTTP/1.1\r\nHost: {parsed.netloc}\r\nAccept: text/html\r\nAccept-Encoding: gzip\r\n"
            f"Cookie: {self.cookie}\r\nConnection: close\r\n\r\n"
        ).encode()

    async def open(self, count: int) -> tuple[list[float], int, float]:
        """`count` pages at once: (ready ms of each that got there, how many failed, server CPU ms per page)."""
        pid = self.running.pid
        before, loop_before, own_before = _cpu_s(pid), _cpu_s(pid, pid), time.process_time()
        results = await self.opening(count)
        cpu_ms = (_cpu_s(pid) - before) * 1000 / count
        self.loop_cpu_ms = (_cpu_s(pid, pid) - loop_before) * 1000 / count
        self.client_cpu_ms = (time.process_time() - own_before) * 1000 / count
        ready = [r for r in results if r is not None]
        return ready, count - len(ready), cpu_ms

    async def opening(self, count: int) -> list[float | None]:
        """`count` pages at once, without the CPU accounting (for pages of several kinds opened together):
        the ready ms of each, None for one that failed."""
        return list(await asyncio.gather(*(self._open_one() for _ in range(count))))

    async def _open_one(self) -> float | None:
        started = time.perf_counter()
        try:
            client_id = await asyncio.wait_for(self._page(), TIMEOUT_S)
            sock = await asyncio.wait_for(self._connect(client_id), TIMEOUT_S)
        except Exception as exc:  # a client that never gets there is counted, not fatal
            print(f"  a page client failed: {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}")
            return None
        self.sockets.append(sock)
        return (time.perf_counter() - started) * 1000

    async def _page(self) -> str:
        reader, writer = await asyncio.open_connection(self.host, self.port)
        try:
            writer.write(self.page_request)
            status, _, body = await _read_response(reader)
        finally:
            writer.close()
        found = CLIENT_ID.search(body)
        if status != 200 or not any(shown in body for shown in self.shows) or found is None:
            raise RuntimeError(f"not the page asked for ({self.path}): HTTP {status}")
        return found.group(1).decode()

    async def _connect(self, client_id: str) -> Socket:
        """The page's socket as nicegui.js opens it (WebSocket transport only), until the server accepts it."""
        query = urllib.parse.urlencode(
            {
                "client_id": client_id,
                "next_message_id": 0,
                "implicit_handshake": "true",
                "tab_id": uuid.uuid4(),
                "document_id": uuid.uuid4(),
                "EIO": 4,
                "transport": "websocket",
            }
        )
        reader, writer = await asyncio.open_connection(self.host, self.port)
        key = base64.b64encode(os.urandom(16)).decode()
        writer.write(
            (
                f"GET {SOCKET_PATH}?{query} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                f"Cookie: {self.cookie}\r\n\r\n"
            ).encode()
        )
        head = await reader.readuntil(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 101"):
            writer.close()
            status_line = head.split(b"\r\n", 1)[0].decode()
            raise RuntimeError(f"no socket: {status_line}")
        sock = Socket(reader, writer)
        opened = False
        while True:
            opcode, payload = await _read_frame(reader)
            if opcode == 0x8:
                writer.close()
                raise RuntimeError("socket closed by the server")
            if payload.startswith(b"0{") and not opened:  # Engine.IO open: join the default namespace
                opened = True
                writer.write(_frame(b"40"))
            elif payload.startswith(b"40"):  # Socket.IO connect accepted
                break
            elif payload.startswith(b"44"):
                writer.close()
                raise RuntimeError(f"socket refused: {payload[2:200].decode(errors='replace')}")
            elif payload == b"2":
                writer.write(_frame(b"3"))
        sock.listen()
        return sock

    async def close(self) -> None:
        await asyncio.gather(*(sock.close() for sock in self.sockets), return_exceptions=True)
        self.sockets.clear()
