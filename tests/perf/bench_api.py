"""The coach API on loopback, the real server in a subprocess on SQLite: context requests/s and
latency for an athlete with 2,000 memories under 20 concurrent clients (target p95 <= 20 ms),
and ingest requests/s. Every context request is also recorded as a coach read.

"baseline" is GET /openapi.json under the same load: no token, no database; it shows what the web
stack and the load generator (same machine) cost before any of our work."""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from datetime import timedelta
from pathlib import Path

import httpx

from domain.actors import SYSTEM
from domain.api_tokens import create_token
from domain.enums import MemoryConfidence, MemorySource, MemoryStatus, MemoryType, Role
from domain.memory_writes import insert_memory
from domain.models import Memory
from domain.types import utcnow
from persistence.engine import make_engine
from persistence.migrate import upgrade
from persistence.uow import unit_of_work
from tests.api.conftest import start, stop
from tests.factories import make_user

MEMORIES = 2000
CLIENTS = 20
INGEST_CLIENTS = 4  # ingest writes; SQLite takes one writer at a time, so more clients only queue longer
TYPES = list(MemoryType)
CONFIDENCES = list(MemoryConfidence)
PARTS = ["knee", "hip", "ankle", "calf", "shin", "back", "foot", "hamstring"]
TIMES = ["morning", "evening", "lunch", "weekend"]
QUERIES = [
    "my knee hurts after the long run",
    "should I run in the morning tomorrow",
    "tempo session this week",
    "",
    "calf tightness on hills",
    "how did the intervals go",
]


def seed(url: str) -> str:
    engine = make_engine(url)
    upgrade(engine)
    athlete = make_user(engine, "bench", Role.ATHLETE)
    now = utcnow()
    with unit_of_work(engine) as session:
        for n in range(MEMORIES):
            when = now - timedelta(days=n % 90)
            part, moment = PARTS[n % len(PARTS)], TIMES[n % len(TIMES)]
            memory = Memory(
                athlete_id=athlete.id,
                type=TYPES[n % len(TYPES)],
                content=f"Note {n}: {part} feels different after {moment} runs of {5 + n % 30} km",
                source=MemorySource.USER_MESSAGE,
                confidence=CONFIDENCES[n % 3],
                occurrences=1 + n % 4,
                tags=[f"body:{part}", f"time:{moment}"],
                status=MemoryStatus.ACTIVE,
                created_at=when,
                updated_at=when,
            )
            insert_memory(session, SYSTEM, memory)
        secret = create_token(session, SYSTEM, name="bench", scopes=["ingest", "read"]).secret
    engine.dispose()
    return secret


async def load(
    requests: int,
    send: Callable[[httpx.AsyncClient, int], Awaitable[httpx.Response]],
    base: str,
    secret: str,
    clients: int = CLIENTS,
) -> tuple[float, list[float]]:
    """`requests` calls spread over `clients` concurrent clients; (requests/s, latencies in ms)."""
    latencies: list[float] = []
    counter = iter(range(requests))

    async def client_loop() -> None:
        headers = {"Authorization": f"Bearer {secret}"}
        async with httpx.AsyncClient(base_url=base, headers=headers, timeout=30) as client:
            for n in counter:
                started = time.perf_counter()
                response = await send(client, n)
                latencies.append((time.perf_counter() - started) * 1000)
                response.raise_for_status()

    started = time.perf_counter()
    await asyncio.gather(*(client_loop() for _ in range(clients)))
    return requests / (time.perf_counter() - started), latencies


def schema_call(client: httpx.AsyncClient, n: int) -> Awaitable[httpx.Response]:
    """No database, no token: what the web stack and the load generator cost on this machine."""
    return client.get("/openapi.json")


def context_call(client: httpx.AsyncClient, n: int) -> Awaitable[httpx.Response]:
    return client.get("/api/v1/athletes/bench/context", params={"query": QUERIES[n % len(QUERIES)]})


def ingest_call(client: httpx.AsyncClient, n: int) -> Awaitable[httpx.Response]:
    note = f"My {PARTS[n % len(PARTS)]} hurt after the {n} km run. I prefer {TIMES[n % len(TIMES)]} runs."
    body = {"athlete": "bench", "kind": "activity_note", "reference": f"bench-{uuid.uuid4().hex}", "text": note}
    return client.post("/api/v1/ingest", json=body)


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=100)[94]


def report(name: str, rate: float, latencies: list[float], clients: int = CLIENTS) -> None:
    median = statistics.median(latencies)
    print(
        f"{name}: {rate:,.0f} requests/s, p50 {median:.1f} ms, p95 {p95(latencies):.1f} ms "
        f"({len(latencies):,} requests, {clients} clients)"
    )
    record = _recorder()
    if record is not None:
        record(f"api_{name}_rps", round(rate, 1))
        record(f"api_{name}_p95_ms", round(p95(latencies), 2))


def _recorder() -> Callable[[str, float], None] | None:
    from tests.perf import run_all

    return getattr(run_all, "record", None)


def run(quick: bool = False) -> None:
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as tmp:
        url = f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        secret = seed(url)
        process, base = start(url, Path(tmp), rate_limit="1000000/minute")
        try:
            asyncio.run(load(CLIENTS * 2, context_call, base, secret))  # warm up
            rate, latencies = asyncio.run(load(100 if quick else 1000, schema_call, base, secret))
            report("baseline", rate, latencies)
            rate, latencies = asyncio.run(load(200 if quick else 2000, context_call, base, secret))
            report("context", rate, latencies)
            rate, latencies = asyncio.run(load(50 if quick else 300, context_call, base, secret, 1))
            report("context_one_client", rate, latencies, 1)
            rate, latencies = asyncio.run(load(40 if quick else 200, ingest_call, base, secret, INGEST_CLIENTS))
            report("ingest", rate, latencies, INGEST_CLIENTS)
        finally:
            stop(process)
    print(f"target: context p95 <= 20 ms for {MEMORIES:,} memories")


if __name__ == "__main__":
    run()
