"""The coach API on loopback, the real server in a subprocess on SQLite, then on PostgreSQL when it is
reachable (figures ending `_pg`; context only): context requests/s and latency for an athlete with
2,000 memories under 20 concurrent clients (target p95 <= 20 ms), and ingest requests/s. Every
context request is also recorded as a coach read. "context" asks six queries over and over, as a coach
asks the same things again; "context_new_queries" asks one the server has not seen on every request.

"floor" is an API request refused at the gate (no token: 401): the whole middleware stack, no route, no
database. "baseline" is GET /openapi.json (no token, no database; FastAPI serialises the ~40 KiB schema
on each call). Both under the same 20 clients: what the web stack costs before any of our work.

The load comes from tests/perf/loadgen.py, a lean keep-alive client in a process of its own; each row
gives the server's and the load generator's CPU time per request (the server's from /proc), and the
context row says what bounds the 20-client figure (closed loop: latency = clients / throughput)."""

from __future__ import annotations

import json
import os
import random
import statistics
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlencode

from sqlalchemy import text

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
from tests.databases import postgres_unreachable_reason, postgres_url
from tests.factories import make_user
from tests.perf.loadgen import Load, Result, process_cpu_s, request_bytes

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


@dataclass(frozen=True)
class Phase:
    name: str
    requests: list[bytes]
    count: int
    clients: int


def phases(host: str, secret: str, quick: bool) -> list[Phase]:
    def get(path: str, token: str | None = secret) -> bytes:
        return request_bytes("GET", path, host, token=token)

    context = [get(f"/api/v1/athletes/bench/context?{urlencode({'query': q})}") for q in QUERIES]
    varied = [get(f"/api/v1/athletes/bench/context?{urlencode({'query': q})}") for q in new_queries(4000)]
    ingest = [request_bytes("POST", "/api/v1/ingest", host, token=secret, body=ingest_body(n)) for n in range(400)]
    scale = 1 if quick else 4
    return [
        Phase("floor", [get("/api/v1/athletes/bench/context", token=None)], 500 * scale, CLIENTS),
        Phase("baseline", [get("/openapi.json", token=None)], 300 * scale, CLIENTS),
        Phase("context", context, 1000 * scale, CLIENTS),
        Phase("context_one_client", context, 300 * scale, 1),
        Phase("context_new_queries", varied[: 1000 * scale], 1000 * scale, CLIENTS),
        Phase("ingest", ingest[: 40 if quick else 200], 40 if quick else 200, INGEST_CLIENTS),
    ]


def new_queries(count: int) -> list[str]:
    """Queries the server has not seen (a note's number, a body part, a time of day: almost every one shares
    other words with the memories), so no block it keeps from an earlier query serves them (domain.coach_index)."""
    pick = random.Random(20)
    return [
        f"{pick.choice(PARTS)} after {pick.choice(TIMES)} runs, note {pick.randrange(MEMORIES)}, {n} today"
        for n in range(count)
    ]


def ingest_body(n: int) -> bytes:
    note = f"My {PARTS[n % len(PARTS)]} hurt after the {n} km run. I prefer {TIMES[n % len(TIMES)]} runs."
    body = {"athlete": "bench", "kind": "activity_note", "reference": f"bench-{uuid.uuid4().hex}", "text": note}
    return json.dumps(body).encode()


EXPECTED = {"floor": 401}


def measure(load: Load, server_pid: int, port: int, phase: Phase, suffix: str = "") -> None:
    cpu = process_cpu_s(server_pid)
    result = load.run("127.0.0.1", port, phase.requests, phase.count, phase.clients)
    server_cpu_ms = (process_cpu_s(server_pid) - cpu) / phase.count * 1000
    expected = EXPECTED.get(phase.name)
    wrong = {s: n for s, n in result.statuses.items() if (s != expected if expected else s >= 400)}
    if wrong:
        raise RuntimeError(f"{phase.name}: unexpected statuses {wrong}")
    report(phase.name + suffix, result, phase.clients, server_cpu_ms)
    if phase.name == "context":
        print(limit_note(result, phase.clients, server_cpu_ms))


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=100)[94]


def report(name: str, result: Result, clients: int, server_cpu_ms: float) -> None:
    latencies = result.latencies_ms
    median = statistics.median(latencies)
    print(
        f"{name}: {result.rate:,.0f} requests/s, p50 {median:.1f} ms, p95 {p95(latencies):.1f} ms "
        f"({len(latencies):,} requests, {clients} clients closed-loop; CPU per request: server "
        f"{server_cpu_ms:.2f} ms, load generator {result.client_cpu_ms:.2f} ms; load avg {os.getloadavg()[0]:.2f})"
    )
    record = _recorder()
    if record is not None:
        record(f"api_{name}_rps", round(result.rate, 1))
        record(f"api_{name}_p50_ms", round(median, 2))
        record(f"api_{name}_p95_ms", round(p95(latencies), 2))
        record(f"api_{name}_server_cpu_ms", round(server_cpu_ms, 3))


def limit_note(result: Result, clients: int, server_cpu_ms: float) -> str:
    """What bounds the many-client figure: closed-loop, mean latency = clients / throughput (Little's law);
    the server is one Python process, whose interpreter runs one thread at a time (about one core)."""
    server_cores = result.rate * server_cpu_ms / 1000
    mean = clients / result.rate * 1000
    floor = clients * server_cpu_ms
    cores = os.cpu_count() or 1
    load = os.getloadavg()[0]
    if server_cores >= 0.8:
        bound = "the server's CPU (its one interpreter was busy nearly all the time)"
    elif load >= cores:
        bound = f"CPU: the machine is oversubscribed (load avg {load:.1f} on {cores} cores); the server got part of one"
    else:
        bound = "not CPU: waiting (locks, disk)"
    return (
        f"  what limits the {clients}-client figure: {bound}. Closed loop, mean latency = {clients} clients / "
        f"{result.rate:,.0f} requests/s = {mean:.1f} ms; the server used {server_cores:.2f} cores "
        f"({server_cpu_ms:.2f} ms CPU per request; one interpreter, so about one core at most), the load "
        f"generator {result.rate * result.client_cpu_ms / 1000:.2f}, on {cores} cores with load avg {load:.2f}. "
        f"With one core to itself (the interpreter lock lets it use little more: only SQLite's own work runs "
        f"beside it) the server's mean latency is about {clients} x {server_cpu_ms:.2f} ms = {floor:.1f} ms; "
        f"p95 <= 20 ms at {clients} clients needs at least "
        f"{clients / 20 * 1000:,.0f} requests/s, i.e. at most {20 / clients:.2f} ms of server CPU per request."
    )


def _recorder() -> Callable[[str, float], None] | None:
    from tests.perf import run_all

    return getattr(run_all, "record", None)


def run(quick: bool = False) -> None:
    bench_store("sqlite", quick)
    if postgres_unreachable_reason() is None:
        bench_store("postgresql", quick)
    else:
        print(f"PostgreSQL skipped: {postgres_unreachable_reason()}")
    print(f"target: context p95 <= 20 ms for {MEMORIES:,} memories under {CLIENTS} concurrent clients")


def bench_store(store: str, quick: bool) -> None:
    """The server on a fresh SQLite file, or on a fresh schema of the PostgreSQL server (figures `..._pg`)."""
    print(f"-- {store}")
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as tmp, Load() as load, database(store, tmp) as url:
        secret = seed(url)
        process, base = start(url, Path(tmp), rate_limit="1000000/minute")
        port = int(base.rsplit(":", 1)[1])
        try:
            plan = phases(f"127.0.0.1:{port}", secret, quick)
            if store != "sqlite":  # the stack's own figures (floor, baseline) do not depend on the store
                plan = [p for p in plan if p.name.startswith("context")]
            settle(process.pid)
            warm = next(p for p in plan if p.name == "context")
            load.run("127.0.0.1", port, warm.requests, CLIENTS * 5, CLIENTS)  # warm up server and generator
            for phase in plan:
                measure(load, process.pid, port, phase, suffix="" if store == "sqlite" else "_pg")
        finally:
            stop(process)


def settle(pid: int, timeout: float = 20.0) -> None:
    """Wait until the server is idle (under 5 % of a core over 0.25 s): what it does as it starts (the
    extraction rules compile in a thread of their own, about a second of CPU) is not any phase's cost."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        before = process_cpu_s(pid)
        time.sleep(0.25)
        if process_cpu_s(pid) - before < 0.0125:
            return


@contextmanager
def database(store: str, tmp: str) -> Iterator[str]:
    if store == "sqlite":
        yield f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        return
    schema = f"bench_api_{uuid.uuid4().hex[:8]}"
    admin = make_engine(postgres_url())
    with admin.begin() as connection:
        connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    try:
        yield f"{postgres_url()}?options=-csearch_path%3D{schema}"
    finally:
        with admin.begin() as connection:
            connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


if __name__ == "__main__":
    run()
