"""Every page's socket traffic comes from the browser that opened the page (issue 14, finding 3).

NiceGUI routes a socket message by the client id written in it: any socket that knows a page's client
id (and a listener id) could drive that page, run as its user. Here NiceGUI's Socket.IO handlers are
wrapped so that:

* a handshake (explicit, or implicit on connect) is accepted only from a socket whose session cookie
  carries the browser id the page was opened with (the cookie is signed: it cannot be forged);
* an event, a JavaScript answer, an acknowledgement or a log line counts only from a socket that
  completed the handshake for that very client; anything else is dropped;
* a log line from the browser is written on one line, cut to LOG_LINE_MAX characters.
"""

from __future__ import annotations

import json
import logging
import urllib.parse
from base64 import b64decode
from collections.abc import Callable
from http.cookies import CookieError, SimpleCookie
from typing import Any

import itsdangerous
import socketio  # type: ignore[import-untyped]
from nicegui import Client, core
from nicegui.storage import Storage

log = logging.getLogger("memory_review.sockets")
LOG_LINE_MAX = 500
SESSION_COOKIE = "session"
_LEVELS = {"debug": logging.DEBUG, "info": logging.INFO, "warning": logging.WARNING, "error": logging.ERROR}


def browser_id(environ: dict[str, Any] | None) -> str | None:
    """The browser id in the signed session cookie a socket connected with, or None."""
    if not environ or Storage.secret is None:
        return None
    try:
        cookie = SimpleCookie(str(environ.get("HTTP_COOKIE", "")))
    except CookieError:
        return None
    morsel = cookie.get(SESSION_COOKIE)
    if morsel is None:
        return None
    try:
        data = json.loads(b64decode(itsdangerous.TimestampSigner(str(Storage.secret)).unsign(morsel.value)))
    except (itsdangerous.BadSignature, ValueError):
        return None
    value = data.get("id") if isinstance(data, dict) else None
    return value if isinstance(value, str) else None


def page_browser_id(client: Client) -> str | None:
    try:
        value = client.request.session.get("id")
    except (AssertionError, AttributeError):  # no session on the page's request
        return None
    return value if isinstance(value, str) else None


def same_browser(environ: dict[str, Any] | None, client: Client) -> bool:
    page_id = page_browser_id(client)
    return page_id is not None and browser_id(environ) == page_id


def bound_client(sid: str, msg: object) -> Client | None:
    """The client a message names, if this socket completed the handshake for it."""
    if not isinstance(msg, dict):
        return None
    client = Client.instances.get(str(msg.get("client_id")))
    if client is None or sid not in client._socket_to_document_id:
        return None
    return client


def one_line(text: object) -> str:
    """A browser's text for the server log: control characters (line breaks too) escaped, cut short."""
    raw = str(text)
    escaped = "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in raw)
    return escaped if len(escaped) <= LOG_LINE_MAX else escaped[:LOG_LINE_MAX] + "…"


def install() -> None:
    """Wrap NiceGUI's handlers once per server (NiceGUI registers them when it is imported)."""
    sio: socketio.AsyncServer = core.sio
    handlers: dict[str, Callable[..., Any]] = sio.handlers["/"]
    if getattr(handlers.get("event"), "_bound_to_socket", False):
        return
    connect, handshake = handlers["connect"], handlers["handshake"]
    event, javascript_response, ack = handlers["event"], handlers["javascript_response"], handlers["ack"]

    async def guarded_connect(sid: str, environ: dict[str, Any], auth: Any = None) -> Any:
        query = dict(urllib.parse.parse_qsl(str(environ.get("QUERY_STRING", ""))))
        if query.get("implicit_handshake") == "true":
            client = Client.instances.get(query.get("client_id", ""))
            if client is not None and not same_browser(environ, client):
                raise socketio.exceptions.ConnectionRefusedError("Not this browser's page")
        return await connect(sid, environ, auth)

    async def guarded_handshake(sid: str, data: Any) -> bool:
        if not isinstance(data, dict):
            return False
        client = Client.instances.get(str(data.get("client_id")))
        if client is not None and not sid.startswith("test-") and not same_browser(sio.get_environ(sid), client):
            return False
        result: bool = await handshake(sid, data)
        return result

    def only_bound(handler: Callable[[str, dict[str, Any]], Any]) -> Callable[[str, Any], Any]:
        def guarded(sid: str, msg: Any) -> Any:
            if bound_client(sid, msg) is None:
                return None
            return handler(sid, msg)

        guarded._bound_to_socket = True  # type: ignore[attr-defined]
        return guarded

    def guarded_log(sid: str, msg: Any) -> None:
        client = bound_client(sid, msg)
        if client is None:
            return
        level = _LEVELS.get(str(msg.get("level")), logging.INFO)
        log.log(level, "browser %s: %s", client.id[:8], one_line(msg.get("message", "")))

    handlers["connect"] = guarded_connect
    handlers["handshake"] = guarded_handshake
    handlers["event"] = only_bound(event)
    handlers["javascript_response"] = only_bound(javascript_response)
    handlers["ack"] = only_bound(ack)
    handlers["log"] = guarded_log
