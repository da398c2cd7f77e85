"""HTTP connections as a client sees them: whole answers on one kept-alive connection, pipelined too,
and a `Connection: close` answer sent whole before the server closes (each answer leaves in one send:
ui.loop_syscalls.OneSendHttp)."""

from __future__ import annotations

import json
import socket
from urllib.parse import urlsplit

from tests.api.conftest import ApiServer


def _connect(api: ApiServer) -> socket.socket:
    address = urlsplit(api.url)
    return socket.create_connection((address.hostname or "127.0.0.1", address.port or 80), timeout=20)


def _request(path: str, token: str, *, close: bool = False) -> bytes:
    lines = [f"GET {path} HTTP/1.1", "Host: test", f"Authorization: Bearer {token}"]
    if close:
        lines.append("Connection: close")
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def _read_answer(stream: socket.SocketIO, buffer: bytearray) -> tuple[int, dict[str, str], bytes]:
    while b"\r\n\r\n" not in buffer:
        chunk = stream.read(65536)
        assert chunk, "the connection ended before the headers"
        buffer += chunk
    head, _, rest = bytes(buffer).partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    headers = {name.lower(): value.strip() for name, _, value in (line.partition(":") for line in header_lines)}
    length = int(headers["content-length"])
    body = bytearray(rest)
    while len(body) < length:
        chunk = stream.read(65536)
        assert chunk, "the connection ended inside the body"
        body += chunk
    buffer[:] = body[length:]
    return int(status_line.split()[1]), headers, bytes(body[:length])


def test_answers_on_one_connection_come_whole_and_in_order(api: ApiServer) -> None:
    token = api.token("read")
    paths = [f"/api/v1/athletes/alex/context?query={word}" for word in ("knee", "morning", "tempo")]
    with _connect(api) as connection, connection.makefile("rb", buffering=0) as stream:
        buffer = bytearray()
        for path in paths:  # one after the other
            connection.sendall(_request(path, token))
            status, headers, body = _read_answer(stream, buffer)
            assert status == 200 and json.loads(body)["query"] == path.rsplit("=", 1)[1]
            assert headers["x-content-type-options"] == "nosniff"
        connection.sendall(b"".join(_request(path, token) for path in paths))  # pipelined
        queries = [json.loads(_read_answer(stream, buffer)[2])["query"] for _ in paths]
    assert queries == ["knee", "morning", "tempo"]


def test_a_connection_close_answer_is_sent_whole_before_the_close(api: ApiServer) -> None:
    token = api.token("read")
    with _connect(api) as connection, connection.makefile("rb", buffering=0) as stream:
        connection.sendall(_request("/api/v1/athletes/alex/context?query=knee", token, close=True))
        buffer = bytearray()
        status, headers, body = _read_answer(stream, buffer)
        assert status == 200 and headers.get("connection") == "close"
        assert json.loads(body)["athlete"] == "alex"
        assert stream.read(65536) == b""  # then the server closes
