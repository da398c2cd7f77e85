"""A lean closed-loop HTTP/1.1 load generator for the API bench, run in a process of its own.

httpx costs about a millisecond of CPU per request on this machine, as much as the server's own
work for a context request: measured with it, on 2 shared cores, the bench read the client's cost
as much as the server's. Here each client is one keep-alive connection on asyncio streams (uvloop
when present) writing a prepared request and reading the answer by its Content-Length (or chunks):
tens of microseconds per request. The load runs in a separate process (`Load`), so it does not
share the bench process's interpreter either; its CPU time per request is reported beside the
figures, so the reader sees what it still takes from the two cores.

Closed loop: each client sends its next request when the last answer has arrived in full.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass


@dataclass(frozen=True)
class Result:
    rate: float  # requests per second over the whole run
    latencies_ms: list[float]
    client_cpu_ms: float  # the load generator's own CPU time per request
    statuses: dict[int, int]


def request_bytes(method: str, path: str, host: str, *, token: str | None = None, body: bytes | None = None) -> bytes:
    lines = [f"{method} {path} HTTP/1.1", f"Host: {host}", "Connection: keep-alive", "Accept: application/json"]
    if token:
        lines.append(f"Authorization: Bearer {token}")
    if body is not None:
        lines += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + (body or b"")


async def _read_answer(reader: asyncio.StreamReader) -> int:
    """Read one whole response; its status."""
    head = await reader.readuntil(b"\r\n\r\n")
    status_line, _, rest = head.partition(b"\r\n")
    status = int(status_line.split(b" ", 2)[1])
    length = -1
    chunked = False
    for line in rest.split(b"\r\n"):
        name, _, value = line.partition(b":")
        name = name.strip().lower()
        if name == b"content-length":
            length = int(value)
        elif name == b"transfer-encoding" and b"chunked" in value.lower():
            chunked = True
    if chunked:
        while True:
            size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
            await reader.readexactly(size + 2)
            if size == 0:
                break
    elif length > 0:
        await reader.readexactly(length)
    return status


async def _load(host: str, port: int, requests: Sequence[bytes], count: int, clients: int) -> Result:
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    counter = iter(range(count))

    async def client() -> None:
        reader, writer = await asyncio.open_connection(host, port)
        try:
            for n in counter:
                started = time.perf_counter()
                writer.write(requests[n % len(requests)])
                status = await _read_answer(reader)
                latencies.append((time.perf_counter() - started) * 1000)
                statuses[status] = statuses.get(status, 0) + 1
        finally:
            writer.close()

    cpu = time.process_time()
    started = time.perf_counter()
    await asyncio.gather(*(client() for _ in range(clients)))
    elapsed = time.perf_counter() - started
    return Result(count / elapsed, latencies, (time.process_time() - cpu) / count * 1000, statuses)


def _run(host: str, port: int, requests: Sequence[bytes], count: int, clients: int) -> Result:
    try:
        import uvloop

        return uvloop.run(_load(host, port, requests, count, clients))
    except ImportError:  # pragma: no cover - uvloop comes with uvicorn[standard]
        return asyncio.run(_load(host, port, requests, count, clients))


class Load:
    """One load-generator process, kept for the whole bench (started once, warm for every phase)."""

    def __init__(self) -> None:
        self._pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))

    def run(self, host: str, port: int, requests: Sequence[bytes], count: int, clients: int) -> Result:
        return self._pool.submit(_run, host, port, list(requests), count, clients).result()

    def close(self) -> None:
        self._pool.shutdown()

    def __enter__(self) -> Load:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def process_cpu_s(pid: int) -> float:
    """User + system CPU seconds of a process so far (Linux /proc)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
