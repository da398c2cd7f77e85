"""The seal on the write path (issue 9): a keyed chain keeps keying after the engine's pool is
replaced (a forked writer disposes its parent's connections first), and the anchor, no longer
synced to disk on each write, still follows each commit."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import Engine

from domain import memories
from domain.actors import SYSTEM
from domain.audit_checkpoints import verify
from domain.enums import MemoryType
from domain.models import User
from domain.schemas import MemoryCreate
from persistence.audit_seal import FileSeal, seal_engine
from persistence.settings import Settings
from persistence.uow import unit_of_work
from tests.factories import make_user


@pytest.fixture
def seal(engine: Engine, tmp_path: Path) -> FileSeal:
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'outside' / 'memory-review.sqlite3'}", data_dir=tmp_path)
    return seal_engine(engine, settings)


def add(engine: Engine, athlete: User, content: str) -> None:
    with unit_of_work(engine) as session:
        memories.add_memory(session, athlete, data=MemoryCreate(content=content, type=MemoryType.PREFERENCE, tags=[]))


def head_seq(engine: Engine) -> int:
    with unit_of_work(engine, read_only=True) as session:
        report = verify(session, SYSTEM, full=True)
    assert report.ok, report.summary()
    return report.verified.seq


def test_a_keyed_chain_keeps_its_key_after_the_pool_is_replaced(engine: Engine, seal: FileSeal) -> None:
    athlete = make_user(engine, "alex")
    add(engine, athlete, "Prefers morning runs")
    engine.dispose(close=False)  # what a forked writer does first: the parent's connections stay the parent's
    add(engine, athlete, "Likes hill repeats")  # was MissingAuditKey: the new pool had no seal
    engine.dispose()
    add(engine, athlete, "Runs with a club on Tuesdays")
    anchor = seal.anchor()
    assert anchor is not None
    assert anchor.seq == head_seq(engine)


def test_the_anchor_follows_each_commit(engine: Engine, seal: FileSeal) -> None:
    athlete = make_user(engine, "alex")
    for n in range(3):
        add(engine, athlete, f"Fact number {n}")
        anchor = seal.anchor()
        assert anchor is not None
        assert anchor.seq == head_seq(engine)
