"""The coach's side in the domain, on SQLite and PostgreSQL: tokens, hide from coach, the read record."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import Engine, select

from domain.actors import SYSTEM, require_admin_or_system, token_actor
from domain.api_tokens import Caller, authenticate, create_token, list_tokens, revoke_token
from domain.audit import verify_chain
from domain.coach_context import coach_memories, coach_preview, context_for, set_hidden
from domain.coach_reads import (
    PendingRead,
    coach_reads_for,
    purge_reads,
    reads_before,
    record_read,
    record_reads,
    usage_counts,
)
from domain.enums import ApiScope, AuditAction, MemoryConfidence, MemoryType
from domain.errors import AuthenticationFailed, InvalidInput, NotFound, PermissionDenied
from domain.memories import delete_memory, edit_memory, hard_delete_memory
from domain.models import ApiToken, AuditEvent, Memory, User
from domain.retention import RetentionPeriods, plan_purge, run_purge
from domain.schemas import MemoryEdit
from domain.types import utcnow
from persistence.engine import make_engine
from persistence.uow import unit_of_work
from tests.databases import SqliteTemplate
from tests.factories import make_memory, make_user


def new_token(engine: Engine, name: str = "coach", scopes: tuple[str, ...] = ("read",)) -> str:
    with unit_of_work(engine) as session:
        return create_token(session, SYSTEM, name=name, scopes=scopes).secret


def caller(engine: Engine, secret: str) -> Caller:
    with unit_of_work(engine, read_only=True) as session:
        return authenticate(session, secret)


def test_a_token_is_stored_hashed_and_authenticates_until_revoked(engine: Engine) -> None:
    secret = new_token(engine, scopes=("ingest", "read"))
    with unit_of_work(engine, read_only=True) as session:
        stored = session.scalars(select(ApiToken)).one()
    assert secret not in (stored.token_hash, stored.name) and len(stored.token_hash) == 64
    assert caller(engine, secret).scopes == {ApiScope.INGEST, ApiScope.READ}
    with pytest.raises(AuthenticationFailed):
        caller(engine, secret[:-1] + ("A" if secret[-1] != "A" else "B"))
    with unit_of_work(engine) as session:
        revoke_token(session, SYSTEM, name_or_id="coach")
    with pytest.raises(AuthenticationFailed, match="revoked"):
        caller(engine, secret)


def test_names_are_unique_among_active_tokens_and_scopes_are_checked(engine: Engine) -> None:
    new_token(engine)
    with pytest.raises(InvalidInput, match="exists"), unit_of_work(engine) as session:
        create_token(session, SYSTEM, name="coach", scopes=["read"])
    with pytest.raises(InvalidInput, match="unknown value"), unit_of_work(engine) as session:
        create_token(session, SYSTEM, name="other", scopes=["write"])
    with unit_of_work(engine) as session:
        revoke_token(session, SYSTEM, name_or_id="coach")
    new_token(engine)  # the name is free again
    with unit_of_work(engine, read_only=True) as session:
        assert [t.revoked_at is None for t in list_tokens(session, SYSTEM)] == [True, False]


def test_token_management_is_for_admins_and_the_system_only(engine: Engine, athlete: User, admin: User) -> None:
    with pytest.raises(PermissionDenied), unit_of_work(engine) as session:
        create_token(session, athlete, name="mine", scopes=["read"])
    with pytest.raises(PermissionDenied):
        require_admin_or_system(token_actor(1, "coach"))
    with unit_of_work(engine) as session:
        create_token(session, admin, name="by-admin", scopes=["read"])
        events = session.scalars(select(AuditEvent).where(AuditEvent.action == AuditAction.TOKEN_CREATE)).all()
    assert [e.actor_label for e in events] == ["admin"]


def test_hiding_is_audited_reversible_and_hides_from_every_coach_answer(engine: Engine, athlete: User) -> None:
    knee = make_memory(engine, athlete, "Knee pain after long runs", tags=["body:knee"])
    make_memory(engine, athlete, "Prefers morning runs", confidence=MemoryConfidence.HIGH)
    with unit_of_work(engine) as session:
        set_hidden(session, athlete, memory_id=knee.id, hidden=True)
        set_hidden(session, athlete, memory_id=knee.id, hidden=True)  # already hidden: nothing recorded
    with unit_of_work(engine, read_only=True) as session:
        listed = [m.id for m in coach_memories(session, athlete).items]
        assert listed and knee.id not in listed
        assert "Knee" not in context_for(session, athlete, query="knee pain").block.text
        assert "Knee" not in coach_preview(session, athlete, query="knee pain").block.text
        actions = session.scalars(select(AuditEvent.action).where(AuditEvent.target_id == knee.id)).all()
    assert actions == [AuditAction.CREATE, AuditAction.HIDE]
    with unit_of_work(engine) as session:
        shown = set_hidden(session, athlete, memory_id=knee.id, hidden=False)
    assert not shown.hidden_from_coach
    with unit_of_work(engine, read_only=True) as session:
        assert "Knee pain" in context_for(session, athlete, query="knee pain").block.text
        assert verify_chain(session).ok


def test_only_the_owner_hides_a_memory(engine: Engine, athlete: User, other_athlete: User, admin: User) -> None:
    memory = make_memory(engine, athlete)
    for someone in (other_athlete, admin):
        with pytest.raises((NotFound, PermissionDenied)), unit_of_work(engine) as session:
            set_hidden(session, someone, memory_id=memory.id, hidden=True)


def test_coach_memories_filter_by_type_and_words(engine: Engine, athlete: User, other_athlete: User) -> None:
    make_memory(engine, athlete, "Knee pain after long runs", type=MemoryType.INJURY_HISTORY)
    make_memory(engine, athlete, "Prefers morning runs")
    make_memory(engine, other_athlete, "Knee brace on trails", type=MemoryType.INJURY_HISTORY)
    with unit_of_work(engine, read_only=True) as session:
        injuries = coach_memories(session, athlete, types=[MemoryType.INJURY_HISTORY])
        morning = coach_memories(session, athlete, text="morning")
    assert [m.content for m in injuries.items] == ["Knee pain after long runs"]
    assert [m.content for m in morning.items] == ["Prefers morning runs"] and morning.total == 1


def test_reads_are_recorded_and_counted_per_memory(engine: Engine, athlete: User) -> None:
    a = make_memory(engine, athlete, "Prefers morning runs")
    b = make_memory(engine, athlete, "Knee pain after long runs")
    who = caller(engine, new_token(engine))
    with unit_of_work(engine) as session:
        record_read(session, who, athlete_id=athlete.id, kind="context", memory_ids=[b.id, a.id], query="knee")
        record_read(session, who, athlete_id=athlete.id, kind="memories", memory_ids=[a.id])
    with unit_of_work(engine, read_only=True) as session:
        log = coach_reads_for(session, athlete)
        usage = usage_counts(session, athlete, [a.id, b.id, 999])
    assert [(r.kind, r.query, r.memory_ids, r.token_name) for r in log] == [
        ("memories", None, (a.id,), "coach"),
        ("context", "knee", (b.id, a.id), "coach"),
    ]
    assert (usage[a.id].count, usage[b.id].count, 999 in usage) == (2, 1, False)
    assert usage[a.id].last_at == log[0].at


def test_a_memory_removed_for_good_leaves_the_reads_without_it(engine: Engine, athlete: User, admin: User) -> None:
    gone = make_memory(engine, athlete, "Soon gone")
    kept = make_memory(engine, athlete, "Kept")
    who = caller(engine, new_token(engine))
    with unit_of_work(engine) as session:
        record_read(session, who, athlete_id=athlete.id, kind="context", memory_ids=[gone.id, kept.id])
    with unit_of_work(engine) as session:
        delete_memory(session, athlete, memory_id=gone.id)
    with unit_of_work(engine) as session:
        hard_delete_memory(session, admin, memory_id=gone.id)
    with unit_of_work(engine, read_only=True) as session:
        assert coach_reads_for(session, athlete)[0].memory_ids == (kept.id,)
        assert session.get(Memory, gone.id) is None


def test_old_reads_are_purged(engine: Engine, athlete: User) -> None:
    who = caller(engine, new_token(engine))
    with unit_of_work(engine) as session:
        old = record_read(
            session, who, athlete_id=athlete.id, kind="memories", memory_ids=[], at=utcnow().replace(year=2020)
        )
        record_read(session, who, athlete_id=athlete.id, kind="memories", memory_ids=[])
    cutoff = utcnow().replace(year=2021)
    with unit_of_work(engine) as session:
        assert purge_reads(session, reads_before(session, cutoff), cutoff) == [old.id]
    with unit_of_work(engine, read_only=True) as session:
        assert len(coach_reads_for(session, athlete)) == 1


def test_answered_reads_are_written_together_in_order(engine: Engine, athlete: User) -> None:
    a = make_memory(engine, athlete, "Prefers morning runs")
    b = make_memory(engine, athlete, "Knee pain after long runs")
    who = caller(engine, new_token(engine))
    now = utcnow()
    reads = [
        PendingRead(who, athlete.id, "context", (b.id, 987_654, a.id), now, "knee", 174, "MEMORY:\n- Facts: x"),
        PendingRead(who, athlete.id, "memories", (a.id,), now),
        PendingRead(who, athlete.id, "context", (), now, "nothing"),
    ]
    with unit_of_work(engine) as session:
        record_reads(session, reads)
    with unit_of_work(engine, read_only=True) as session:
        log = coach_reads_for(session, athlete)
        token = session.scalars(select(ApiToken)).one()
    assert [(r.kind, r.query, r.memory_ids) for r in reversed(log)] == [
        ("context", "knee", (b.id, a.id)),  # a memory id that no longer exists is left out
        ("memories", None, (a.id,)),
        ("context", "nothing", ()),
    ]
    assert token.last_used_at == now


def test_the_retention_purge_removes_reads_older_than_the_access_period(engine: Engine, athlete: User) -> None:
    who = caller(engine, new_token(engine))
    long_ago = utcnow() - timedelta(days=100)
    with unit_of_work(engine) as session:
        old = record_read(session, who, athlete_id=athlete.id, kind="memories", memory_ids=[], at=long_ago)
        record_read(session, who, athlete_id=athlete.id, kind="memories", memory_ids=[])
    with unit_of_work(engine) as session:
        plan = plan_purge(session, SYSTEM, periods=RetentionPeriods())
        result = run_purge(session, SYSTEM, plan=plan)
    assert plan.coach_read_ids == [old.id] and result.coach_read_ids == [old.id]
    assert "Coach reads older than 90 days: 1" in plan.lines()
    assert result.lines()[-1] == "Removed 1 coach reads."
    with unit_of_work(engine, read_only=True) as session:
        assert len(coach_reads_for(session, athlete)) == 1


def test_the_prepared_index_is_never_shared_between_databases(sqlite_template: SqliteTemplate, tmp_path: Path) -> None:
    """Two databases whose athlete #1 has rows with the same fingerprint: each gets its own answer."""
    answers = []
    for name, content in (("one", "Prefers trail runs"), ("two", "Prefers track sessions")):
        database = make_engine(sqlite_template.copy_to(tmp_path / f"{name}.sqlite3"))
        athlete = make_user(database, "alex")
        make_memory(database, athlete, content, confidence=MemoryConfidence.HIGH)
        with unit_of_work(database, read_only=True) as session:
            answers.append(context_for(session, athlete).block.text)
        database.dispose()
    assert answers == ["MEMORY:\n- Facts: Prefers trail runs", "MEMORY:\n- Facts: Prefers track sessions"]


def test_the_prepared_index_sees_every_change(engine: Engine, athlete: User) -> None:
    memory = make_memory(engine, athlete, "Prefers trail runs", confidence=MemoryConfidence.HIGH)

    def block() -> str:
        with unit_of_work(engine, read_only=True) as session:
            return context_for(session, athlete, query="trail").block.text

    assert "trail" in block()
    with unit_of_work(engine) as session:
        edit_memory(
            session, athlete, memory_id=memory.id, changes=MemoryEdit(content="Prefers road runs"), expected_version=1
        )
    assert block() == "MEMORY:\n- Facts: Prefers road runs"
    with unit_of_work(engine) as session:
        delete_memory(session, athlete, memory_id=memory.id)
    assert block() == ""
