"""NiceGUI's versioned script, style and font files, answered from memory once compressed.

A browser without them in its cache fetches about 1.5 MB of them with every first page: read from
disk in 64 KB chunks through the thread pool and gzipped again for each browser, that was most of
the server's work for a page, and fifty browsers arriving at once compressed the same files fifty
times. Their URLs carry NiceGUI's version or a content hash and are served `immutable`, so the first
answer (compressed or not, per Accept-Encoding) is kept and replayed; a request arriving while it
is being made waits for it instead of making its own.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from nicegui import __version__ as nicegui_version
from starlette.types import ASGIApp, Message, Receive, Scope, Send

VERSIONED = tuple(f"/_nicegui/{nicegui_version}/{kind}/" for kind in ("static", "components", "libraries"))
MAX_ENTRY_BYTES = 4 * 1024 * 1024
MAX_TOTAL_BYTES = 32 * 1024 * 1024
CONDITIONAL = (b"range", b"if-none-match", b"if-modified-since", b"if-range")


@dataclass(frozen=True)
class Answer:
    status: int
    headers: list[tuple[bytes, bytes]]
    body: bytes


class StaticCache:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.answers: dict[tuple[str, bool], Answer] = {}
        self.making: dict[tuple[str, bool], asyncio.Lock] = {}
        self.total = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        key = self._key(scope)
        if key is None:
            await self.app(scope, receive, send)
            return
        answer = self.answers.get(key)
        if answer is None:
            lock = self.making.setdefault(key, asyncio.Lock())
            async with lock:
                answer = self.answers.get(key)
                if answer is None:
                    answer = await self._make(key, scope, receive)
            self.making.pop(key, None)
        await send({"type": "http.response.start", "status": answer.status, "headers": answer.headers})
        await send({"type": "http.response.body", "body": answer.body})

    def _key(self, scope: Scope) -> tuple[str, bool] | None:
        """Only a plain GET of a versioned file; a range or a revalidation goes the usual way."""
        if scope["type"] != "http" or scope.get("method") != "GET":
            return None
        path = str(scope.get("path", ""))
        if not path.startswith(VERSIONED) or scope.get("query_string"):
            return None
        headers = dict(scope.get("headers", []))
        if any(name in headers for name in CONDITIONAL):
            return None
        return path, b"gzip" in headers.get(b"accept-encoding", b"")

    async def _make(self, key: tuple[str, bool], scope: Scope, receive: Receive) -> Answer:
        start: Message = {}
        chunks: list[bytes] = []

        async def collect(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                start = message
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))

        await self.app(scope, receive, collect)
        body = b"".join(chunks)
        headers = [(name, value) for name, value in start.get("headers", []) if name.lower() != b"content-length"]
        headers.append((b"content-length", str(len(body)).encode()))  # whole now, not streamed in chunks
        answer = Answer(int(start.get("status", 500)), headers, body)
        cache_control = dict(answer.headers).get(b"cache-control", b"")
        size = len(answer.body)
        if (
            answer.status == 200
            and b"immutable" in cache_control
            and size <= MAX_ENTRY_BYTES
            and self.total + size <= MAX_TOTAL_BYTES
        ):
            self.answers[key] = answer
            self.total += size
        return answer
