"""Write throughput and dedup cost: add / edit / soft delete / confirm per second through the
real services (one unit of work each, its audit event included) for an athlete with 1,000 and
with 100,000 memories (quick: 10,000; PostgreSQL 10,000 only), on SQLite (synchronous=FULL) and PostgreSQL, and on
PostgreSQL with 8 writers (one athlete each), first as threads of one process, then as 8 processes
(as several app instances write; quick: the processes only); SQLite with 4 writer threads (one
process's writers queue on its writer lock, persistence/sqlite_writers.py: the figure is their
latency per write, p50 / p95 / max; full mode only);
list_pending at 200 / 2,000 / 20,000 (quick: 200 / 2,000).

Beside each rate, the physical reference measured in the same run, interleaved round by round
(the machine is shared, so each ratio compares like with like): one-row INSERT + COMMIT on the
same disk (a plain sqlite3 file beside the database with the app's pragmas; a plain psycopg
connection to the same server). The stored memories and the pending proposals come from
tests/perf/dataset (BULK LOAD, not the services; PostgreSQL is ANALYZEd after it, as autovacuum
would); the measured operations all go through the services. Edits and deletes work on the
memories the adds made; confirms on the data set's pending proposals (their dedup outcomes are
counted and printed). The audit chain is keyed and anchored as the app runs it (persistence/ready.py:
an HMAC per event, the anchor file moved after each commit), and verified after each run, from the
data set's last event (checked again) over every event the run wrote.
"""

from __future__ import annotations

import atexit
import multiprocessing
import os
import secrets
import shutil
import sqlite3
import statistics
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import psycopg
from sqlalchemy import Engine, event, func, select, text

from domain import memories, proposals
from domain.audit import Checkpoint, verify_chain
from domain.enums import MemoryType, ProposalStatus
from domain.models import AuditEvent, AuditHead, Proposal, User
from domain.schemas import MemoryCreate, MemoryEdit
from persistence.audit_seal import seal_engine
from persistence.settings import Settings
from persistence.uow import unit_of_work
from tests.perf.dataset import Spec, generate, postgres_database, sqlite_database

try:  # the runner's figure store
    from tests.perf.run_all import record
except ImportError:  # pragma: no cover

    def record(name: str, value: float) -> None:
        pass


KINDS = ("add", "edit", "delete", "confirm")
TYPES = list(MemoryType)
PARTS = ["knee", "hip", "calf", "ankle", "back", "hamstring", "shin", "foot"]
THREADS = 8
SQLITE_THREADS = 4  # as the coach API's four clients of issue 9
PENDING = 300  # proposals waiting on the Context page, as in its target
REVIEW_SIZES = (200, 2_000, 20_000)
Raw = Callable[[int], None]


@dataclass
class Setup:
    """The athletes the writers act for (one per thread) and the work they are handed."""

    engine: Engine
    athletes: list[User]
    pending: list[list[int]]  # per athlete: pending proposal ids, one per confirm
    added: dict[tuple[int, int], int] = field(default_factory=dict)  # (athlete, n) → memory of the n-th add
    outcomes: Counter[str] = field(default_factory=Counter)
    statements: list[int] = field(default_factory=lambda: [0])


def seal(engine: Engine) -> None:
    """Key and anchor the chain as the app does from its start (persistence/ready.py), so each write
    pays what it pays there: the events' HMAC, and the anchor file moved after each commit."""
    folder = tempfile.mkdtemp(prefix="bench-seal-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    url = engine.url.render_as_string(hide_password=False)
    seal_engine(engine, Settings(database_url=url, data_dir=Path(folder), audit_key=secrets.token_urlsafe(32)))


def prepare(engine: Engine, spec: Spec) -> Setup:
    loaded = generate(engine, spec)
    if engine.dialect.name == "postgresql":
        with engine.begin() as connection:
            connection.exec_driver_sql("ANALYZE")
    seal(engine)
    with unit_of_work(engine, read_only=True) as session:
        athletes = [session.get_one(User, athlete_id) for athlete_id in loaded.heavy]
        pending = [
            list(
                session.scalars(
                    select(Proposal.id)
                    .where(Proposal.athlete_id == a.id, Proposal.status == ProposalStatus.PENDING)
                    .order_by(Proposal.id)
                )
            )
            for a in athletes
        ]
    setup = Setup(engine, athletes, pending)

    @event.listens_for(engine, "before_cursor_execute")
    def _count(*_: Any) -> None:
        setup.statements[0] += 1

    return setup


def operation(setup: Setup, kind: str, who: int) -> Callable[[int], None]:
    """The n-th operation of `kind` for athlete number `who`, in a unit of work of its own."""
    athlete, engine = setup.athletes[who], setup.engine

    def add(n: int) -> None:
        data = MemoryCreate(content=f"Added fact {n}", type=TYPES[n % 5], tags=[f"body:{PARTS[n % 8]}"])
        with unit_of_work(engine) as session:
            setup.added[who, n] = memories.add_memory(session, athlete, data=data).id

    def edit(n: int) -> None:  # the content: tags stay, their rows take the new updated_at
        with unit_of_work(engine) as session:
            changes = MemoryEdit(content=f"Edited fact {n}")
            memories.edit_memory(session, athlete, memory_id=setup.added[who, n], changes=changes, expected_version=1)

    def delete(n: int) -> None:
        with unit_of_work(engine) as session:
            memories.delete_memory(session, athlete, memory_id=setup.added[who, n])

    def confirm(n: int) -> None:
        with unit_of_work(engine) as session:
            proposals.confirm(session, athlete, proposal_id=setup.pending[who][n])

    return {"add": add, "edit": edit, "delete": delete, "confirm": confirm}[kind]


def rate(actions: list[Callable[[int], None]], first: int, count: int, latencies: list[float] | None = None) -> float:
    """`count` operations numbered from `first` in each of len(actions) threads; operations per second.
    Each operation's seconds go to `latencies` if given."""

    def work(action: Callable[[int], None]) -> None:
        for n in range(first, first + count):
            started = time.perf_counter()
            action(n)
            if latencies is not None:
                latencies.append(time.perf_counter() - started)

    started = time.perf_counter()
    if len(actions) == 1:
        work(actions[0])
    else:
        workers = [threading.Thread(target=work, args=(action,)) for action in actions]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
    return count * len(actions) / (time.perf_counter() - started)


class WriterProcesses:
    """The writers as processes, one per athlete, forked once the data set is loaded, each with a pool
    of its own: how several app instances write, without one process's interpreter lock between
    them (the threads above share one). Each keeps its own adds for its edits and deletes."""

    def __init__(self, setup: Setup) -> None:
        fork = multiprocessing.get_context("fork")
        self._pipes: list[Connection] = []
        self._processes = []
        for who in range(len(setup.athletes)):
            ours, theirs = fork.Pipe()
            process = fork.Process(target=_serve_writes, args=(setup, who, theirs), daemon=True)
            process.start()
            self._pipes.append(ours)
            self._processes.append(process)

    def rate(self, kind: str, first: int, count: int) -> tuple[float, float, float]:
        """`count` operations of `kind` from `first` in every process at once: (operations per second,
        CPU ms per op in the writers, statements per op)."""
        started = time.perf_counter()
        for pipe in self._pipes:
            pipe.send((kind, first, count))
        replies = [pipe.recv() for pipe in self._pipes]
        elapsed = time.perf_counter() - started
        operations = count * len(self._pipes)
        return operations / elapsed, sum(r[0] for r in replies) / operations, sum(r[1] for r in replies) / operations

    def close(self) -> None:
        for pipe in self._pipes:
            pipe.send(None)
        for process in self._processes:
            process.join(timeout=30)


def _serve_writes(setup: Setup, who: int, pipe: Connection) -> None:
    setup.engine.dispose(close=False)  # the parent's connections stay the parent's
    while (command := pipe.recv()) is not None:
        kind, first, count = command
        action = operation(setup, kind, who)
        before, started = setup.statements[0], time.process_time()
        for n in range(first, first + count):
            action(n)
        pipe.send(((time.process_time() - started) * 1000, setup.statements[0] - before))


def count_outcomes(setup: Setup, first: int, count: int) -> None:
    """What the next round's confirms will do (read before them, outside the timed loop)."""
    for who, athlete in enumerate(setup.athletes):
        with unit_of_work(setup.engine, read_only=True) as session:
            for n in range(first, first + count):
                preview = proposals.preview_confirm(session, athlete, proposal_id=setup.pending[who][n])
                setup.outcomes[preview.outcome] += 1


def measure(
    setup: Setup,
    raw: list[Raw],
    rounds: int,
    per_round: int,
    *,
    processes: WriterProcesses | None = None,
    first_round: int = 0,
) -> dict[str, float]:
    """Rounds of raw, add, edit, delete, confirm; medians of the rates and of the ratios to raw.
    The writers are threads of this process, or `processes`."""
    threads = len(setup.athletes)
    rates: dict[str, list[float]] = {kind: [] for kind in ("raw", *KINDS)}
    cpu: dict[str, list[float]] = {kind: [] for kind in ("raw", *KINDS)}  # the writers' CPU ms per op
    statements = dict.fromkeys(KINDS, 0.0)
    latencies: dict[str, list[float]] = {kind: [] for kind in KINDS}  # seconds per op (threads only)
    for r in range(first_round, first_round + rounds):
        first = r * per_round
        started = time.process_time()
        rates["raw"].append(rate(raw, first, per_round))
        cpu["raw"].append((time.process_time() - started) * 1000 / (per_round * len(raw)))
        count_outcomes(setup, first, per_round)
        for kind in KINDS:
            if processes is not None:
                ops_per_s, cpu_ms, per_op = processes.rate(kind, first, per_round)
                rates[kind].append(ops_per_s)
                cpu[kind].append(cpu_ms)
                statements[kind] = per_op
                continue
            before, started = setup.statements[0], time.process_time()
            actions = [operation(setup, kind, who) for who in range(threads)]
            rates[kind].append(rate(actions, first, per_round, latencies[kind]))
            cpu[kind].append((time.process_time() - started) * 1000 / (per_round * threads))
            statements[kind] = (setup.statements[0] - before) / (per_round * threads)
    result = {kind: statistics.median(values) for kind, values in rates.items()}
    for kind in ("raw", *KINDS):
        result[f"{kind}_cpu_ms"] = statistics.median(cpu[kind])
    for kind, seconds in latencies.items():
        if seconds:
            ordered = sorted(seconds)
            for name, share in (("p50", 0.5), ("p95", 0.95)):
                result[f"{kind}_{name}_ms"] = 1000 * ordered[min(len(ordered) - 1, int(share * len(ordered)))]
            result[f"{kind}_max_ms"] = 1000 * ordered[-1]
    for kind in KINDS:
        result[f"{kind}_ratio"] = statistics.median(w / r for w, r in zip(rates[kind], rates["raw"], strict=True))
        result[f"{kind}_statements"] = statements[kind]
    return result


def sqlite_raw(directory: Path) -> Raw:
    """One-row INSERT + COMMIT with the app's pragmas, in a plain sqlite3 file on the same disk."""
    connection = sqlite3.connect(directory / "raw.sqlite3", isolation_level=None, check_same_thread=False)
    for pragma in ("journal_mode=WAL", "synchronous=FULL"):
        connection.execute(f"PRAGMA {pragma}")
    connection.execute("CREATE TABLE IF NOT EXISTS raw (id INTEGER PRIMARY KEY, v TEXT)")

    def commit_one(n: int) -> None:
        connection.execute("BEGIN IMMEDIATE")
        connection.execute("INSERT INTO raw (v) VALUES (?)", (f"row {n}",))
        connection.execute("COMMIT")

    return commit_one


def postgres_raw(engine: Engine, writers: int) -> list[Raw]:
    """One-row INSERT + COMMIT per plain psycopg connection (one per writer), beside the bench's schema."""
    with engine.begin() as connection:
        connection.execute(text("CREATE TABLE IF NOT EXISTS raw (id serial PRIMARY KEY, v text)"))
        schema = connection.execute(text("SELECT current_schema()")).scalar_one()
    conninfo = engine.url.set(drivername="postgresql").render_as_string(hide_password=False)

    def writer() -> Raw:
        connection = psycopg.connect(conninfo, options=f"-csearch_path={schema}")

        def commit_one(n: int) -> None:
            with connection.cursor() as cursor:
                cursor.execute("INSERT INTO raw (v) VALUES (%s)", (f"row {n}",))
            connection.commit()

        return commit_one

    return [writer() for _ in range(writers)]


def list_pending_ms(engine: Engine, repeats: int, sizes: tuple[int, ...]) -> list[tuple[int, float, int]]:
    """list_pending's first page (50) of PENDING proposals, for athletes with each of `sizes` memories
    (quick: without the largest, whose data set took most of the quick run's time)."""
    spec = Spec(athletes=len(sizes), memories=sum(sizes), heavy=sizes, heavy_pending=PENDING)
    loaded = generate(engine, spec)
    if engine.dialect.name == "postgresql":
        with engine.begin() as connection:
            connection.exec_driver_sql("ANALYZE")
    count = [0]

    @event.listens_for(engine, "before_cursor_execute")
    def _count(*_: Any) -> None:
        count[0] += 1

    found = []
    for stored, athlete_id in zip(sizes, loaded.heavy, strict=True):
        with unit_of_work(engine, read_only=True) as session:
            athlete = session.get_one(User, athlete_id)
        timings = []
        for _ in range(repeats):
            count[0] = 0
            started = time.perf_counter()
            with unit_of_work(engine, read_only=True) as session:
                page = proposals.list_pending(session, athlete, limit=50)
            timings.append((time.perf_counter() - started) * 1000)
        assert len(page.items) == 50, len(page.items)
        found.append((stored, statistics.median(timings), count[0]))
    return found


@contextmanager
def database(store: str) -> Iterator[Engine | None]:
    with sqlite_database() if store == "SQLite" else postgres_database() as engine:
        yield engine


def _head(engine: Engine) -> Checkpoint:
    with unit_of_work(engine, read_only=True) as session:
        seq, hash_ = session.execute(select(AuditHead.seq, AuditHead.hash).where(AuditHead.id == 1)).one()
    return Checkpoint(seq, hash_)


def _waited(engine: Engine) -> tuple[int, int]:
    """Events in the chain, and of them those that waited in audit_pending (PostgreSQL: the writer found
    the head held by another transaction and left its event for the next holder to chain)."""
    with unit_of_work(engine, read_only=True) as session:
        events, waited = session.execute(select(func.count(), func.count(AuditEvent.pending_id))).one()
    return events, waited


def _check_chain(engine: Engine, start: Checkpoint) -> None:
    """The chain verifies from the data set's last event (checked again) over every event the bench wrote."""
    with unit_of_work(engine, read_only=True) as session:
        report = verify_chain(session, start=start)
    if not report.ok:
        raise SystemExit(f"the bench broke the audit chain: {report.summary()}")


def run(quick: bool = False) -> None:
    sizes = (1_000, 10_000) if quick else (1_000, 100_000)
    rounds, per_round = (2, 40) if quick else (3, 300)
    started, load = time.perf_counter(), os.getloadavg()
    print(f"load average at start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} (2 cores, shared)", flush=True)
    rows: list[tuple[str, int, dict[str, float], Counter[str]]] = []
    pending: list[tuple[str, int, float, int]] = []
    for store in ("SQLite", "PostgreSQL"):
        # quick: PostgreSQL at the larger size only (SQLite shows 1k against 10k)
        store_sizes = sizes[-1:] if quick and store != "SQLite" else sizes
        several = (sizes[0], SQLITE_THREADS) if store == "SQLite" else (sizes[-1], THREADS)
        # quick: SQLite's several writers (the writer lock's latency) only in full mode, to stay under 3 minutes
        configurations = [(size, 1) for size in store_sizes] + ([] if quick and store == "SQLite" else [several])
        for stored, writers in configurations:
            with database(store) as engine:
                if engine is None:
                    break
                per_writer = per_round if writers == 1 else per_round // 2
                heavy = (stored // writers,) * writers
                # several writers: rounds in threads, then (PostgreSQL) as many in processes, on the same data;
                # quick: the processes only (as several instances write), to stay under three minutes
                passes = 2 if writers > 1 and store != "SQLite" else 1
                in_threads = not (quick and passes > 1)
                pending_rounds = (passes if in_threads else 1) * rounds
                spec = Spec(athletes=writers, memories=stored, heavy=heavy, heavy_pending=pending_rounds * per_writer)
                setup = prepare(engine, spec)
                loaded_head = _head(engine)
                if store == "SQLite":
                    raw = [sqlite_raw(Path(str(engine.url.database)).parent)]
                else:
                    raw = postgres_raw(engine, writers)
                label = store if writers == 1 else f"{store}, {writers} writers"
                if in_threads:
                    rows.append((label, stored, measure(setup, raw, rounds, per_writer), setup.outcomes))
                    print(f"  measured {label} at {stored:,} memories", flush=True)
                if passes > 1:
                    setup.outcomes = Counter()
                    processes = WriterProcesses(setup)
                    first = rounds if in_threads else 0
                    before = _waited(engine)
                    try:
                        result = measure(setup, raw, rounds, per_writer, processes=processes, first_round=first)
                    finally:
                        processes.close()
                    events, waited = (after - earlier for after, earlier in zip(_waited(engine), before, strict=True))
                    rows.append((f"{store}, {writers} processes", stored, result, setup.outcomes))
                    print(
                        f"  measured {store}, {writers} processes at {stored:,} memories "
                        f"({waited:,} of {events:,} events waited in audit_pending: the head was held)",
                        flush=True,
                    )
                    record(
                        f"writes_waited_pct_{store.lower()}_{writers}_processes", round(100 * waited / max(events, 1))
                    )
                _check_chain(engine, loaded_head)
        with database(store) as engine:
            if engine is not None:
                sizes_reviewed = REVIEW_SIZES[:-1] if quick else REVIEW_SIZES
                pending += [
                    (store, *figures) for figures in list_pending_ms(engine, 5 if quick else 15, sizes_reviewed)
                ]
    _print(rows, pending)
    load = os.getloadavg()
    print(f"load average at end: {load[0]:.2f}; {time.perf_counter() - started:.0f} s")


def _print(
    rows: list[tuple[str, int, dict[str, float], Counter[str]]], pending: list[tuple[str, int, float, int]]
) -> None:
    print(f"\n{'store':<24} {'memories':>9} {'raw/s':>7}", end="")
    for kind in KINDS:
        print(f" {kind + '/s':>10} {'%raw':>5} {'sql':>4}", end="")
    print("   confirm outcomes")
    for store, stored, result, outcomes in rows:
        print(f"{store:<24} {stored:>9,} {result['raw']:>7,.0f}", end="")
        for kind in KINDS:
            print(
                f" {result[kind]:>10,.0f} {result[kind + '_ratio']:>5.0%} {result[kind + '_statements']:>4.1f}", end=""
            )
        print("   " + ", ".join(f"{n} {outcome}" for outcome, n in sorted(outcomes.items())))
        slug = f"{store.lower().replace(', ', '_').replace(' ', '_')}_{stored // 1000}k"
        record(f"writes_raw_commits_per_s_{slug}", round(result["raw"]))
        for kind in KINDS:
            record(f"writes_{kind}_per_s_{slug}", round(result[kind]))
            record(f"writes_{kind}_of_raw_pct_{slug}", round(100 * result[kind + "_ratio"]))
    print(
        "%raw: the median over rounds of (rate / the raw INSERT+COMMIT rate of the same round); sql: statements per op"
    )
    print("\nCPU of the writers per op, ms (median over rounds; PostgreSQL's server CPU and disk waits not included):")
    print(f"{'store':<24} {'memories':>9} {'raw':>7}" + "".join(f" {kind:>8}" for kind in KINDS))
    for store, stored, result, _ in rows:
        cpu = "".join(f" {result[kind + '_cpu_ms']:>8.3f}" for kind in KINDS)
        print(f"{store:<24} {stored:>9,} {result['raw_cpu_ms']:>7.3f}{cpu}")
    several = [(store, stored, result) for store, stored, result, _ in rows if "add_p95_ms" in result and "," in store]
    if several:
        print("\nLatency per op with several writer threads, ms (p50 / p95 / max over every op of every round):")
        for store, stored, result in several:
            figures = "   ".join(
                f"{kind} " + " / ".join(f"{result[f'{kind}_{name}_ms']:.1f}" for name in ("p50", "p95", "max"))
                for kind in KINDS
            )
            print(f"  {store:<24} {stored:>9,}   {figures}")
            slug = f"{store.lower().replace(', ', '_').replace(' ', '_')}_{stored // 1000}k"
            for kind in KINDS:
                record(f"writes_{kind}_p95_ms_{slug}", round(result[kind + "_p95_ms"], 1))
    print(f"\nlist_pending, the first page (50) of {PENDING} pending proposals:")
    for store, stored, ms, statements in pending:
        print(f"  {store:<12} {stored:>7,} memories: {ms:7.1f} ms median, {statements} statements")
        record(f"list_pending_ms_{store.lower()}_{stored}", round(ms, 1))


if __name__ == "__main__":
    run()
