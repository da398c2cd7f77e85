"""The audit anchor is written in place after each commit (persistence/audit_files.py), not renamed
over: the same file throughout, never seen half-written by a reader, only ever moving forward, and
an anchor file of an earlier version (shorter, unpadded) or an unreadable one is taken over whole."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

from sqlalchemy import Engine

from domain import memories
from domain.audit import Anchor
from domain.enums import MemoryType
from domain.schemas import MemoryCreate
from persistence.audit_files import FileSeal
from persistence.audit_seal import seal_engine
from persistence.settings import Settings
from persistence.uow import unit_of_work
from tests.factories import make_user

HASH = "ab" * 32


def test_writes_move_the_anchor_in_the_same_file(engine: Engine, tmp_path: Path) -> None:
    url = engine.url.render_as_string(hide_password=False)
    seal = seal_engine(engine, Settings(database_url=url, data_dir=tmp_path))
    athlete = make_user(engine, "alex")
    inode = os.stat(seal.path).st_ino
    seqs = []
    for n in range(5):
        with unit_of_work(engine) as session:
            data = MemoryCreate(content=f"Fact number {n}", type=MemoryType.CONTEXT)
            memories.add_memory(session, athlete, data=data)
        anchor = seal.anchor()
        assert anchor is not None
        seqs.append(anchor.seq)
    assert seqs == sorted(seqs) and len(set(seqs)) == 5  # one move per commit
    assert os.stat(seal.path).st_ino == inode  # no new file per commit
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_a_reader_never_sees_an_anchor_half_written(tmp_path: Path) -> None:
    path = tmp_path / "memory-review.audit-anchor"
    writer, reader = FileSeal(b"key", path), FileSeal(b"key", path)  # as two processes would hold it
    writer.advance(1, HASH, 0)
    stop = threading.Event()
    seen: list[int] = []
    problems: list[BaseException] = []

    def read() -> None:
        while not stop.is_set():
            try:
                anchor = reader.anchor()
                assert anchor is not None and anchor.hash == HASH and anchor.keyed_after == 0
                seen.append(anchor.seq)
            except BaseException as error:  # reported below
                problems.append(error)
                return

    thread = threading.Thread(target=read)
    thread.start()
    for seq in range(2, 3000):
        writer.advance(seq * 1_000_003, HASH, 0)  # digits of every length pass through the same bytes
    stop.set()
    thread.join()
    assert not problems
    assert seen == sorted(seen)
    assert reader.anchor() == Anchor(2999 * 1_000_003, HASH, 0)


def test_an_anchor_only_moves_forward(tmp_path: Path) -> None:
    path = tmp_path / "memory-review.audit-anchor"
    first, second = FileSeal(b"key", path), FileSeal(b"key", path)
    first.advance(10, HASH, 0)
    second.advance(7, "cd" * 32, 0)  # a process that committed earlier, anchoring later
    assert first.anchor() == Anchor(10, HASH, 0)
    second.advance(11, "cd" * 32, 0)
    assert first.anchor() == Anchor(11, "cd" * 32, 0)


def test_an_earlier_versions_anchor_and_an_unreadable_one_are_taken_over(tmp_path: Path) -> None:
    path = tmp_path / "memory-review.audit-anchor"
    path.write_text(json.dumps({"seq": 3, "hash": HASH, "keyed_after": 1}))  # renamed in whole, unpadded
    seal = FileSeal(b"key", path)
    assert seal.anchor() == Anchor(3, HASH, 1)
    seal.advance(4, HASH, 1)
    assert seal.anchor() == Anchor(4, HASH, 1)
    path.write_text("x" * 1000)  # unreadable, and longer than an anchor
    other = FileSeal(b"key", path)
    other.advance(5, HASH, 1)
    assert other.anchor() == Anchor(5, HASH, 1)
    assert path.stat().st_size <= 256
