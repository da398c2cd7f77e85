"""The reliability tests at full length (issue 14's "tests that stay"): the concurrency load of
tests/integration/test_concurrency.py for a minute on SQLite and on PostgreSQL (quick: 2 s,
PostgreSQL with the retry only), and the crash test's SIGKILLs 50 times (quick: 5). Prints and
records what happened: operations by outcome, deadlocks met (with and without the retry), kills
survived, committed changes checked. Each run asserts what the short tests assert; a failure fails
this module.
"""

from __future__ import annotations

import random
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import Engine, text

from persistence.engine import make_engine
from persistence.migrate import upgrade
from persistence.ready import ready_engine
from persistence.settings import Settings
from tests.databases import postgres_engine, postgres_unreachable_reason, postgres_url
from tests.integration.test_concurrency import THREADS, check_nothing_lost, hammer, seed
from tests.integration.test_crash import _check_after_kill, _run_and_kill
from tests.perf.figures import record

CONCURRENCY_S = 60
CRASH_KILLS = 50


def _concurrency(engine: Engine, name: str, seconds: float, *, retry: bool) -> None:
    athlete = seed(engine)
    tally = hammer(engine, athlete, seconds, retry=retry)
    assert not tally.unexpected, tally.unexpected[:5]
    check_nothing_lost(engine, athlete, tally)
    done = sum(n for outcome, n in tally.outcomes.items() if not outcome.startswith("refused"))
    refused = sum(n for outcome, n in tally.outcomes.items() if outcome.startswith("refused"))
    print(f"{name}: {seconds:.0f} s, 20 threads: {dict(tally.outcomes)}")
    record(f"concurrency_{name}_done_count", done)
    record(f"concurrency_{name}_refused_count", refused)
    record(f"concurrency_{name}_deadlocks_count", tally.outcomes["deadlock"])


@contextmanager
def _one_connection_per_thread(schema_engine: Engine) -> Iterator[Engine]:
    """The same schema with a pool for 20 threads: with the default pool (5 + 10 overflow) the
    threads past 15 queue for a connection, and over a minute some wait out the pool's 30 s."""
    with schema_engine.connect() as connection:
        schema = connection.execute(text("SELECT current_schema()")).scalar()
    engine = make_engine(postgres_url(), connect_args={"options": f"-csearch_path={schema}"}, pool_size=THREADS)
    try:
        yield engine
    finally:
        engine.dispose()


def _crash(kills: int) -> None:
    with tempfile.TemporaryDirectory() as directory:
        url = f"sqlite:///{Path(directory) / 'memory-review.sqlite3'}"
        engine = ready_engine(Settings(database_url=url, data_dir=Path(directory)))
        seed(engine, proposals_count=100)
        rng = random.Random(14)
        committed = 0
        for run in range(kills):
            reported = _run_and_kill(url, run, rng)
            _check_after_kill(engine, reported)
            committed += len(reported)
        engine.dispose()
    print(f"crash: {kills} SIGKILLs survived; {committed} changes reported committed, all present")
    record("crash_kills_survived_count", kills)
    record("crash_committed_checked_count", committed)


def run(quick: bool = False) -> None:
    seconds = 2 if quick else CONCURRENCY_S
    with tempfile.TemporaryDirectory() as directory:
        # One connection per thread: the 20 threads are more than the default pool (5 + 10 overflow).
        engine = make_engine(f"sqlite:///{Path(directory) / 'load.sqlite3'}", pool_size=THREADS)
        upgrade(engine)
        _concurrency(engine, "sqlite", seconds, retry=True)
        engine.dispose()
    if (reason := postgres_unreachable_reason()) is not None:
        print(f"PostgreSQL skipped: {reason}")
    else:
        # quick: without the contrast run that shows what the deadlock retry saves
        for name, retry in (("postgresql", True),) if quick else (("postgresql", True), ("postgresql_no_retry", False)):
            with postgres_engine() as schema_engine, _one_connection_per_thread(schema_engine) as engine:
                _concurrency(engine, name, seconds, retry=retry)
    _crash(5 if quick else CRASH_KILLS)
