"""Crash safety: a process confirming, editing and deleting on SQLite is killed (SIGKILL) at random
moments, again and again. After each kill the file is whole (`PRAGMA integrity_check`), the audit
chain verifies against its anchor, every memory matches its log (`audit verify --deep`), and every
change the process reported committed is there.

`make test` kills it MEMORY_REVIEW_CRASH_KILLS times (default 10); `make bench` runs 50
(tests/perf/bench_reliability.py). Run as `python -m tests.integration.test_crash URL` it is the child.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from sqlalchemy import Engine, select, text

from domain import memories, proposals
from domain.actors import SYSTEM
from domain.audit_checkpoints import verify
from domain.audit_deep import compare_memories
from domain.enums import AuditAction, MemoryStatus, ProposalStatus
from domain.errors import DomainError
from domain.models import AuditEvent, Memory, Proposal, User
from domain.schemas import MemoryEdit
from domain.visibility import with_inactive
from persistence.ready import ready_engine
from persistence.settings import Settings
from persistence.uow import unit_of_work

ROOT = Path(__file__).resolve().parents[2]


def kills() -> int:
    return int(os.environ.get("MEMORY_REVIEW_CRASH_KILLS", "10"))


def child(url: str, seed: int) -> None:
    """Write until killed; print one line per committed change, after its commit."""
    from tests.integration.test_concurrency import propose

    engine = ready_engine(Settings(database_url=url))
    with unit_of_work(engine, read_only=True) as session:
        athlete = session.scalars(select(User).where(User.username == "alex")).one()
    rng = random.Random(seed)
    print("ready", flush=True)
    n = 0
    while True:
        n += 1
        op = rng.choices(("confirm", "edit", "delete"), weights=(4, 5, 1))[0]
        try:
            with unit_of_work(engine) as session:
                if op == "confirm":
                    pending = session.scalars(
                        select(Proposal.id).where(Proposal.status == ProposalStatus.PENDING).limit(20)
                    ).all()
                    if not pending:
                        propose(session, athlete, rng, rng.randrange(10_000))
                        continue
                    memory = proposals.confirm(session, athlete, proposal_id=rng.choice(pending))
                    line = f"confirm {memory.id} {memory.version}"
                else:
                    ids = session.scalars(select(Memory.id).where(Memory.status == MemoryStatus.ACTIVE)).all()
                    if not ids:
                        continue
                    memory_id = rng.choice(ids)
                    if op == "edit":
                        content = f"Edit {seed}-{n}"
                        memory = memories.edit_memory(
                            session,
                            athlete,
                            memory_id=memory_id,
                            expected_version=memories.get_memory(session, athlete, memory_id=memory_id).version,
                            changes=MemoryEdit(content=content),
                        )
                        line = f"edit {memory.id} {memory.version} {content}"
                    else:
                        memory = memories.delete_memory(session, athlete, memory_id=memory_id)
                        line = f"delete {memory.id} {memory.version}"
            print(line, flush=True)  # the unit of work has committed
        except DomainError:
            continue


def _run_and_kill(url: str, seed: int, rng: random.Random) -> list[str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.integration.test_crash", url, str(seed)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    lines: list[str] = []
    ready = threading.Event()

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            if line.strip() == "ready":
                ready.set()
            else:
                lines.append(line.rstrip("\n"))

    reader = threading.Thread(target=read)
    reader.start()
    started = ready.wait(60)
    if started:
        time.sleep(rng.uniform(0.02, 0.4))
    process.send_signal(signal.SIGKILL)
    process.wait()
    reader.join()
    assert started, process.stderr.read() if process.stderr else "the child never started"
    assert process.returncode == -signal.SIGKILL
    return lines


def _check_after_kill(engine: Engine, reported: list[str]) -> None:
    with engine.connect() as connection:
        assert connection.execute(text("PRAGMA integrity_check")).scalar() == "ok"
    with unit_of_work(engine, read_only=True) as session:
        chain = verify(session, SYSTEM, full=True)
        assert chain.ok, chain.summary()
        deep = compare_memories(session, SYSTEM)
        assert deep.ok, deep.summary()
        for line in reported:
            kind, memory_id, version, *content = line.split(" ", 3)
            action = {"confirm": None, "edit": AuditAction.EDIT, "delete": AuditAction.DELETE}[kind]
            memory = session.get(Memory, int(memory_id), execution_options=with_inactive())
            assert memory is not None, f"committed and lost: {line}"
            assert memory.version >= int(version), f"committed and lost: {line}"
            if action is not None:
                events = session.scalars(
                    select(AuditEvent.after).where(AuditEvent.target_id == int(memory_id), AuditEvent.action == action)
                ).all()
                assert any(
                    (after or {}).get("version") == int(version)
                    and (not content or (after or {}).get("content") == content[0])
                    for after in events
                ), f"committed and lost: {line}"


def test_killed_at_random_moments_the_database_loses_nothing_committed(tmp_path: Path) -> None:
    from tests.integration.test_concurrency import seed

    url = f"sqlite:///{tmp_path / 'memory-review.sqlite3'}"
    engine = ready_engine(Settings(database_url=url, data_dir=tmp_path))
    seed(engine, proposals_count=100)
    rng = random.Random(14)
    survived, committed = 0, 0
    for run in range(kills()):
        reported = _run_and_kill(url, run, rng)
        _check_after_kill(engine, reported)
        survived += 1
        committed += len(reported)
    engine.dispose()
    assert survived == kills()
    assert committed > 0
    print(f"crash test: {survived} kills survived, {committed} reported commits all present")


if __name__ == "__main__":
    child(sys.argv[1], int(sys.argv[2]))
