"""`memory-review purge`: the dry run lists, the run removes the same, both from the command line."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import Engine

from domain.enums import MemoryStatus
from domain.models import Memory, User
from domain.types import utcnow
from domain.visibility import with_inactive
from persistence.uow import unit_of_work
from tests.factories import make_memory, make_user
from ui.cli import main


def test_dry_run_lists_and_run_removes(
    sqlite_engine: Engine, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    owner: User = make_user(sqlite_engine, "alex")
    old = make_memory(
        sqlite_engine, owner, "Old", status=MemoryStatus.ARCHIVED, archived_at=utcnow() - timedelta(days=100)
    )
    make_memory(sqlite_engine, owner, "Current")
    url = str(sqlite_engine.url)
    monkeypatch.setenv("MEMORY_REVIEW_ARCHIVED_RETENTION_DAYS", "90")

    assert main(["purge", "--dry-run", "--db", url]) == 0
    out = capsys.readouterr().out
    assert "Archived memories older than 90 days: 1" in out
    assert "Nothing removed (dry run)." in out
    assert _exists(sqlite_engine, old.id)

    assert main(["purge", "--db", url]) == 0
    assert "Removed 1 archived memories, 0 expired proposals" in capsys.readouterr().out
    assert not _exists(sqlite_engine, old.id)
    assert main(["purge", "--dry-run", "--db", url]) == 0
    assert "Archived memories older than 90 days: 0" in capsys.readouterr().out


def _exists(engine: Engine, memory_id: int) -> bool:
    with unit_of_work(engine, read_only=True) as session:
        return session.get(Memory, memory_id, execution_options=with_inactive()) is not None


def test_purge_first_expires_pending_proposals_past_their_age(
    sqlite_engine: Engine, capsys: pytest.CaptureFixture[str]
) -> None:
    from domain.enums import ProposalStatus, SourceKind
    from domain.ingest import ingest
    from domain.models import Proposal

    owner = make_user(sqlite_engine, "alex")
    with unit_of_work(sqlite_engine) as session:
        [proposal] = ingest(
            session, athlete=owner, kind=SourceKind.USER_MESSAGE, reference="m1", text="I prefer morning runs."
        ).proposals
        proposal.created_at = utcnow() - timedelta(days=31)
    url = str(sqlite_engine.url)
    assert main(["purge", "--dry-run", "--db", url]) == 0
    with unit_of_work(sqlite_engine, read_only=True) as session:
        assert session.get(Proposal, proposal.id).status == ProposalStatus.PENDING  # type: ignore[union-attr]
    assert main(["purge", "--db", url]) == 0
    capsys.readouterr()
    with unit_of_work(sqlite_engine, read_only=True) as session:
        stored = session.get(Proposal, proposal.id)
    assert stored is not None and stored.status == ProposalStatus.EXPIRED
