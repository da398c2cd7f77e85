"""The coach's prepared memories (domain.coach_index) are never staler than the database.

Two engines on one database stand for two app instances (each keeps its own prepared index, keyed
by its pool, as two processes would). Every committed change made through the other instance,
by a service or by a raw transaction, is in this instance's very next context answer: the answer
equals the block computed from scratch from what is stored, and shows the change.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest
from sqlalchemy import Engine, text

from domain.coach_block import Candidate, build_block, rank
from domain.coach_context import INDEXES, candidates, coach_athlete, context_for, set_hidden
from domain.coach_index import stamp
from domain.enums import Role, SourceKind
from domain.ingest import ingest
from domain.memories import delete_memory, edit_memory, hard_delete_memory, restore_memory
from domain.models import Memory, User
from domain.proposals import confirm
from domain.schemas import MemoryEdit
from domain.types import utcnow
from domain.visibility import with_inactive
from persistence.engine import make_engine
from persistence.uow import unit_of_work
from tests.factories import make_memory, make_user

WHOLE = 2000  # max_tokens: room for every memory of these tests
QUERY = "knee runs"


@pytest.fixture
def other(engine: Engine) -> Iterator[Engine]:
    """A second instance on the same database: its own engine, pool and prepared indexes."""
    connect_args = {}
    if engine.dialect.name == "postgresql":
        with engine.connect() as connection:
            schema = connection.execute(text("SELECT current_schema()")).scalar_one()
        connect_args = {"options": f"-csearch_path={schema}"}
    second = make_engine(engine.url.render_as_string(hide_password=False), connect_args=connect_args)
    yield second
    second.dispose()


@dataclass(frozen=True)
class Served:
    ids: list[int]
    contents: list[str]
    text: str


def coach_reads(engine: Engine, athlete: User) -> Served:
    """What the coach API answers through this instance (its prepared index, if it still holds), read as
    the route reads it: the athlete and their change stamp in one statement, then the block."""
    with unit_of_work(engine, read_only=True) as session:
        block = context_for(session, coach_athlete(session, athlete.username), query=QUERY, max_tokens=WHOLE).block
    return Served([i.candidate.id for i in block.items], [i.candidate.content for i in block.items], block.text)


def stored(engine: Engine, athlete: User) -> Served:
    """The same block computed from scratch from what the database holds now."""
    with unit_of_work(engine, read_only=True) as session:
        block = build_block(rank(candidates(session, athlete.id), QUERY, utcnow()), WHOLE)
    return Served([i.candidate.id for i in block.items], [i.candidate.content for i in block.items], block.text)


def served_as_stored(instance: Engine, athlete: User) -> Served:
    served = coach_reads(instance, athlete)
    assert served == stored(instance, athlete)
    return served


def _memory(engine: Engine, memory_id: int) -> Memory:
    with unit_of_work(engine, read_only=True) as session:
        memory = session.get(Memory, memory_id, execution_options=with_inactive())
        assert memory is not None
        return memory


@dataclass(frozen=True)
class World:
    athlete: User
    admin: User
    knee: Memory  # "Knee pain after long runs"
    shins: Memory  # "Sore shins after track runs"


# Each change: what it does before both instances read (prepare), then the change itself through
# the other instance, committed; it returns a check of what the coach must now be served.
Check = Callable[[Served], bool]


def _edit(other: Engine, world: World, _prepared: object) -> Check:
    with unit_of_work(other) as session:
        memory = _memory(other, world.knee.id)
        edit_memory(
            session,
            world.athlete,
            memory_id=memory.id,
            changes=MemoryEdit(content="Knee pain after long runs downhill"),
            expected_version=memory.version,
        )
    return lambda served: "Knee pain after long runs downhill" in served.contents


def _delete(other: Engine, world: World, _prepared: object) -> Check:
    with unit_of_work(other) as session:
        delete_memory(session, world.athlete, memory_id=world.knee.id)
    return lambda served: world.knee.id not in served.ids and world.shins.id in served.ids


def _delete_first(engine: Engine, world: World) -> None:
    with unit_of_work(engine) as session:
        delete_memory(session, world.athlete, memory_id=world.knee.id)


def _restore(other: Engine, world: World, _prepared: object) -> Check:
    with unit_of_work(other) as session:
        restore_memory(session, world.admin, memory_id=world.knee.id, reason="asked back")
    return lambda served: world.knee.id in served.ids


def _hard_delete(other: Engine, world: World, _prepared: object) -> Check:
    """Removed for good after a soft delete: the index held nothing of it; a restore of another
    memory in the same transaction shows it was reread."""
    with unit_of_work(other) as session:
        hard_delete_memory(session, world.admin, memory_id=world.knee.id, reason="asked")
        delete_memory(session, world.athlete, memory_id=world.shins.id)
    return lambda served: served.ids == []


def _propose(engine: Engine, world: World) -> int:
    with unit_of_work(engine) as session:
        result = ingest(
            session, athlete=world.athlete, kind=SourceKind.USER_MESSAGE, reference="m1", text="I prefer morning runs"
        )
        return result.proposals[0].id


def _confirm(other: Engine, world: World, proposal_id: object) -> Check:
    assert isinstance(proposal_id, int)
    with unit_of_work(other) as session:
        memory = confirm(session, world.athlete, proposal_id=proposal_id)
    return lambda served: memory.id in served.ids and any("morning runs" in c for c in served.contents)


def _hide(other: Engine, world: World, _prepared: object) -> Check:
    with unit_of_work(other) as session:
        set_hidden(session, world.athlete, memory_id=world.knee.id, hidden=True)
    return lambda served: world.knee.id not in served.ids


def _raw_update(other: Engine, world: World, _prepared: object) -> Check:
    """Not through the services: the triggers, not the app's code, raise the stamp."""
    with other.begin() as connection:
        connection.execute(text("UPDATE memories SET content = 'Knee swells' WHERE id = :id"), {"id": world.knee.id})
    return lambda served: "Knee swells" in served.contents


def _raw_delete(other: Engine, world: World, _prepared: object) -> Check:
    with other.begin() as connection:
        connection.execute(text("DELETE FROM memories WHERE id = :id"), {"id": world.shins.id})
    return lambda served: served.ids == [world.knee.id]


def _raw_status(other: Engine, world: World, _prepared: object) -> Check:
    """A raw change of both memories in one statement, the version untouched."""
    with other.begin() as connection:
        connection.execute(
            text("UPDATE memories SET status = 'deleted' WHERE athlete_id = :a"), {"a": world.athlete.id}
        )
    return lambda served: served.ids == []


Prepare = Callable[[Engine, World], object]
Change = Callable[[Engine, World, object], Check]
CHANGES: dict[str, tuple[Prepare | None, Change]] = {
    "edit": (None, _edit),
    "delete": (None, _delete),
    "restore": (_delete_first, _restore),
    "hard delete": (_delete_first, _hard_delete),
    "confirm": (_propose, _confirm),
    "hide from coach": (None, _hide),
    "raw update": (None, _raw_update),
    "raw delete": (None, _raw_delete),
    "raw update of every row, version untouched": (None, _raw_status),
}


@pytest.fixture
def world(engine: Engine) -> World:
    athlete = make_user(engine, "ann")
    admin = make_user(engine, "root", Role.ADMIN)
    return World(
        athlete,
        admin,
        make_memory(engine, athlete, "Knee pain after long runs"),
        make_memory(engine, athlete, "Sore shins after track runs"),
    )


@pytest.mark.parametrize("name", list(CHANGES))
def test_a_change_committed_by_the_other_instance_is_in_the_next_answer(
    engine: Engine, other: Engine, world: World, name: str
) -> None:
    prepare, change = CHANGES[name]
    prepared = prepare(engine, world) if prepare is not None else None
    before = served_as_stored(engine, world.athlete)  # both instances now hold the athlete's index
    assert served_as_stored(other, world.athlete) == before
    shows_change = change(other, world, prepared)
    after = served_as_stored(engine, world.athlete)
    assert after != before and shows_change(after)
    assert served_as_stored(other, world.athlete) == after  # and the instance that made it


def test_a_commit_while_the_index_is_being_built_is_in_the_next_answer(
    engine: Engine, other: Engine, world: World
) -> None:
    """The other instance commits between this one's stamp read and its read of the memories."""
    served_as_stored(engine, world.athlete)
    _raw_update(other, world, None)  # the index is stale now; the next request rebuilds it...
    with unit_of_work(engine, read_only=True) as session:

        def load_after_a_commit() -> list[Candidate]:
            _edit_shins(other, world)  # ...and another commit lands after its stamp was read
            return candidates(session, world.athlete.id)

        INDEXES.get(session, world.athlete.id, load_after_a_commit)
    served = served_as_stored(engine, world.athlete)
    assert "Knee swells" in served.contents and "Sore shins after hill runs" in served.contents


def _edit_shins(other: Engine, world: World) -> None:
    with other.begin() as connection:
        connection.execute(
            text("UPDATE memories SET content = 'Sore shins after hill runs' WHERE id = :id"), {"id": world.shins.id}
        )


def test_changes_of_a_transaction_rolled_back_are_never_served(engine: Engine, other: Engine, world: World) -> None:
    """A transaction that wrote sees its own change, then rolls back; a different change committed
    afterwards must not meet an index built from the rolled-back one (PostgreSQL: such an index is
    never kept; SQLite: the stamp it was kept under is never reached, as each rise is random)."""
    served_as_stored(engine, world.athlete)
    with pytest.raises(RuntimeError), unit_of_work(engine, read_only=True) as session:
        session.execute(text("UPDATE memories SET content = 'Phantom' WHERE id = :id"), {"id": world.knee.id})
        assert "Phantom" in [i.candidate.content for i in context_for(session, world.athlete, query=QUERY).block.items]
        raise RuntimeError("rolled back")
    _raw_update(other, world, None)
    served = served_as_stored(engine, world.athlete)
    assert "Phantom" not in served.contents and "Knee swells" in served.contents


def test_a_writer_is_served_its_own_change_and_nothing_is_kept_of_it(engine: Engine, world: World) -> None:
    served_as_stored(engine, world.athlete)
    with unit_of_work(engine) as session:
        assert stamp(session, world.athlete.id) is None  # a writer's view is never kept
        session.execute(text("UPDATE memories SET content = 'Mine' WHERE id = :id"), {"id": world.knee.id})
        assert "Mine" in [i.candidate.content for i in context_for(session, world.athlete, query=QUERY).block.items]
    assert "Mine" in served_as_stored(engine, world.athlete).contents


def test_two_writers_committing_in_the_opposite_order_are_both_served(
    engine: Engine, other: Engine, world: World
) -> None:
    """PostgreSQL (SQLite has one writer at a time): T1 writes first and commits last, T2 writes
    second and commits first; a read between the commits sees T2's change only, a read after both.
    Neither waits for the other: the stamp is raised at commit (migration 0014)."""
    if engine.dialect.name != "postgresql":
        pytest.skip("SQLite runs one write transaction at a time")
    served_as_stored(engine, world.athlete)
    first, second = other.connect(), engine.connect()
    try:
        t1, t2 = first.begin(), second.begin()
        first.execute(text("UPDATE memories SET content = 'Knee swells' WHERE id = :id"), {"id": world.knee.id})
        second.execute(
            text("UPDATE memories SET content = 'Sore shins after hill runs' WHERE id = :id"), {"id": world.shins.id}
        )
        t2.commit()
        between = served_as_stored(engine, world.athlete)
        assert "Sore shins after hill runs" in between.contents and "Knee swells" not in between.contents
        t1.commit()
        after = served_as_stored(engine, world.athlete)
        assert "Sore shins after hill runs" in after.contents and "Knee swells" in after.contents
    finally:
        first.close()
        second.close()
