"""Clients that open a page as a browser does on the wire, without a browser: GET the page (its HTML
holds the first memories, as the Context page builds them in the request), then connect the page's
socket with the client id the HTML gives, as nicegui.js does (the implicit handshake). "Ready" is
when the server has accepted the socket: the page is on screen and live, but for the browser's own
rendering. Fifty Chromium tabs on this 2-core machine spend most of their time rendering; these
clients cost the server what a tab costs it and themselves little, so their figures are the
server's."""

from __future__ import annotations

import asyncio
import os
import re
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import socketio  # type: ignore[import-untyped]

from tests.perf.browser import Running

CLIENT_ID = re.compile(r"'client_id': '([0-9a-f-]{36})'")
# The memory list's first row in the page's elements: its rows as a JSON string (ui/components/page_json.py),
# or as a list (before that), so that the same clients measure both.
FIRST_ROWS = ('"rows":"[{', '"rows":[{')
SOCKET_PATH = "/_nicegui_ws/socket.io"


def _cpu_s(pid: int) -> float:
    """The process's user + system CPU seconds so far (/proc/<pid>/stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass
class PageClients:
    """Open pages whose sockets stay connected until `close`."""

    running: Running
    cookies: dict[str, str]
    sockets: list[socketio.AsyncClient] = field(default_factory=list)

    async def open(self, count: int) -> tuple[list[float], int, float]:
        """`count` pages at once: (ready ms of each that got there, how many failed, server CPU ms per page)."""
        before = _cpu_s(self.running.pid)
        results = await asyncio.gather(*(self._open_one() for _ in range(count)))
        cpu_ms = (_cpu_s(self.running.pid) - before) * 1000 / count
        ready = [r for r in results if r is not None]
        return ready, count - len(ready), cpu_ms

    async def _open_one(self) -> float | None:
        started = time.perf_counter()
        try:
            async with httpx.AsyncClient(base_url=self.running.url, cookies=self.cookies, timeout=180) as http:
                page = await http.get("/")
            found = CLIENT_ID.search(page.text)
            if page.status_code != 200 or not any(rows in page.text for rows in FIRST_ROWS) or found is None:
                raise RuntimeError(f"no memory page: HTTP {page.status_code}")
            query = (
                f"client_id={found.group(1)}&next_message_id=0&implicit_handshake=true"
                f"&tab_id={uuid.uuid4()}&document_id={uuid.uuid4()}"
            )
            sock = socketio.AsyncClient(reconnection=False)
            await sock.connect(
                f"{self.running.url}?{query}",
                socketio_path=SOCKET_PATH,
                transports=["websocket"],
                headers={"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())},
                wait_timeout=180,
            )
        except Exception as exc:  # a client that never gets there is counted, not fatal
            print(f"  a page client failed: {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}")
            return None
        self.sockets.append(sock)
        return (time.perf_counter() - started) * 1000

    async def close(self) -> None:
        await asyncio.gather(*(sock.disconnect() for sock in self.sockets), return_exceptions=True)
        self.sockets.clear()
