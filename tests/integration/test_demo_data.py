"""The demo data set loads into an empty database, once."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import func, select

from domain.enums import MemoryStatus, MemoryType, ProposalStatus, Role
from domain.models import Memory, Proposal, User
from domain.visibility import with_inactive
from persistence.demo import load_demo
from persistence.engine import make_engine
from persistence.migrate import upgrade
from persistence.uow import unit_of_work
from tests.factories import log_in


def test_demo_loads_users_memories_and_proposals_once(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'demo.sqlite3'}")
    upgrade(engine)
    assert load_demo(engine) is True
    assert load_demo(engine) is False, "a database with users is left alone"
    alex = log_in(engine, "alex", "demo-alex")
    with unit_of_work(engine) as session:
        users = {u.username: u.role for u in session.scalars(select(User))}
        alex_memories = session.scalars(
            select(Memory).where(Memory.athlete_id == alex.id).execution_options(**with_inactive())
        ).all()
        pending = session.scalar(
            select(func.count())
            .select_from(Proposal)
            .where(Proposal.athlete_id == alex.id, Proposal.status == ProposalStatus.PENDING)
        )
    assert users == {"alex": Role.ATHLETE, "sam": Role.ATHLETE, "admin": Role.ADMIN}
    assert len(alex_memories) >= 15
    assert {m.type for m in alex_memories} == set(MemoryType)
    assert sum(m.status == MemoryStatus.DELETED for m in alex_memories) == 2
    assert (pending or 0) >= 5


def test_demo_proposals_include_one_seen_before_and_one_that_replaces(tmp_path: Path) -> None:
    from domain.proposals import list_pending

    engine = make_engine(f"sqlite:///{tmp_path / 'demo.sqlite3'}")
    upgrade(engine)
    load_demo(engine)
    alex = log_in(engine, "alex", "demo-alex")
    with unit_of_work(engine) as session:
        previews = {item.proposal.content: item.preview for item in list_pending(session, alex).items}
    morning, knee = previews["Prefers morning runs"], previews["Left knee pain started around km 15 on the long run"]
    assert (morning.outcome, morning.occurrences_after) == ("seen_before", 3)
    assert knee.outcome == "replaces"
    assert knee.memory is not None and knee.memory.content == "Occasional knee soreness"
