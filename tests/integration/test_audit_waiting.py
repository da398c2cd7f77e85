"""PostgreSQL writers that find the audit chain's head taken do not queue for it (domain.audit,
issue 9): their events wait in audit_pending, committed with their change, and the next
transaction to take the head chains them. Here the head is held by another transaction on
purpose, and each test checks what an athlete or an admin would see: the change is saved at
once, its event is in the history as soon as anyone reads it, a hard delete still redacts it,
`audit verify` passes, a chainer killed half-way loses nothing, and a waiting event slipped in
by someone without the key is reported, never chained."""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import threading
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, event, func, insert, select, text

from domain import audit, memories
from domain.actors import SYSTEM
from domain.audit import ChainReport, attach_seal, chain_waiting
from domain.audit_checkpoints import verify
from domain.audit_deep import compare_memories
from domain.audit_refused import NOT_SIGNED, refused_events
from domain.enums import AuditAction, AuditTarget, MemoryType, Role
from domain.models import AuditEvent, AuditPending, User
from domain.schemas import MemoryCreate, MemoryEdit
from persistence.audit_seal import FileSeal, seal_engine
from persistence.engine import make_engine
from persistence.settings import Settings
from persistence.uow import unit_of_work
from tests.databases import postgres_url
from tests.factories import make_memory, make_user
from tests.integration.audit_helpers import head_held
from ui.components.admin_audit import refused_text

WAIT_S = 20  # a writer that queued for the held head would still be blocked after this


@pytest.fixture
def sealed(postgres: Engine, tmp_path: Path) -> FileSeal:
    """Keyed and anchored, as the app runs on PostgreSQL."""
    return seal_engine(postgres, Settings(database_url=str(postgres.url), data_dir=tmp_path))


def in_thread(work: object) -> None:
    """Run `work` and fail if it does not finish while the head is held: it must not queue."""
    errors: list[BaseException] = []

    def run() -> None:
        try:
            work()  # type: ignore[operator]
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(WAIT_S)
    assert not thread.is_alive(), "the writer queued for the head another transaction holds"
    assert errors == []


def add(engine: Engine, athlete: User, content: str) -> int:
    with unit_of_work(engine) as session:
        data = MemoryCreate(content=content, type=MemoryType.PREFERENCE, tags=["time:morning"])
        return memories.add_memory(session, athlete, data=data).id


def waiting(engine: Engine) -> int:
    with engine.connect() as connection:
        return connection.scalar(select(func.count()).select_from(AuditPending)) or 0


def check(engine: Engine, *, full: bool = True) -> ChainReport:
    with unit_of_work(engine, read_only=True) as session:
        return verify(session, SYSTEM, full=full)


def test_a_writer_that_finds_the_head_taken_saves_at_once_and_its_event_is_in_the_history(
    postgres: Engine, sealed: FileSeal
) -> None:
    athlete = make_user(postgres, "alex")
    made: list[int] = []
    with head_held(postgres):
        in_thread(lambda: made.append(add(postgres, athlete, "Prefers morning runs")))
        assert waiting(postgres) == 1  # committed with the memory, not chained yet
        with unit_of_work(postgres, read_only=True) as session:
            assert memories.get_memory(session, athlete, memory_id=made[0]).content == "Prefers morning runs"
    with unit_of_work(postgres, read_only=True) as session:  # reading the log chains what waits first
        history = memories.memory_history(session, athlete, memory_id=made[0])
    assert [event.action for event in history] == [AuditAction.CREATE]
    assert waiting(postgres) == 0
    report = check(postgres)
    assert report.ok, report.summary()
    anchor = sealed.anchor()
    assert anchor is not None and anchor.seq == report.verified.seq  # moved by whoever chained it


def test_events_waiting_behind_a_holder_are_chained_by_the_next_writer_in_order(
    postgres: Engine, sealed: FileSeal
) -> None:
    athlete = make_user(postgres, "alex")
    with head_held(postgres):
        for n in range(3):
            in_thread(lambda n=n: add(postgres, athlete, f"Waiting fact {n}"))
        assert waiting(postgres) == 3
    add(postgres, athlete, "Chaining fact")  # finds the head free: chains the three, then its own
    assert waiting(postgres) == 0
    with unit_of_work(postgres, read_only=True) as session:
        contents = [
            (event.after or {}).get("content")
            for event in session.scalars(select(AuditEvent).order_by(AuditEvent.seq))
            if event.target_type == AuditTarget.MEMORY
        ]
    assert contents[-4:] == ["Waiting fact 0", "Waiting fact 1", "Waiting fact 2", "Chaining fact"]
    assert check(postgres).ok


def test_a_hard_delete_redacts_an_edit_that_was_still_waiting(postgres: Engine, sealed: FileSeal) -> None:
    athlete, admin = make_user(postgres, "alex"), make_user(postgres, "root", Role.ADMIN)
    memory = make_memory(postgres, athlete, "Left knee pain after long runs")

    def edit_and_delete() -> None:
        with unit_of_work(postgres) as session:
            changes = MemoryEdit(content="Secret detail about the knee")
            memories.edit_memory(session, athlete, memory_id=memory.id, changes=changes, expected_version=1)
        with unit_of_work(postgres) as session:
            memories.delete_memory(session, athlete, memory_id=memory.id)

    with head_held(postgres):
        in_thread(edit_and_delete)
        assert waiting(postgres) == 2
    with unit_of_work(postgres) as session:
        memories.hard_delete_memory(session, admin, memory_id=memory.id, reason="Athlete asked")
    with unit_of_work(postgres, read_only=True) as session:
        stored = list(session.scalars(select(AuditEvent).where(AuditEvent.target_id == memory.id)))
    assert "Secret detail" not in str([(event.before, event.after) for event in stored])
    assert [event.action for event in stored][-1] == AuditAction.HARD_DELETE
    assert check(postgres).ok
    with unit_of_work(postgres, read_only=True) as session:
        assert compare_memories(session, SYSTEM).ok


def _chain_and_die(engine: Engine) -> None:
    engine.dispose(close=False)
    with engine.connect() as connection:
        chain_waiting(connection, None)  # the waiting events moved into the chain, not committed
        os.kill(os.getpid(), signal.SIGKILL)


def test_a_chainer_killed_before_its_commit_loses_no_event(postgres: Engine) -> None:
    athlete = make_user(postgres, "alex")
    with head_held(postgres):
        for n in range(2):
            in_thread(lambda n=n: add(postgres, athlete, f"Fact {n}"))
    child = multiprocessing.get_context("fork").Process(target=_chain_and_die, args=(postgres,))
    child.start()
    child.join(WAIT_S)
    assert child.exitcode == -signal.SIGKILL
    assert waiting(postgres) == 2  # its transaction died with it
    report = check(postgres)  # verify chains what waits, then checks the whole chain
    assert report.ok, report.summary()
    assert waiting(postgres) == 0
    with unit_of_work(postgres, read_only=True) as session:
        creates = session.scalar(select(func.count()).where(AuditEvent.action == AuditAction.CREATE))
    assert creates == 2


def test_a_waiting_event_slipped_in_without_the_key_is_reported_and_never_chained(
    postgres: Engine, sealed: FileSeal
) -> None:
    athlete = make_user(postgres, "alex")
    add(postgres, athlete, "Prefers morning runs")
    with postgres.begin() as connection:  # someone who can write the database, not the key
        connection.execute(
            insert(AuditPending).values(
                id=42,
                at=func.now(),
                actor_id=athlete.id,
                actor_label="alex",
                action=AuditAction.DELETE,
                athlete_id=athlete.id,
                target_type=AuditTarget.MEMORY,
                target_id=1,
                mac="0" * 64,
            )
        )
    add(postgres, athlete, "Prefers trails")  # a later write still saves, and sets the forgery aside
    report = check(postgres)
    assert not report.ok
    assert "waiting to be chained (#42) was refused" in (report.problem or "")
    assert waiting(postgres) == 0
    with unit_of_work(postgres, read_only=True) as session:
        refused = refused_events(session, SYSTEM)
    assert (refused.count, refused.newest[0].pending_id, refused.newest[0].problem) == (1, 42, NOT_SIGNED)
    assert f"#42: Deleted on memory 1 by alex: {NOT_SIGNED}" in refused_text(refused)  # the admin's Audit tab
    with postgres.connect() as connection:
        assert connection.scalar(text("SELECT count(*) FROM audit_events WHERE action = 'delete'")) == 0


def test_eight_writers_at_once_keep_one_chain_and_every_event(postgres: Engine, sealed: FileSeal) -> None:
    athletes = [make_user(postgres, f"writer{n}") for n in range(8)]
    per_writer = 15

    def write(athlete: User) -> None:
        for n in range(per_writer):
            add(postgres, athlete, f"Fact {n} of {athlete.username}")

    threads = [threading.Thread(target=write, args=(athlete,)) for athlete in athletes]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    with unit_of_work(postgres, read_only=True) as session:
        creates = session.scalar(select(func.count()).where(AuditEvent.action == AuditAction.CREATE))
    assert creates == 8 * per_writer
    report = check(postgres)
    assert report.ok, report.summary()
    anchor = sealed.anchor()
    assert anchor is not None and anchor.seq <= report.verified.seq  # never ahead of the database


def test_a_waiting_event_copied_back_after_it_was_chained_is_never_chained_twice(
    postgres: Engine, sealed: FileSeal
) -> None:
    athlete = make_user(postgres, "alex")
    with head_held(postgres):
        in_thread(lambda: add(postgres, athlete, "Prefers morning runs"))
        with postgres.connect() as connection:  # someone who can read the database keeps a copy
            copy = dict(connection.execute(select(AuditPending)).mappings().one())
    chained = check(postgres)  # chains it
    assert chained.ok, chained.summary()
    with postgres.begin() as connection:  # and puts it back: MAC, id and all, as it was
        connection.execute(insert(AuditPending).values(**copy))
    add(postgres, athlete, "Prefers trails")  # the next writer to take the head sets the copy aside
    assert waiting(postgres) == 0
    with unit_of_work(postgres, read_only=True) as session:
        creates = session.scalars(select(AuditEvent).where(AuditEvent.action == AuditAction.CREATE)).all()
        refused = refused_events(session, SYSTEM)
    assert [(event.after or {}).get("content") for event in creates] == ["Prefers morning runs", "Prefers trails"]
    first = creates[0]
    assert (refused.count, refused.newest[0].problem) == (1, f"a copy of event #{first.seq}, chained already")
    report = check(postgres)
    assert not report.ok
    assert f"(#{copy['id']}) was refused and set aside: a copy of event #{first.seq}" in (report.problem or "")


def test_clearing_a_chained_events_waiting_id_to_replay_it_breaks_the_chain(postgres: Engine, sealed: FileSeal) -> None:
    athlete = make_user(postgres, "alex")
    with head_held(postgres):
        in_thread(lambda: add(postgres, athlete, "Prefers morning runs"))
        with postgres.connect() as connection:
            copy = dict(connection.execute(select(AuditPending)).mappings().one())
    assert check(postgres).ok
    with postgres.begin() as connection:  # the waiting id is cleared from the chained event, then replayed
        seq = connection.scalar(select(AuditEvent.seq).where(AuditEvent.pending_id == copy["id"]))
        connection.execute(text("UPDATE audit_events SET pending_id = NULL WHERE seq = :seq"), {"seq": seq})
        connection.execute(insert(AuditPending).values(**copy))
    report = check(postgres)
    assert not report.ok
    assert report.first_bad_seq == seq  # its hash covers the waiting id
    assert report.problem == "its recorded fields were changed"


def _rows_read_from_waiting(engine: Engine) -> list[int]:
    """Rows each read of the waiting events' fields returned (the MAC is read only to check it)."""
    counts: list[int] = []

    @event.listens_for(engine, "after_cursor_execute")
    def _count(conn: object, cursor: Any, statement: str, *args: object) -> None:
        if statement.lstrip().startswith("SELECT") and "audit_pending.mac" in statement:
            counts.append(cursor.rowcount)

    return counts


def test_many_forged_waiting_events_are_read_once_then_never_again(
    postgres: Engine, sealed: FileSeal, caplog: pytest.LogCaptureFixture
) -> None:
    athlete = make_user(postgres, "alex")
    forged = 300
    with postgres.begin() as connection:  # someone who can write the database floods the queue
        connection.execute(
            text(
                "INSERT INTO audit_pending (id, at, actor_label, action, target_type, target_id, mac) "
                "SELECT n, now(), 'alex', 'delete', 'memory', n, repeat('0', 64) FROM generate_series(1, :n) AS n"
            ),
            {"n": forged},
        )
    reads = _rows_read_from_waiting(postgres)
    with caplog.at_level(logging.WARNING, logger="domain.audit"):
        add(postgres, athlete, "Prefers morning runs")  # takes the head: reads, checks and sets aside each once
        assert reads == [forged]
        assert len([r for r in caplog.records if "refused and set aside" in r.getMessage()]) == forged
        reads.clear()
        caplog.clear()
        for n in range(3):
            add(postgres, athlete, f"Later fact {n}")
        assert reads == []  # no later commit reads them again
        assert caplog.records == []
    assert waiting(postgres) == 0
    report = check(postgres)
    assert not report.ok
    assert f"({forged - 1:,} more refused)" in (report.problem or "")
    with unit_of_work(postgres, read_only=True) as session:
        refused = refused_events(session, SYSTEM)
        creates = session.scalar(select(func.count()).where(AuditEvent.action == AuditAction.CREATE))
    assert refused.count == forged and creates == 4
    assert refused_text(refused).startswith(f"{forged} audit events waiting to be chained were refused")


def test_as_many_readers_as_the_pool_has_connections_read_waiting_events_without_a_second_one(
    postgres: Engine, sealed: FileSeal
) -> None:
    athlete = make_user(postgres, "alex")
    readers = 4
    with postgres.connect() as connection:
        schema = connection.scalar(text("SELECT current_schema()"))
    # Its own pool of `readers` connections and no overflow: a reader that wanted a second one would
    # wait for the pool's timeout (every connection held by a reader) and fail.
    small = make_engine(
        postgres_url(),
        connect_args={"options": f"-csearch_path={schema}"},
        pool_size=readers,
        max_overflow=0,
        pool_timeout=3,
    )
    attach_seal(small, sealed)
    try:
        with head_held(postgres):
            made = add(postgres, athlete, "Prefers morning runs")  # waits: the head is held
        assert waiting(postgres) == 1
        all_in = threading.Barrier(readers, timeout=WAIT_S)
        seen: list[tuple[str, list[AuditAction]]] = []

        def read() -> None:
            with unit_of_work(small, read_only=True) as session:
                memory = memories.get_memory(session, athlete, memory_id=made)  # its connection, held
                all_in.wait()  # every connection of the pool is held by a reader now
                history = memories.memory_history(session, athlete, memory_id=made)
            seen.append((memory.content, [event.action for event in history]))  # still loaded after

        threads = [threading.Thread(target=lambda: in_thread(read)) for _ in range(readers)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert seen == [("Prefers morning runs", [AuditAction.CREATE])] * readers
        assert waiting(postgres) == 0
        report = check(postgres)
        assert report.ok, report.summary()
    finally:
        small.dispose()


def test_a_reader_that_finds_the_head_held_too_long_reads_without_chaining_and_shows_the_event_later(
    postgres: Engine, sealed: FileSeal, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(audit, "READER_LOCK_TIMEOUT_MS", 200)
    athlete = make_user(postgres, "alex")
    made: list[int] = []
    with head_held(postgres):  # held for longer than a reader waits for it
        in_thread(lambda: made.append(add(postgres, athlete, "Prefers morning runs")))
        with unit_of_work(postgres, read_only=True) as session:
            memory = memories.get_memory(session, athlete, memory_id=made[0])
            history = memories.memory_history(session, athlete, memory_id=made[0])  # does not fail or hang
        assert (memory.content, history) == ("Prefers morning runs", [])
        assert waiting(postgres) == 1
    with unit_of_work(postgres, read_only=True) as session:
        history = memories.memory_history(session, athlete, memory_id=made[0])
    assert [event.action for event in history] == [AuditAction.CREATE]
    assert check(postgres).ok
