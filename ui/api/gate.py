"""The gate in front of every path under /api/: no bearer token, no entry (401, before any route
or database work); a body over 64 KiB is refused (413) before it is read in full.

The token itself is checked by each route's dependency (ui.api.security), in a worker thread.
A browser's session cookie plays no part anywhere under /api/.
"""

from __future__ import annotations

import json

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

API_PREFIX = "/api/"
MAX_BODY = 64 * 1024


def has_bearer(authorization: str | None) -> bool:
    scheme, _, credentials = (authorization or "").partition(" ")
    return scheme.lower() == "bearer" and bool(credentials.strip())


async def _refuse(send: Send, status: int, message: str, headers: dict[str, str] | None = None) -> None:
    body = json.dumps({"error": message}).encode()
    raw = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    raw += [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()]
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": body})


class ApiGate:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not str(scope["path"]).startswith(API_PREFIX):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        if not has_bearer(headers.get("authorization")):
            await _refuse(
                send, 401, "Send an API token: Authorization: Bearer <token>.", {"WWW-Authenticate": "Bearer"}
            )
            return
        declared = headers.get("content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
            too_big = declared.isdigit()
            await _refuse(send, 413 if too_big else 400, _too_big() if too_big else "Bad Content-Length.")
            return
        body = await _read_body(receive)
        if body is None:
            await _refuse(send, 413, _too_big())
            return
        await self.app(scope, _replay(body, receive), send)


def _too_big() -> str:
    return f"The body is over {MAX_BODY // 1024} KiB; send long notes in parts."


async def _read_body(receive: Receive) -> bytes | None:
    """The whole body, or None once it passes MAX_BODY (a chunked upload is cut off there)."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return b"".join(chunks)
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > MAX_BODY:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


def _replay(body: bytes, receive: Receive) -> Receive:
    sent = False

    async def replayed() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed
