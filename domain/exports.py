"""Export: an athlete's memory as M13 YAML or Portable AI Memory JSON (the athlete owns it)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.orm import Session

from domain.actors import Actor
from domain.export_data import ExportData, check_export_actor, check_format, collect
from domain.export_m13 import to_m13_yaml
from domain.export_pam import to_pam_json
from domain.models import User

MEDIA_TYPES = {"m13": "application/yaml", "pam": "application/json"}
SUFFIXES = {"m13": "yaml", "pam": "json"}


@dataclass(frozen=True)
class ExportFile:
    file_name: str
    media_type: str
    text: str
    data: ExportData

    @property
    def memories(self) -> int:
        return len(self.data.memories)


def export_memory(session: Session, actor: Actor | None, *, athlete: User, format: str = "m13") -> ExportFile:
    """The whole file. Hidden-from-coach memories are in the athlete's own export (marked), not a token's."""
    kind = check_format(format)
    include_hidden = check_export_actor(actor, athlete)
    data = collect(session, athlete, include_hidden=include_hidden)
    text = to_m13_yaml(data) if kind == "m13" else to_pam_json(data)
    stamp = data.exported_at.strftime("%Y%m%d")
    return ExportFile(
        file_name=f"memory-{athlete.username}-{stamp}.{kind}.{SUFFIXES[kind]}",
        media_type=MEDIA_TYPES[kind],
        text=text,
        data=data,
    )
