"""The memory write path's Core statements (domain/memory_writes.py) and the audit head's known
state (domain/audit.py) behave as the ORM's flush and a fresh read of the head did: the same rows,
versions, events and chain, on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine, func, select, text, update

from domain import memories
from domain.actors import SYSTEM
from domain.audit import verify_chain
from domain.audit_deep import compare_memories
from domain.enums import AuditAction, MemoryConfidence, MemorySource, MemoryStatus, MemoryType
from domain.errors import EditConflict
from domain.memory_writes import change_memory, insert_memory, load_memory, set_hidden_from_coach
from domain.models import AuditEvent, AuditHead, Memory, MemoryTag, User
from domain.schemas import MemoryCreate, MemoryEdit
from domain.types import utcnow
from domain.visibility import with_inactive
from persistence.engine import make_engine
from persistence.uow import unit_of_work


def _chain_and_rows_agree(engine: Engine) -> None:
    with unit_of_work(engine, read_only=True) as session:
        assert verify_chain(session).ok
        assert compare_memories(session, SYSTEM).ok


def test_an_added_memory_is_a_loaded_object_with_every_column(engine: Engine, athlete: User) -> None:
    data = MemoryCreate(content="Prefers morning runs", type=MemoryType.PREFERENCE, tags=["time:morning"])
    with unit_of_work(engine) as session:
        memory = memories.add_memory(session, athlete, data=data)
        assert memory in session and not session.dirty and not session.new
        memory_id = memory.id
    assert (memory.version, memory.status, memory.occurrences, memory.hidden_from_coach) == (
        1,
        MemoryStatus.ACTIVE,
        1,
        False,
    )
    with unit_of_work(engine, read_only=True) as session:
        stored = session.get_one(Memory, memory_id)
        assert {c: getattr(stored, c) for c in ("content", "content_key", "tags", "version", "created_at")} == {
            c: getattr(memory, c) for c in ("content", "content_key", "tags", "version", "created_at")
        }
        assert session.scalars(select(MemoryTag.tag).where(MemoryTag.memory_id == memory_id)).all() == ["time:morning"]
    _chain_and_rows_agree(engine)


def test_add_then_edit_and_delete_in_one_unit_of_work(engine: Engine, athlete: User) -> None:
    with unit_of_work(engine) as session:
        memory = memories.add_memory(session, athlete, data=MemoryCreate(content="Runs at dawn", type="preference"))
        edited = memories.edit_memory(
            session, athlete, memory_id=memory.id, changes=MemoryEdit(content="Runs at dusk"), expected_version=1
        )
        assert edited is memory and memory.version == 2
        memories.delete_memory(session, athlete, memory_id=memory.id, expected_version=2)
        assert memory.version == 3 and not session.dirty
    with unit_of_work(engine, read_only=True) as session:
        stored = session.get_one(Memory, memory.id, execution_options=with_inactive())
        assert (stored.content, stored.status, stored.version) == ("Runs at dusk", MemoryStatus.DELETED, 3)
        actions = session.scalars(
            select(AuditEvent.action).where(AuditEvent.target_id == memory.id).order_by(AuditEvent.seq)
        ).all()
        assert actions == [AuditAction.CREATE, AuditAction.EDIT, AuditAction.DELETE]
    _chain_and_rows_agree(engine)


def test_a_change_to_a_row_changed_meanwhile_is_refused(engine: Engine, athlete: User) -> None:
    with unit_of_work(engine) as session:
        memory_id = memories.add_memory(
            session, athlete, data=MemoryCreate(content="Likes hills", type="preference")
        ).id
    with unit_of_work(engine, read_only=True) as session:
        stale = load_memory(session, memory_id)  # version 1, then detached
    assert stale is not None
    with unit_of_work(engine) as session:
        memories.edit_memory(
            session, athlete, memory_id=memory_id, changes=MemoryEdit(content="Likes flats"), expected_version=1
        )
    with unit_of_work(engine) as session:
        session.add(stale)
        with pytest.raises(EditConflict):
            change_memory(session, athlete, stale, action=AuditAction.EDIT, changes={"content": "Likes trails"})
    with unit_of_work(engine, read_only=True) as session:
        stored = session.get_one(Memory, memory_id)
        assert (stored.content, stored.version) == ("Likes flats", 2)
    _chain_and_rows_agree(engine)


def test_a_change_that_changes_nothing_keeps_the_version(engine: Engine, athlete: User) -> None:
    """As the ORM's flush: no column differs, no UPDATE, no new version; the event is still written."""
    with unit_of_work(engine) as session:
        memory_id = memories.add_memory(session, athlete, data=MemoryCreate(content="Likes rain", type="preference")).id
    with unit_of_work(engine) as session:
        memory = load_memory(session, memory_id)
        assert memory is not None
        set_hidden_from_coach(session, athlete, memory, hidden=False)
        assert memory.version == 1
    with unit_of_work(engine, read_only=True) as session:
        assert session.get_one(Memory, memory_id).version == 1
        assert session.scalar(select(func.count()).where(AuditEvent.target_id == memory_id)) == 2
    _chain_and_rows_agree(engine)


def test_load_memory_is_session_get(engine: Engine, athlete: User) -> None:
    with unit_of_work(engine) as session:
        memory_id = memories.add_memory(session, athlete, data=MemoryCreate(content="Naps", type="preference")).id
        memories.delete_memory(session, athlete, memory_id=memory_id)
    with unit_of_work(engine, read_only=True) as session:
        assert load_memory(session, memory_id) is None
        deleted = load_memory(session, memory_id, any_status=True)
        assert deleted is not None and deleted.status == MemoryStatus.DELETED
        assert load_memory(session, memory_id, any_status=True) is deleted  # the identity map's object
        assert session.get(Memory, memory_id, execution_options=with_inactive()) is deleted
        assert load_memory(session, 10**9) is None


def test_writers_on_two_engines_keep_one_chain(engine: Engine, athlete: User) -> None:
    """Each engine knows the head its own last commit left; the other's writes move it, and a write
    on a head it no longer knows reads the head again."""
    second = _second_engine(engine)
    try:
        for n in range(6):
            writer = engine if n % 3 else second
            with unit_of_work(writer) as session:
                memories.add_memory(session, athlete, data=MemoryCreate(content=f"Fact {n}", type="preference"))
        with unit_of_work(engine, read_only=True) as session:
            seqs = session.scalars(select(AuditEvent.seq).order_by(AuditEvent.seq)).all()
            assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))
            assert session.scalar(select(AuditHead.seq)) == seqs[-1]
    finally:
        second.dispose()
    _chain_and_rows_agree(engine)


def test_a_head_moved_behind_the_writers_back_is_read_again(engine: Engine, athlete: User) -> None:
    """Whatever the head says is what the next event chains onto, as before the head was known."""
    with unit_of_work(engine) as session:
        memories.add_memory(session, athlete, data=MemoryCreate(content="Fact one", type="preference"))
    with unit_of_work(engine) as session:
        head = session.get_one(AuditHead, 1)
        seq, hash_ = head.seq, head.hash
        session.execute(update(AuditHead).values(hash="f" * 64))  # a tamperer's rewrite of the head
    with unit_of_work(engine) as session:
        memories.add_memory(session, athlete, data=MemoryCreate(content="Fact two", type="preference"))
    with unit_of_work(engine, read_only=True) as session:
        newest = session.scalars(select(AuditEvent).order_by(AuditEvent.seq.desc()).limit(1)).one()
        assert (newest.seq, newest.prev_hash) == (seq + 1, "f" * 64)
        assert hash_ != "f" * 64
        assert not verify_chain(session).ok  # the rewrite shows, as it did


def _second_engine(engine: Engine) -> Engine:
    """Another engine on the same database (PostgreSQL: the same schema), as a second process has."""
    url = engine.url.render_as_string(hide_password=False)
    if engine.dialect.name != "postgresql":
        return make_engine(url)
    with engine.connect() as connection:
        schema = connection.execute(text("SELECT current_schema()")).scalar_one()
    return make_engine(url, connect_args={"options": f"-csearch_path={schema}"})


def _memory(owner: User, content: str, **fields: object) -> Memory:
    now = utcnow()
    values: dict[str, object] = {
        "athlete_id": owner.id,
        "type": MemoryType.PREFERENCE,
        "content": content,
        "source": MemorySource.MANUAL,
        "confidence": MemoryConfidence.HIGH,
        "created_at": now,
        "updated_at": now,
        **fields,
    }
    return Memory(**values)


def test_an_id_given_by_the_caller_is_the_rows(engine: Engine, athlete: User) -> None:
    with unit_of_work(engine) as session:
        memory = insert_memory(session, SYSTEM, _memory(athlete, "Swims on Sundays", id=4242))
    assert memory.id == 4242
    with unit_of_work(engine, read_only=True) as session:
        assert session.get_one(Memory, 4242).content == "Swims on Sundays"
    _chain_and_rows_agree(engine)


def test_a_memory_already_in_the_session_is_written_by_the_flush(engine: Engine, athlete: User) -> None:
    with unit_of_work(engine) as session:
        memory = _memory(athlete, "Cycles to work", tags=["activity:cycling"])
        session.add(memory)
        insert_memory(session, SYSTEM, memory)
        assert memory.id is not None and memory.version == 1
    with unit_of_work(engine, read_only=True) as session:
        assert session.scalars(select(MemoryTag.tag).where(MemoryTag.memory_id == memory.id)).all() == [
            "activity:cycling"
        ]
    _chain_and_rows_agree(engine)
