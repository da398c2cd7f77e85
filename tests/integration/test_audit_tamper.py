"""Tampering by someone who can write the database but holds neither the key nor the anchor
(persistence/audit_seal.py): each kind the attack on issue 14 tried is caught by `audit verify`,
from a checkpoint as well as in full; memory rows changed by SQL are caught by `--deep`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, delete, select, update

from domain import memories, proposals
from domain.actors import SYSTEM
from domain.audit import REDACTED_EVENTS, REDACTED_PROPOSALS, ChainReport, digest, event_hash
from domain.audit_checkpoints import record, verify
from domain.audit_deep import DeepReport, compare_memories
from domain.enums import AuditAction
from domain.models import GENESIS_HASH, AuditCheckpoint, AuditEvent, AuditHead, Memory, User
from domain.schemas import MemoryEdit
from persistence.audit_seal import FileSeal, seal_engine
from persistence.ready import ready_engine
from persistence.settings import Settings
from persistence.uow import unit_of_work
from tests.factories import make_memory, make_pending_proposal, make_user
from ui.cli import main


@pytest.fixture
def seal(engine: Engine, tmp_path: Path) -> FileSeal:
    """The key and the anchor outside the database, as `memory-review serve` keeps them."""
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'outside' / 'memory-review.sqlite3'}", data_dir=tmp_path)
    return seal_engine(engine, settings)


def check(engine: Engine, *, full: bool = False) -> ChainReport:
    with unit_of_work(engine, read_only=True) as session:
        report = verify(session, SYSTEM, full=full)
    with unit_of_work(engine) as session:
        record(session, SYSTEM, report)
    return report


def deep(engine: Engine) -> DeepReport:
    with unit_of_work(engine, read_only=True) as session:
        return compare_memories(session, SYSTEM)


def confirmed_memory(engine: Engine, athlete: User, content: str, tag: str) -> Memory:
    proposal_id = make_pending_proposal(engine, athlete, content, tag)
    with unit_of_work(engine) as session:
        return proposals.confirm(session, athlete, proposal_id=proposal_id)


def history(engine: Engine, athlete: User, admin: User) -> dict[str, Any]:
    """Memories edited, one hard-deleted (its events redacted), and a checkpoint at the end."""
    kept = make_memory(engine, athlete, "Prefers morning runs")
    for n in range(3):
        with unit_of_work(engine) as session:
            memories.edit_memory(
                session, athlete, memory_id=kept.id, expected_version=n + 1, changes=MemoryEdit(content=f"Runs {n}")
            )
    gone = confirmed_memory(engine, athlete, "Left knee pain after long runs", "body:knee")
    other = confirmed_memory(engine, athlete, "Right hip pain on hills", "body:hip")
    with unit_of_work(engine) as session:
        memories.delete_memory(session, athlete, memory_id=gone.id)
    with unit_of_work(engine) as session:
        memories.hard_delete_memory(session, admin, memory_id=gone.id, reason="Athlete asked")
    assert check(engine).ok
    assert deep(engine).ok
    return {"kept": kept.id, "gone": gone.id, "other": other.id}


def events(engine: Engine, **where: Any) -> list[AuditEvent]:
    with unit_of_work(engine, read_only=True) as session:
        stmt = select(AuditEvent).filter_by(**where).order_by(AuditEvent.seq)
        return list(session.scalars(stmt))


def forget_checkpoints(engine: Engine) -> None:
    """The attacker also removes the checkpoints that would betray them."""
    with unit_of_work(engine) as session:
        session.execute(delete(AuditCheckpoint))


def test_emptying_the_audit_tables_is_caught(engine: Engine, seal: FileSeal, athlete: User, admin: User) -> None:
    history(engine, athlete, admin)
    with unit_of_work(engine) as session:
        session.execute(delete(AuditEvent))
        session.execute(update(AuditHead).values(seq=0, hash=GENESIS_HASH))
    forget_checkpoints(engine)
    report = check(engine, full=True)
    assert not report.ok
    assert "the anchor outside the database" in (report.problem or "")


def test_cutting_the_last_events_and_rewinding_the_head_is_caught(
    engine: Engine, seal: FileSeal, athlete: User, admin: User
) -> None:
    ids = history(engine, athlete, admin)
    for n in range(2):  # the two changes to hide
        with unit_of_work(engine) as session:
            memories.edit_memory(
                session, athlete, memory_id=ids["kept"], expected_version=4 + n, changes=MemoryEdit(content=f"Swim {n}")
            )
    chain = events(engine)
    keep = chain[-3]
    with unit_of_work(engine) as session:
        session.execute(delete(AuditEvent).where(AuditEvent.seq > keep.seq))
        session.execute(update(AuditHead).values(seq=keep.seq, hash=keep.hash))
    forget_checkpoints(engine)
    for full in (True, False):
        report = check(engine, full=full)
        assert not report.ok
        assert report.first_bad_seq == keep.seq + 1


def test_changing_a_field_inside_a_redacted_event_is_caught(
    engine: Engine, seal: FileSeal, athlete: User, admin: User
) -> None:
    ids = history(engine, athlete, admin)
    redacted = next(e for e in events(engine, target_id=ids["gone"]) if e.redacted)
    with unit_of_work(engine) as session:
        session.execute(
            update(AuditEvent)
            .where(AuditEvent.seq == redacted.seq)
            .values(after={**(redacted.after or {}), "type": "preference", "confidence": "low"})
        )
    report = check(engine, full=True)
    assert (report.ok, report.first_bad_seq) == (False, redacted.seq)


def test_a_forged_redaction_list_is_caught(engine: Engine, seal: FileSeal, athlete: User, admin: User) -> None:
    """The forger wipes another memory's proposal from the log and claims a removal redacted it."""
    history(engine, athlete, admin)
    proposed = events(engine, action=AuditAction.PROPOSE)
    victim = next(e for e in proposed if "Right hip" in str((e.after or {}).get("content")))
    removal = events(engine, action=AuditAction.HARD_DELETE)[0]
    wiped = {**(victim.after or {}), "content": None, "tags": None, "redacted": True}
    listed = dict((removal.after or {})[REDACTED_EVENTS])
    listed[str(victim.seq)] = [None, digest(wiped)]
    # Marked redacted itself, as the old check let a removal event be: then its digest went unchecked.
    forged = {"redacted": True, "content": None, "tags": None, REDACTED_EVENTS: listed}
    forged[REDACTED_PROPOSALS] = [*(removal.after or {})[REDACTED_PROPOSALS], victim.target_id]
    with unit_of_work(engine) as session:
        session.execute(update(AuditEvent).where(AuditEvent.seq == victim.seq).values(after=wiped, redacted=True))
        session.execute(update(AuditEvent).where(AuditEvent.seq == removal.seq).values(after=forged, redacted=True))
    report = check(engine, full=True)
    assert (report.ok, report.first_bad_seq) == (False, removal.seq)


def test_rewriting_an_event_and_recomputing_every_later_hash_is_caught(
    engine: Engine, seal: FileSeal, athlete: User, admin: User
) -> None:
    history(engine, athlete, admin)
    chain = events(engine)
    target = chain[2]
    forget_checkpoints(engine)
    with unit_of_work(engine) as session:  # what anyone without the key can compute: plain SHA-256
        prev_hash = chain[1].hash
        for event in session.scalars(select(AuditEvent).where(AuditEvent.seq >= target.seq).order_by(AuditEvent.seq)):
            if event.seq == target.seq:
                event.actor_label = "admin"
            event.prev_hash = prev_hash
            event.hash = prev_hash = event_hash(event, prev_hash)
        session.execute(update(AuditHead).values(hash=prev_hash))
    report = check(engine, full=True)
    assert (report.ok, report.first_bad_seq) == (False, target.seq)


def test_a_memory_row_changed_by_sql_is_caught_by_the_deep_check(
    engine: Engine, seal: FileSeal, athlete: User, admin: User
) -> None:
    ids = history(engine, athlete, admin)
    with unit_of_work(engine) as session:
        session.execute(
            update(Memory).where(Memory.id == ids["kept"]).values(content="Hates running", status="deleted")
        )
    assert check(engine).ok  # the chain itself is whole
    report = deep(engine)
    assert not report.ok
    assert f"memory #{ids['kept']} differs from its newest event" in report.problems[0]
    assert "content, status" in report.problems[0]


def test_a_memory_inserted_or_kept_behind_the_log_is_caught_by_the_deep_check(
    engine: Engine, seal: FileSeal, athlete: User, admin: User
) -> None:
    ids = history(engine, athlete, admin)
    with unit_of_work(engine) as session:
        session.execute(
            delete(AuditEvent).where(AuditEvent.target_id == ids["other"], AuditEvent.target_type == "memory")
        )
    problems = deep(engine).problems
    assert problems == [f"memory #{ids['other']} has no history in the audit log"]


def test_a_database_from_before_the_key_upgrades_and_keeps_verifying(
    engine: Engine, athlete: User, admin: User, tmp_path: Path
) -> None:
    """Events written unkeyed stay the legacy part of the chain; everything after the key is keyed."""
    make_memory(engine, athlete, "Written before the key")
    legacy = events(engine)[-1].seq
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'outside' / 'db.sqlite3'}", data_dir=tmp_path)
    seal = seal_engine(engine, settings)
    assert seal.anchor() is not None and seal.anchor().keyed_after == legacy  # type: ignore[union-attr]
    history(engine, athlete, admin)
    newest = events(engine)[-1]
    assert seal.anchor() == type(seal.anchor())(newest.seq, newest.hash, legacy)
    assert check(engine, full=True).ok
    with unit_of_work(engine, read_only=True) as session:
        head = session.get(AuditHead, 1)
        assert head is not None and head.keyed_after == legacy
    # A key mark moved to make forged plain hashes pass disagrees with the anchor.
    with unit_of_work(engine) as session:
        session.execute(update(AuditHead).values(keyed_after=newest.seq))
    assert not check(engine, full=True).ok


def test_the_command_line_names_a_memory_changed_by_sql(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MEMORY_REVIEW_DATA_DIR", str(tmp_path))
    url = f"sqlite:///{tmp_path / 'memory-review.sqlite3'}"
    engine = ready_engine(Settings(database_url=url))
    athlete = make_user(engine, "alex")
    memory = make_memory(engine, athlete, "Prefers morning runs")
    assert main(["audit", "verify", "--deep", "--db", url]) == 0
    assert "Every memory matches the log: 1 memories" in capsys.readouterr().out
    with unit_of_work(engine) as session:
        session.execute(update(Memory).where(Memory.id == memory.id).values(confidence="low"))
    engine.dispose()
    assert main(["audit", "verify", "--deep", "--db", url]) == 1
    assert f"memory #{memory.id} differs from its newest event #1 in: confidence" in capsys.readouterr().err
    assert (tmp_path / "memory-review.audit-key").stat().st_mode & 0o777 == 0o600
    assert (tmp_path / "memory-review.audit-anchor").exists()


def test_an_unreadable_anchor_is_reported_and_the_next_change_still_saves(
    engine: Engine, seal: FileSeal, athlete: User
) -> None:
    make_memory(engine, athlete, "Prefers morning runs")
    seal.path.write_text("{not json")
    report = check(engine, full=True)
    assert not report.ok
    assert "is unreadable" in (report.problem or "")
    memory = make_memory(engine, athlete, "Naps after long rides")  # the change commits and re-anchors
    assert memory.id
    assert check(engine, full=True).ok
