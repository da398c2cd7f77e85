"""The read log's batches (domain.coach_reads.record_reads), on SQLite and PostgreSQL: however many reads
of however many athletes and tokens a batch holds, each read is stored with exactly the memories it
served, in the order served, less those removed for good since; the tokens' last use is the latest read's.
"""

from __future__ import annotations

import random
from datetime import timedelta

from sqlalchemy import Engine, select

from domain.actors import SYSTEM
from domain.api_tokens import Caller, authenticate, create_token
from domain.coach_reads import PendingRead, coach_reads_for, record_reads
from domain.enums import Role
from domain.memories import delete_memory, hard_delete_memory
from domain.models import ApiToken, User
from domain.types import utcnow
from persistence.uow import unit_of_work
from tests.factories import make_memory, make_user


def _caller(engine: Engine, name: str) -> Caller:
    with unit_of_work(engine) as session:
        secret = create_token(session, SYSTEM, name=name, scopes=["read"]).secret
    with unit_of_work(engine, read_only=True) as session:
        return authenticate(session, secret)


def _served(engine: Engine, athlete: User) -> list[tuple[str | None, tuple[int, ...]]]:
    with unit_of_work(engine, read_only=True) as session:
        return [(r.query, r.memory_ids) for r in reversed(coach_reads_for(session, athlete, limit=200))]


def test_a_batch_of_many_reads_keeps_each_reads_memories_in_order(engine: Engine) -> None:
    ann, bob = make_user(engine, "ann"), make_user(engine, "bob")
    admin = make_user(engine, "root", Role.ADMIN)
    memories = {a.id: [make_memory(engine, a, f"{a.username} note {n}").id for n in range(12)] for a in (ann, bob)}
    gone = memories[ann.id][3]
    with unit_of_work(engine) as session:
        delete_memory(session, ann, memory_id=gone)
        hard_delete_memory(session, admin, memory_id=gone, reason="asked")
    coaches = [_caller(engine, "coach-a"), _caller(engine, "coach-b")]
    pick = random.Random(9)
    start = utcnow() - timedelta(hours=1)
    reads = []
    for n in range(150):
        athlete = (ann, bob)[n % 2]
        served = tuple(pick.sample(memories[athlete.id], pick.randint(0, 11)))
        at = start + timedelta(seconds=n)
        reads.append(PendingRead(coaches[n % 3 % 2], athlete.id, "context", served, at, f"q{n}", 174, f"b{n}"))
    with unit_of_work(engine) as session:
        record_reads(session, reads)

    for athlete in (ann, bob):
        expected = [(r.query, tuple(m for m in r.memory_ids if m != gone)) for r in reads if r.athlete_id == athlete.id]
        assert _served(engine, athlete) == expected
    with unit_of_work(engine, read_only=True) as session:
        last_used = {name: at for name, at in session.execute(select(ApiToken.name, ApiToken.last_used_at))}
    assert last_used == {c.name: max(r.at for r in reads if r.caller == c) for c in coaches}


def test_batches_written_one_after_another_stay_apart(engine: Engine) -> None:
    ann = make_user(engine, "ann")
    first, second = make_memory(engine, ann, "Knee pain").id, make_memory(engine, ann, "Prefers mornings").id
    coach = _caller(engine, "coach")
    now = utcnow()
    with unit_of_work(engine) as session:
        record_reads(session, [PendingRead(coach, ann.id, "context", (first, second), now, "a")])
    with unit_of_work(engine) as session:
        record_reads(
            session,
            [
                PendingRead(coach, ann.id, "memories", (), now, None),
                PendingRead(coach, ann.id, "context", (second,), now, "c"),
            ],
        )
    assert _served(engine, ann) == [("a", (first, second)), (None, ()), ("c", (second,))]
