"""A seeded, reproducible data set for the benchmarks: athletes, memories of every type and state
(active, deleted, archived with superseded_by), proposals (pending, confirmed, rejected, expired),
source texts, coach reads, and a valid hash-chained audit log.

BULK LOAD, NOT THE SERVICES: rows go straight into the tables (multi-row executemany on SQLite,
COPY on PostgreSQL) with explicit ids, so a million memories and a million events load in
minutes. Everything the services would keep in step is kept here too: audit events are hashed
with domain.audit's own functions and the head row moves with them (`audit verify` passes);
the SQLite full-text index is filled by its triggers as rows arrive (PostgreSQL's indexes follow
the rows); `content_key` and `memory_tags` are filled with domain.dedup_keys when the schema has
them. Same `Spec` and seed, same data (ids too, on an empty database).

    from tests.perf.dataset import Spec, generate, sqlite_database
    with sqlite_database() as engine:
        loaded = generate(engine, Spec(athletes=1_000, memories=1_000_000, heavy=(2_000,)))
        athlete = loaded.heavy[0]  # log in as loaded.usernames[0] with PASSWORD

    path, loaded = cached(Spec(...))  # or: a SQLite file generated once, reused while nothing changed

Coach reads: the coach API stores one `coach_reads` row (and its `coach_read_memories`) per read;
the walk writes about `reads_per_memory` of them per memory, serving the athlete's newest active
memories. A bench of the coach API's read path can start from them (`Loaded.coach_token`).
"""

from __future__ import annotations

import hashlib
import importlib
import os
import random
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, text

from domain.enums import AuditAction, AuditTarget, Role
from domain.types import utcnow
from persistence.engine import make_engine
from persistence.migrate import upgrade
from tests.perf.dataset.cache import cached_sqlite, copy_to
from tests.perf.dataset.chain import Chain
from tests.perf.dataset.phrases import COMMON_WORDS, RARE_WORDS
from tests.perf.dataset.timeline import COACH_LABEL, IMPLIED_PER_MEMORY, Athlete, Ids, Walk
from tests.perf.dataset.writer import BulkWriter, next_ids, reset_sequences, tune_for_load

__all__ = [
    "COMMON_WORDS",
    "MILLION",
    "PASSWORD",
    "QUICK",
    "RARE_WORDS",
    "Loaded",
    "Spec",
    "cached",
    "copy_to",
    "generate",
    "postgres_database",
    "postgres_url",
    "sqlite_database",
    "standard",
]

PASSWORD = "bench-password"
COACH_SECRET = "mr_bench-coach-secret-not-for-production-000000"
_ID_TABLES = ("users", "api_tokens", "memories", "proposals", "source_texts", "coach_reads")
_PASSWORD_HASH: list[str] = []
# Archived memories point at the memory that replaced them, which was written after them.
_LINK_SUPERSEDED = (
    "UPDATE memories SET superseded_by_id = :superseded_by_id, archived_at = :archived_at, "
    "updated_at = :archived_at, version = 2 WHERE id = :id"
)


@dataclass(frozen=True)
class Spec:
    """What to generate. `memories` counts every state (about 89 % active, 5 % deleted, 6 % archived).

    `heavy`: memories of the first athletes, taken out of `memories` (e.g. (2_000,) for the Context
    page's athlete); the rest is split evenly over the other athletes. Pending proposals arrive in
    the last three days: `pending` per athlete, `heavy_pending` per heavy athlete. Rejected and
    expired proposals: `rejected_per_memory` × memories. `audit_events`: about that many events,
    spread over the year (None: every event the rows imply, about 3.4 per memory), never more;
    the chain stays valid, some rows just have no event.
    """

    athletes: int = 10
    memories: int = 10_000
    heavy: tuple[int, ...] = ()
    pending: int = 5
    heavy_pending: int = 300
    rejected_per_memory: float = 0.15
    reads_per_memory: float = 0.05
    audit_events: int | None = None
    seed: int = 7
    prefix: str = "bench"  # usernames: bench00000, bench00001, …; the admin is benchadmin

    def counts(self) -> list[int]:
        light = self.athletes - len(self.heavy)
        rest = self.memories - sum(self.heavy)
        if light < 0 or rest < 0 or (light == 0 and rest > 0):
            raise ValueError("heavy athletes need to fit in athletes and memories")
        return list(self.heavy) + [rest // light + (n < rest % light) for n in range(light)]


@dataclass(frozen=True)
class Loaded:
    athlete_ids: list[int]
    usernames: list[str]  # same order; all log in with PASSWORD
    admin_id: int
    admin_username: str
    coach_token: str  # the secret of an API token named bench-coach (scopes ingest and read)
    rows: dict[str, int]  # rows written per table
    audit_head: int  # seq of the chain's head after the load
    seconds: float
    heavy: list[int] = field(default_factory=list)  # ids of the heavy athletes, in Spec.heavy's order

    def summary(self) -> str:
        shown = ", ".join(f"{n:,} {t}" for t, n in self.rows.items() if n)
        return f"generated {shown} in {self.seconds:.1f} s"


# The shared data sets: benches that use the same one share its cached file (see `cached`).
MILLION = Spec(athletes=1_000, memories=1_000_000, heavy=(2_000, 20_000), audit_events=1_000_000)
QUICK = Spec(athletes=20, memories=20_000, heavy=(2_000,), audit_events=20_000)


def standard(quick: bool) -> Spec:
    """MILLION (full mode) or QUICK: the first athlete has 2,000 memories and 300 pending proposals."""
    return QUICK if quick else MILLION


def generate(
    engine: Engine, spec: Spec, *, progress: Callable[[str], None] | None = None, durable: bool = True
) -> Loaded:
    """Bulk-load `spec` into a migrated database (empty, or with data: ids and the chain continue).
    `durable=False`: a fresh SQLite file no one else has open, loaded without journal or fsync."""
    started = time.perf_counter()
    rng = random.Random(spec.seed)
    now = utcnow().replace(microsecond=0)
    with engine.connect() as connection:
        tune_for_load(engine, connection, durable=durable)
        connection.commit()
        ids = next_ids(connection, _ID_TABLES)
        head_seq, head_hash = connection.execute(text("SELECT seq, hash FROM audit_head WHERE id = 1")).one()
        chain = Chain(head_seq, head_hash, spec.audit_events, _keep(spec), spec.seed)
        writer = BulkWriter(connection, on_flush=lambda c: _move_head(c, chain))
        athletes, admin, token_id = _people(writer, chain, spec, ids, now - timedelta(days=366))
        walk = Walk(
            rng=rng,
            writer=writer,
            chain=chain,
            ids=Ids(memory=ids["memories"], proposal=ids["proposals"], source=ids["source_texts"],
                    read=ids["coach_reads"]),
            athletes=athletes,
            admin=admin,
            token_id=token_id,
            start=now - timedelta(days=365),
            now=now,
            rejected=int(spec.memories * spec.rejected_per_memory),
            reads_per_memory=spec.reads_per_memory,
        )  # fmt: skip
        _dedup_keys(writer, walk)
        walk.run()
        writer.flush()
        writer.execute_many(_LINK_SUPERSEDED, "memories", walk.superseded)
        reset_sequences(connection, _ID_TABLES)
        connection.commit()
        connection.invalidate()  # its bulk-load settings must not serve the benchmark's own work
    loaded = Loaded(
        athlete_ids=[a.id for a in athletes],
        usernames=[a.username for a in athletes],
        admin_id=admin[0],
        admin_username=admin[1],
        coach_token=COACH_SECRET,
        rows={t: n for t, n in writer.written.items()},
        audit_head=chain.seq,
        seconds=time.perf_counter() - started,
        heavy=[a.id for a in athletes[: len(spec.heavy)]],
    )
    if progress is not None:
        progress(loaded.summary())
    return loaded


def _keep(spec: Spec) -> float:
    """The share of implied events to write so about `audit_events` are written over the whole year."""
    if spec.audit_events is None:
        return 1.0
    pending = spec.pending * (spec.athletes - len(spec.heavy)) + spec.heavy_pending * len(spec.heavy)
    implied = spec.athletes + spec.memories * IMPLIED_PER_MEMORY + spec.memories * spec.rejected_per_memory * 3
    return min(1.0, 1.05 * spec.audit_events / (implied + pending * 2))


def _password_hash() -> str:
    if not _PASSWORD_HASH:
        from domain.passwords import hash_password

        _PASSWORD_HASH.append(hash_password(PASSWORD))
    return _PASSWORD_HASH[0]


def _people(
    writer: BulkWriter, chain: Chain, spec: Spec, ids: dict[str, int], at: Any
) -> tuple[list[Athlete], tuple[int, str], int | None]:
    """The athletes, one admin and the coaching system's token, with their audit events."""
    password = _password_hash()
    admin_id = ids["users"]
    admin = (admin_id, f"{spec.prefix}admin")
    users = [(admin_id, admin[1], Role.ADMIN)]
    athletes = []
    for n, count in enumerate(spec.counts()):
        athlete = Athlete(admin_id + 1 + n, f"{spec.prefix}{n:05d}", count, spec.pending)
        if n < len(spec.heavy):
            athlete.pending = spec.heavy_pending
        athletes.append(athlete)
        users.append((athlete.id, athlete.username, Role.ATHLETE))
    for user_id, username, role in users:
        writer.add(
            "users",
            {"id": user_id, "username": username, "display_name": username.capitalize(), "role": role.value,
             "password_hash": password, "disabled": False, "session_epoch": 0, "created_at": at,
             "last_login_at": None},
        )  # fmt: skip
        if chain.admit():
            event = chain.event(
                at=at,
                actor=(None, "system"),
                action=AuditAction.USER_CREATE,
                target=AuditTarget.USER,
                target_id=user_id,
                athlete_id=user_id if role == Role.ATHLETE else None,
                after={"username": username, "role": role.value},
            )
            writer.add("audit_events", event)
    token_id = ids["api_tokens"] if writer.has("api_tokens") else None
    writer.add(
        "api_tokens",
        {"id": token_id, "name": COACH_LABEL.removeprefix("token:"),
         "token_hash": hashlib.sha256(COACH_SECRET.encode()).hexdigest(), "scopes": ["ingest", "read"],
         "created_at": at, "revoked_at": None, "created_by": admin[1], "last_used_at": None},
    )  # fmt: skip
    return athletes, admin, token_id


def _dedup_keys(writer: BulkWriter, walk: Walk) -> None:
    """content_key and memory_tags, computed as domain.dedup_keys does, when the schema has them."""
    if not (writer.has("memories", "content_key") or writer.has("memory_tags")):
        return
    keys = importlib.import_module("domain.dedup_keys")
    if writer.has("memories", "content_key"):
        walk.content_key = keys.content_key
    if writer.has("memory_tags"):
        walk.tag_rows = keys.tag_rows


def _move_head(connection: Connection, chain: Chain) -> None:
    connection.execute(
        text("UPDATE audit_head SET seq = :seq, hash = :hash WHERE id = 1"), {"seq": chain.seq, "hash": chain.hash}
    )


def cached(spec: Spec) -> tuple[Path, Loaded]:
    """A SQLite file holding `spec`'s data, generated once and reused (tests/perf/dataset/cache.py),
    and its Loaded. Open it read-only, or write to `copy_to(path, tmp / "db.sqlite3")`."""
    path, facts = cached_sqlite(spec, lambda engine, s: asdict(generate(engine, s, progress=print, durable=False)))
    return path, Loaded(**facts)


def postgres_url() -> str:
    return os.environ.get("MEMORY_REVIEW_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")


@contextmanager
def sqlite_database(path: Path | None = None) -> Iterator[Engine]:
    """A migrated SQLite file (in a temporary folder unless `path` is given), engine as the app makes it."""
    with tempfile.TemporaryDirectory(prefix="bench-db-") as folder:
        engine = make_engine(f"sqlite:///{path or Path(folder) / 'bench.sqlite3'}")
        upgrade(engine)
        try:
            yield engine
        finally:
            engine.dispose()


@contextmanager
def postgres_database() -> Iterator[Engine | None]:
    """A fresh migrated schema on the test PostgreSQL server, dropped afterwards; None if unreachable."""
    try:
        admin = make_engine(postgres_url())
        with admin.begin() as connection:
            schema = f"bench_{uuid.uuid4().hex[:10]}"
            connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    except Exception as exc:  # any failure to reach it means: no PostgreSQL figures
        print(f"PostgreSQL at {postgres_url()} not reachable ({type(exc).__name__}): its figures are skipped")
        yield None
        return
    engine = make_engine(postgres_url(), connect_args={"options": f"-csearch_path={schema}"})
    try:
        upgrade(engine)
        yield engine
    finally:
        engine.dispose()
        with admin.begin() as connection:
            connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()
