"""Loads the demo data set (assets/demo/) into an empty database."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import yaml
from sqlalchemy import Engine, func, select
from sqlalchemy.orm import Session

from domain.actors import SYSTEM, SystemActor
from domain.enums import AuditAction, MemoryConfidence, MemorySource, MemoryStatus, MemoryType, Role
from domain.memory_writes import change_memory, insert_memory
from domain.models import Memory, User
from domain.schemas import clean_content, clean_tags
from domain.types import utcnow
from domain.users import create_user
from persistence.uow import unit_of_work

DEMO_DIR = Path(__file__).resolve().parent.parent / "assets" / "demo"
DEMO = SystemActor("demo")  # how the audit log names what the demo loader did


def read_yaml(path: Path) -> Any:
    with path.open(encoding="utf-8") as handle:
        return yaml.safe_load(handle)


def is_empty(session: Session) -> bool:
    return not session.scalar(select(func.count()).select_from(User))


def load_demo(engine: Engine, demo_dir: Path = DEMO_DIR) -> bool:
    """Load the demo set if the database has no users yet; say whether it did."""
    data = read_yaml(demo_dir / "demo.yaml")
    with unit_of_work(engine) as session:
        if not is_empty(session):
            return False
        users = {
            spec["username"]: create_user(
                session,
                SYSTEM,
                username=spec["username"],
                password=spec["password"],
                role=Role(spec["role"]),
                display_name=spec["display_name"],
            )
            for spec in data["users"]
        }
        for username, memories in data["memories"].items():
            for spec in memories:
                _load_memory(session, users[username], spec)
    notes_file = demo_dir / "notes.yaml"
    if notes_file.exists():
        from persistence.demo_notes import ingest_demo_notes

        ingest_demo_notes(engine, read_yaml(notes_file), athlete="alex")
    return True


def _load_memory(session: Session, owner: User, spec: dict[str, Any]) -> None:
    when = utcnow() - timedelta(days=spec["days_ago"])
    memory = Memory(
        athlete_id=owner.id,
        type=MemoryType(spec["type"]),
        content=clean_content(spec["content"]),
        source=MemorySource(spec["source"]),
        source_reference=spec.get("source_reference"),
        confidence=MemoryConfidence(spec["confidence"]),
        occurrences=spec.get("occurrences", 1),
        tags=clean_tags(spec.get("tags", [])),
        status=MemoryStatus.ACTIVE,
        created_at=when,
        updated_at=when,
    )
    insert_memory(session, DEMO, memory, action=AuditAction.IMPORT)
    if "deleted_days_ago" in spec:
        change_memory(
            session,
            owner,
            memory,
            action=AuditAction.DELETE,
            touch=False,
            changes={
                "status": MemoryStatus.DELETED,
                "deleted_at": utcnow() - timedelta(days=spec["deleted_days_ago"]),
                "deleted_by_id": owner.id,
            },
        )
