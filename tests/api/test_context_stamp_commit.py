"""PostgreSQL raises the coach's change stamp at commit (migration 0014), so two writers of one athlete
never wait for each other's stamp row mid-transaction, and the coach still reads every committed change.

Under 0013 the stamp row (one of 64 per athlete, by backend pid % 64) was taken at a transaction's first
change and held to its commit: two writers on connections sharing a row, each holding a memory row the
other then needs, deadlocked, and PostgreSQL ended one after deadlock_timeout. The schedule below runs
against 0013 (it deadlocks, the test proves the hazard) and against the head (both commit).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import Connection, Engine, inspect, text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.pool import NullPool

from domain.models import User
from persistence.engine import make_engine
from persistence.migrate import alembic_config, upgrade
from tests.api.test_context_cache import served_as_stored
from tests.databases import postgres_engine, unmigrated_engine
from tests.factories import make_memory, make_user

OLD = "0013_coach_stamps"
NEW = "0014_coach_stamps_at_commit"
WAIT_S = 60  # how long a step may take to reach the state it waits for, on a loaded machine
KNEE, SHINS, CALVES = "Knee swells", "Sore shins after hill runs", " and calves"
UPDATE = "UPDATE memories SET content = :content WHERE id = :id"


@dataclass(frozen=True)
class Athlete:
    user: User
    knee: int
    shins: int


def _athlete(engine: Engine, name: str) -> Athlete:
    user = make_user(engine, name)
    knee = make_memory(engine, user, "Knee pain after long runs").id
    return Athlete(user, knee, make_memory(engine, user, "Sore shins after track runs").id)


@contextmanager
def _schema_at(revision: str) -> Iterator[Engine]:
    with postgres_engine(migrated=False) as engine:
        command.upgrade(alembic_config(engine), revision)
        yield engine


@contextmanager
def _connections(engine: Engine) -> Iterator[Callable[[], Connection]]:
    """Connections of their own (no pool), each a backend of its own; all closed afterwards."""
    schema = _scalar(engine, "SELECT current_schema()")
    loose = make_engine(
        engine.url.render_as_string(hide_password=False),
        poolclass=NullPool,
        connect_args={"options": f"-csearch_path={schema}"},
    )
    opened: list[Connection] = []

    def connect() -> Connection:
        opened.append(loose.connect())
        return opened[-1]

    try:
        yield connect
    finally:
        for connection in opened:
            connection.close()
        loose.dispose()


def _scalar(engine: Engine, sql: str, **params: object) -> object:
    with engine.connect() as connection:
        return connection.execute(text(sql), params).scalar_one()


def _pid(connection: Connection) -> int:
    pid = int(connection.execute(text("SELECT pg_backend_pid()")).scalar_one())
    connection.rollback()
    return pid


def _sharing_a_stamp_row(connect: Callable[[], Connection]) -> tuple[Connection, Connection]:
    """Two connections whose backends share pid % 64: under 0013, the same stamp row of an athlete."""
    seen: dict[int, Connection] = {}
    for _ in range(65):
        connection = connect()
        shard = _pid(connection) % 64
        if shard in seen:
            return seen[shard], connection
        seen[shard] = connection
    raise AssertionError("65 connections, 64 shards")


def _until(done: Callable[[], bool], what: str) -> None:
    """Wait for a state (not for a time): fail only if it never comes."""
    deadline = time.monotonic() + WAIT_S
    while not done():
        assert time.monotonic() < deadline, f"never reached: {what}"
        time.sleep(0.02)


def _waits_for_a_lock(engine: Engine, pid: int) -> bool:
    sql = "SELECT coalesce(wait_event_type = 'Lock', false) FROM pg_stat_activity WHERE pid = :pid"
    return bool(_scalar(engine, sql, pid=pid))


class Writer(threading.Thread):
    """Runs `steps` on its connection in a thread of its own, committing at the end; keeps what failed."""

    def __init__(self, connection: Connection, steps: Callable[[Connection], None]) -> None:
        super().__init__(daemon=True)
        self.connection, self.steps = connection, steps
        self.errors: list[BaseException] = []

    def run(self) -> None:
        try:
            self.steps(self.connection)
            self.connection.commit()
        except DBAPIError as exc:
            self.errors.append(exc)
            self.connection.rollback()


def _deadlocked(errors: list[BaseException]) -> bool:
    return any("deadlock detected" in str(error) for error in errors)


def _crossing_writers(engine: Engine, ann: Athlete) -> list[BaseException]:
    """`first` changes the knee; `second` (same pid % 64) changes the shins and holds them; `first` then
    adds to the shins, so it waits for `second`; `second` commits, then `first`. What failed."""
    with _connections(engine) as connect:
        first, second = _sharing_a_stamp_row(connect)
        second_pid, first_pid = _pid(second), _pid(first)
        first.execute(text(UPDATE), {"content": KNEE, "id": ann.knee})
        wrote, go = threading.Event(), threading.Event()

        def shins_then_wait(connection: Connection) -> None:
            connection.execute(text(UPDATE), {"content": SHINS, "id": ann.shins})  # 0013: waits for first's stamp row
            wrote.set()
            assert go.wait(WAIT_S)

        def shins_too(connection: Connection) -> None:  # waits for second's shins, then adds to its change
            connection.execute(
                text(f"UPDATE memories SET content = content || '{CALVES}' WHERE id = :id"), {"id": ann.shins}
            )

        writer_two = Writer(second, shins_then_wait)
        writer_two.start()
        _until(lambda: wrote.is_set() or _waits_for_a_lock(engine, second_pid), "second holds the shins")
        writer_one = Writer(first, shins_too)
        writer_one.start()
        _until(lambda: _waits_for_a_lock(engine, first_pid) or not writer_one.is_alive(), "first waits")
        go.set()
        writer_two.join(WAIT_S)
        writer_one.join(WAIT_S)
        assert not writer_one.is_alive() and not writer_two.is_alive()
        return writer_one.errors + writer_two.errors


def test_the_crossing_writers_deadlocked_under_0013() -> None:
    """The schedule of the next test does reproduce the hazard on the old triggers."""
    with _schema_at(OLD) as engine:
        errors = _crossing_writers(engine, _athlete(engine, "ann"))
    assert _deadlocked(errors), errors


def test_two_writers_of_one_athlete_crossing_memory_locks_both_commit(postgres: Engine) -> None:
    ann = _athlete(postgres, "ann")
    served_as_stored(postgres, ann.user)  # the instance holds the athlete's index
    assert _crossing_writers(postgres, ann) == []
    assert sorted(served_as_stored(postgres, ann.user).contents) == [KNEE, SHINS + CALVES]
    assert _scalar(postgres, "SELECT count(*) FROM coach_stamp_pending") == 0


def _stamp(engine: Engine, athlete: Athlete) -> int:
    return int(str(_scalar(engine, "SELECT sum(stamp) FROM coach_stamps WHERE athlete_id = :a", a=athlete.user.id)))


def _noted(connection: Connection) -> int:
    sql = "SELECT count(*) FROM coach_stamp_pending WHERE xid = pg_current_xact_id()::text::bigint"
    return int(connection.execute(text(sql)).scalar_one())


def test_a_rolled_back_change_leaves_no_note_and_no_rise(postgres: Engine) -> None:
    ann = _athlete(postgres, "ann")
    before = served_as_stored(postgres, ann.user)
    stamp = _stamp(postgres, ann)
    with postgres.connect() as connection:
        connection.execute(text(UPDATE), {"content": "Phantom", "id": ann.knee})
        assert _noted(connection) == 1
        connection.rollback()
        with connection.begin():  # a change made in a savepoint that rolls back
            savepoint = connection.begin_nested()
            connection.execute(text(UPDATE), {"content": "Phantom", "id": ann.shins})
            savepoint.rollback()
            assert _noted(connection) == 0
    assert _scalar(postgres, "SELECT count(*) FROM coach_stamp_pending") == 0
    assert _stamp(postgres, ann) == stamp
    assert served_as_stored(postgres, ann.user) == before
    with postgres.begin() as connection:
        connection.execute(text(UPDATE), {"content": KNEE, "id": ann.knee})
    assert _stamp(postgres, ann) != stamp
    assert _scalar(postgres, "SELECT count(*) FROM coach_stamp_pending") == 0
    assert KNEE in served_as_stored(postgres, ann.user).contents


def _copy_memories(connection: Connection, athletes: list[Athlete], suffix: str) -> None:
    """COPY the athletes' memories back in, as new rows with `suffix` after their content."""
    names = connection.execute(text("SELECT * FROM memories LIMIT 0")).keys()
    columns = [c for c in names if c != "id"]
    listed = ", ".join(columns)
    chosen = ", ".join(f"content || '{suffix}'" if c == "content" else c for c in columns)
    ids = ", ".join(str(a.user.id) for a in athletes)
    cursor = connection.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
    rows = b""
    with cursor.copy(f"COPY (SELECT {chosen} FROM memories WHERE athlete_id IN ({ids})) TO STDOUT") as out:
        for chunk in out:
            rows += bytes(chunk)
    with cursor.copy(f"COPY memories ({listed}) FROM STDIN") as into:
        into.write(rows)


def _written(connection: Connection) -> int:
    """Stamp rows this backend has inserted or updated and not yet reported to the statistics (the
    counts of its earlier transactions, then its current one's): read twice in one transaction, the
    difference is what that transaction wrote in between."""
    sql = "SELECT n_tup_ins + n_tup_upd FROM pg_stat_xact_user_tables WHERE relname = 'coach_stamps'"
    sql += " AND schemaname = current_schema()"
    return int(connection.execute(text(sql)).scalar_one())


def test_a_copy_of_many_rows_of_two_athletes_raises_each_stamp_once(postgres: Engine) -> None:
    ann, bob = _athlete(postgres, "ann"), _athlete(postgres, "bob")
    served_as_stored(postgres, ann.user), served_as_stored(postgres, bob.user)
    stamps = _stamp(postgres, ann), _stamp(postgres, bob)
    with postgres.connect() as connection:
        written = _written(connection)
        _copy_memories(connection, [ann, bob], " (copied)")
        _copy_memories(connection, [ann, bob], " again")  # then four each: two statements, six rows each
        assert _noted(connection) == 2 and _written(connection) == written  # one note per athlete; no rise yet
        connection.execute(text("SET CONSTRAINTS ALL IMMEDIATE"))  # what the commit would do, now
        assert _noted(connection) == 0 and _written(connection) == written + 2  # one rise each
        connection.commit()
    assert (_stamp(postgres, ann), _stamp(postgres, bob)) != stamps
    assert _stamp(postgres, ann) != stamps[0] and _stamp(postgres, bob) != stamps[1]
    for athlete in (ann, bob):
        assert len(served_as_stored(postgres, athlete.user).contents) == 8
    assert _scalar(postgres, "SELECT count(*) FROM coach_stamp_pending") == 0


def test_set_constraints_all_immediate_raises_at_each_change(postgres: Engine) -> None:
    """The rise then comes at each statement (held to commit, as under 0013); other readers see it at commit."""
    ann = _athlete(postgres, "ann")
    before = served_as_stored(postgres, ann.user)
    stamp = _stamp(postgres, ann)
    with postgres.connect() as connection:
        connection.execute(text("SET CONSTRAINTS ALL IMMEDIATE"))
        written = _written(connection)
        connection.execute(text(UPDATE), {"content": KNEE, "id": ann.knee})
        assert _noted(connection) == 0 and _written(connection) == written + 1
        connection.execute(text(UPDATE), {"content": SHINS, "id": ann.shins})
        assert _noted(connection) == 0 and _written(connection) == written + 2
        assert served_as_stored(postgres, ann.user) == before  # not committed: the old answer, still fresh
        assert _stamp(postgres, ann) == stamp
        connection.commit()
    assert _stamp(postgres, ann) != stamp
    assert sorted(served_as_stored(postgres, ann.user).contents) == sorted([KNEE, SHINS])
    assert _scalar(postgres, "SELECT count(*) FROM coach_stamp_pending") == 0


def test_two_commits_of_two_athletes_noted_in_opposite_orders_do_not_deadlock(postgres: Engine) -> None:
    """Each commit raises its athletes' stamps in athlete order, whatever order it changed them in. A third
    connection holds ann's stamp row; `one` (ann, then bob) queues there first, then `two` (bob, then ann):
    raised in the order changed, `two` would hold bob's row while `one`, let through first, waits for it."""
    ann, bob = _athlete(postgres, "ann"), _athlete(postgres, "bob")
    assert ann.user.id < bob.user.id
    with _connections(postgres) as connect:
        holder, one, two = connect(), connect(), connect()
        one.execute(text(UPDATE), {"content": KNEE, "id": ann.knee})
        one.execute(text(UPDATE), {"content": KNEE, "id": bob.knee})
        two.execute(text(UPDATE), {"content": SHINS, "id": bob.shins})
        two.execute(text(UPDATE), {"content": SHINS, "id": ann.shins})
        holder.execute(text("SELECT 1 FROM coach_stamps WHERE athlete_id = :a FOR UPDATE"), {"a": ann.user.id})
        pids = _pid_of_open(one), _pid_of_open(two)
        writers = [Writer(one, lambda _c: None), Writer(two, lambda _c: None)]
        for writer, pid in zip(writers, pids, strict=True):
            writer.start()
            _until(lambda pid=pid: _waits_for_a_lock(postgres, pid), "the commit waits")
        holder.rollback()
        for writer in writers:
            writer.join(WAIT_S)
            assert not writer.is_alive()
        assert [e for w in writers for e in w.errors] == []
    for athlete in (ann, bob):
        assert sorted(served_as_stored(postgres, athlete.user).contents) == sorted([KNEE, SHINS])
    assert _scalar(postgres, "SELECT count(*) FROM coach_stamp_pending") == 0


def _pid_of_open(connection: Connection) -> int:
    """The backend pid of a connection inside its transaction (no rollback)."""
    return int(connection.execute(text("SELECT pg_backend_pid()")).scalar_one())


@pytest.fixture(params=["sqlite", "postgresql"])
def bare_engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    with unmigrated_engine(request.param, tmp_path) as engine:
        yield engine


def _shards(engine: Engine, athlete: Athlete) -> int:
    return int(str(_scalar(engine, "SELECT count(*) FROM coach_stamps WHERE athlete_id = :a", a=athlete.user.id)))


def test_upgrade_and_downgrade_keep_the_stamp_and_the_coach_fresh(bare_engine: Engine) -> None:
    """At 0013, writes on several connections (PostgreSQL: several stamp rows); the upgrade folds them
    into one with the same sum, so an index kept under it stays valid; writes after it, the downgrade
    and the upgrade again each reach the coach's next answer."""
    postgresql = bare_engine.dialect.name == "postgresql"
    config = alembic_config(bare_engine)
    command.upgrade(config, OLD)
    ann = _athlete(bare_engine, "ann")
    if postgresql:
        with _connections(bare_engine) as connect:
            for number, connection in enumerate([connect() for _ in range(6)]):
                connection.execute(text(UPDATE), {"content": f"Knee pain {number}", "id": ann.knee})
                connection.commit()
        assert _shards(bare_engine, ann) > 1
    stamp = _stamp(bare_engine, ann)
    served_as_stored(bare_engine, ann.user)
    upgrade(bare_engine)
    assert _stamp(bare_engine, ann) == stamp and _shards(bare_engine, ann) == 1
    with bare_engine.begin() as connection:
        connection.execute(text(UPDATE), {"content": KNEE, "id": ann.knee})
    assert KNEE in served_as_stored(bare_engine, ann.user).contents
    assert _shards(bare_engine, ann) == 1 and _stamp(bare_engine, ann) != stamp
    command.downgrade(config, OLD)
    tables = set(inspect(bare_engine).get_table_names())
    assert "coach_stamp_pending" not in tables and "coach_stamps" in tables
    with bare_engine.begin() as connection:
        connection.execute(text(UPDATE), {"content": SHINS, "id": ann.shins})
    assert sorted(served_as_stored(bare_engine, ann.user).contents) == sorted([KNEE, SHINS])
    upgrade(bare_engine)
    with bare_engine.begin() as connection:
        connection.execute(text(UPDATE), {"content": "Knee fine again", "id": ann.knee})
    assert "Knee fine again" in served_as_stored(bare_engine, ann.user).contents
    if postgresql:
        assert _shards(bare_engine, ann) == 1
        assert _scalar(bare_engine, "SELECT count(*) FROM coach_stamp_pending") == 0
