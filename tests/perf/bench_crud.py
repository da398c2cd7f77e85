"""Add, edit and soft delete per second (audit included) at 10,000 stored memories,
against the M13 seed's storage: load the whole memories.yaml, change it, write it back."""

from __future__ import annotations

import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml
from sqlalchemy import Engine

from domain import memories
from domain.actors import SYSTEM
from domain.enums import MemoryConfidence, MemorySource, MemoryStatus, MemoryType
from domain.memory_writes import insert_memory
from domain.models import Memory, User
from domain.schemas import MemoryCreate, MemoryEdit
from domain.types import utcnow
from persistence.engine import make_engine
from persistence.migrate import upgrade
from persistence.uow import unit_of_work
from tests.databases import postgres_engine, postgres_unreachable_reason
from tests.factories import make_user
from tests.perf.figures import record

STORED = 10_000
OPERATIONS = 300
YAML_OPERATIONS = 5
TYPES = list(MemoryType)
Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
Dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def seed(engine: Engine, stored: int = STORED) -> tuple[User, list[int]]:
    athlete = make_user(engine, "bench")
    now = utcnow()
    with unit_of_work(engine) as session:
        ids = [
            insert_memory(
                session,
                SYSTEM,
                Memory(
                    athlete_id=athlete.id,
                    type=TYPES[n % 5],
                    content=f"Stored fact number {n} about long runs",
                    source=MemorySource.USER_MESSAGE,
                    confidence=MemoryConfidence.MEDIUM,
                    occurrences=1,
                    tags=[f"body:part{n % 40}"],
                    status=MemoryStatus.ACTIVE,
                    created_at=now,
                    updated_at=now,
                ),
            ).id
            for n in range(stored)
        ]
    return athlete, ids


def per_second(count: int, action: Callable[[int], Any]) -> float:
    started = time.perf_counter()
    for n in range(count):
        action(n)
    return count / (time.perf_counter() - started)


def database_rates(engine: Engine, stored: int = STORED, operations: int = OPERATIONS) -> dict[str, float]:
    athlete, ids = seed(engine, stored)

    def add(n: int) -> None:
        with unit_of_work(engine) as session:
            memories.add_memory(session, athlete, data=MemoryCreate(content=f"New fact {n}", type=MemoryType.CONTEXT))

    def edit(n: int) -> None:
        with unit_of_work(engine) as session:
            memories.edit_memory(
                session, athlete, memory_id=ids[n], expected_version=1, changes=MemoryEdit(content=f"Edited fact {n}")
            )

    def delete(n: int) -> None:
        with unit_of_work(engine) as session:
            memories.delete_memory(session, athlete, memory_id=ids[operations + n])

    return {
        "add": per_second(operations, add),
        "edit": per_second(operations, edit),
        "soft delete": per_second(operations, delete),
    }


def yaml_rates(path: Path, stored: int = STORED) -> dict[str, float]:
    now = utcnow().isoformat()
    document = {
        "_schema": {"format_version": "1.0.0", "schema_type": "memories"},
        "memories": [
            {
                "id": f"mem_{n:08x}",
                "type": TYPES[n % 5].value,
                "content": f"Stored fact number {n} about long runs",
                "source": "user_message",
                "source_reference": None,
                "created_at": now,
                "updated_at": now,
                "confidence": "medium",
                "occurrences": 1,
                "tags": [f"body:part{n % 40}"],
            }
            for n in range(stored)
        ],
        "archived": [],
    }
    path.write_text(yaml.dump(document, Dumper=Dumper))

    def change(mutate: Callable[[dict[str, Any]], None]) -> Callable[[int], None]:
        def action(n: int) -> None:
            data = yaml.load(path.read_text(), Loader=Loader)
            mutate(data)
            path.write_text(yaml.dump(data, Dumper=Dumper))

        return action

    def add(data: dict[str, Any]) -> None:
        data["memories"].append(
            {
                "id": f"mem_{uuid.uuid4().hex[:8]}",
                "type": "context",
                "content": "New fact",
                "confidence": "high",
                "occurrences": 1,
                "tags": [],
            }
        )

    def edit(data: dict[str, Any]) -> None:
        data["memories"][7]["content"] = "Edited fact"

    def delete(data: dict[str, Any]) -> None:
        data["memories"].pop(11)

    return {
        "add": per_second(YAML_OPERATIONS, change(add)),
        "edit": per_second(YAML_OPERATIONS, change(edit)),
        "soft delete": per_second(YAML_OPERATIONS, change(delete)),
    }


def run(quick: bool = False) -> None:
    stored, operations = (1_000, 100) if quick else (STORED, OPERATIONS)
    with tempfile.TemporaryDirectory() as tmp:
        engine = make_engine(f"sqlite:///{Path(tmp) / 'bench.sqlite3'}")
        upgrade(engine)
        results = {"SQLite": database_rates(engine, stored, operations)}
        engine.dispose()
        reason = "quick mode" if quick else postgres_unreachable_reason()
        if reason is None:
            with postgres_engine() as pg:
                results["PostgreSQL"] = database_rates(pg, stored, operations)
        else:
            print(f"PostgreSQL skipped: {reason}")
        seed_rates = yaml_rates(Path(tmp) / "memories.yaml", stored)
    print(f"{stored:,} memories stored; {operations} operations each (YAML: {YAML_OPERATIONS}), one transaction each")
    print(f"{'operation':<12} {'store':<28} {'ops/s':>9} {'× seed YAML':>12}")
    for operation in ("add", "edit", "soft delete"):
        for store, rates in results.items():
            ratio = rates[operation] / seed_rates[operation]
            print(f"{operation:<12} {store + ' (audited)':<28} {rates[operation]:>9.1f} {ratio:>11.0f}×")
            record(f"crud_{operation.replace(' ', '_')}_per_s_{store.lower()}_{stored}", rates[operation])
        print(f"{operation:<12} {'M13 seed memories.yaml':<28} {seed_rates[operation]:>9.2f} {'1':>11}×")


if __name__ == "__main__":
    run()
