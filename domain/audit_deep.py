"""`audit verify --deep`: replay the memory events of the log and compare each memory row with it.

The chain vouches for the events; this vouches for the rows. Every memory must have a history in
the log, its row must hold what its newest event recorded, and a memory removed for good must be
gone. A row changed by SQL, behind the services, is named here with the fields that differ.

Two differences are expected and pass: the row's `version` (a hard delete of a memory that
superseded this one unlinks it, which counts a version and writes no event of this memory), and
`superseded_by` emptied because that memory was removed for good.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from domain.actors import Actor, require_admin_or_system
from domain.enums import REMOVAL_ACTIONS, AuditTarget
from domain.memory_writes import snapshot
from domain.models import AuditEvent, Memory
from domain.visibility import with_inactive

BATCH = 5000
MAX_PROBLEMS = 20
_IGNORED = frozenset({"version"})


@dataclass
class DeepReport:
    memories_checked: int = 0
    events_replayed: int = 0
    problems: list[str] = field(default_factory=list)
    more: int = 0  # problems found past MAX_PROBLEMS

    @property
    def ok(self) -> bool:
        return not self.problems

    def summary(self) -> str:
        if self.ok:
            return (
                f"Every memory matches the log: {self.memories_checked:,} memories, "
                f"{self.events_replayed:,} memory events replayed"
            )
        extra = f" (and {self.more:,} more)" if self.more else ""
        return "Memories differ from the audit log:\n  " + "\n  ".join(self.problems) + extra

    def add(self, problem: str) -> None:
        if len(self.problems) < MAX_PROBLEMS:
            self.problems.append(problem)
        else:
            self.more += 1


def compare_memories(session: Session, actor: Actor | None) -> DeepReport:
    require_admin_or_system(actor)
    report = DeepReport()
    last: dict[int, tuple[int, dict[str, Any] | None]] = {}  # memory → (seq, its newest state; None: removed)
    after = 0
    while True:
        rows = session.execute(
            select(AuditEvent.seq, AuditEvent.action, AuditEvent.target_id, AuditEvent.after)
            .where(AuditEvent.target_type == AuditTarget.MEMORY, AuditEvent.seq > after)
            .order_by(AuditEvent.seq)
            .limit(BATCH)
        ).all()
        if not rows:
            break
        for seq, action, target_id, payload in rows:
            if target_id is not None:
                last[target_id] = (seq, None if action in REMOVAL_ACTIONS else payload)
        report.events_replayed += len(rows)
        after = rows[-1].seq
    removed = {memory_id for memory_id, (_, state) in last.items() if state is None}
    seen: set[int] = set()
    after = 0
    while True:
        batch = session.scalars(
            select(Memory)
            .where(Memory.id > after)
            .order_by(Memory.id)
            .limit(BATCH)
            .execution_options(**with_inactive())
        ).all()
        if not batch:
            break
        for memory in batch:
            seen.add(memory.id)
            _compare(report, memory, last.get(memory.id), removed)
        report.memories_checked += len(batch)
        after = batch[-1].id
        for memory in batch:  # a large store is read a batch at a time
            session.expunge(memory)
    for memory_id, (seq, state) in sorted(last.items()):
        if state is not None and memory_id not in seen:
            report.add(f"memory #{memory_id} is gone, but the log (event #{seq}) never removed it")
    return report


def _compare(
    report: DeepReport, memory: Memory, logged: tuple[int, dict[str, Any] | None] | None, removed: set[int]
) -> None:
    if logged is None:
        report.add(f"memory #{memory.id} has no history in the audit log")
        return
    seq, state = logged
    if state is None:
        report.add(f"memory #{memory.id} was removed for good by event #{seq} but is still there")
        return
    row = snapshot(memory)
    differ = sorted(
        name
        for name in set(row) | set(state)
        if name not in _IGNORED
        and row.get(name) != state.get(name)
        and not (name == "superseded_by" and row.get(name) is None and state.get(name) in removed)
    )
    if differ:
        report.add(f"memory #{memory.id} differs from its newest event #{seq} in: {', '.join(differ)}")
