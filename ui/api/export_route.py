"""GET /api/v1/athletes/{username}/export: the athlete's memory as a file, for the coaching system.

Scope `read`. Memories the athlete hid from the coach are left out (the athlete's own download on
the Context page has them, marked). The read is recorded like any other: which token, which memories.
"""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Path, Query, Response

from domain.coach_context import athlete_by_username
from domain.coach_reads import PendingRead
from domain.enums import ApiScope
from domain.exports import export_memory
from domain.types import utcnow
from ui.api.errors import ApiRoute, documented
from ui.api.read_log import READ_LOG
from ui.api.schemas import USERNAME
from ui.api.security import Credentials, token_session

export_router = APIRouter(route_class=ApiRoute, tags=["coach"])
AthleteName = Annotated[str, Path(pattern=USERNAME, description="The athlete's login name (case-insensitive)")]
ExportFormat = Literal["m13", "pam"]


@export_router.get(
    "/athletes/{username}/export",
    responses={
        200: {
            "description": "The file: M13 `memories.yaml` (application/yaml) or Portable AI Memory 1.0 JSON",
            "content": {"application/yaml": {}, "application/json": {}},
        },
        **documented(401, 403, 404, 422, 429, 503),
    },
    response_class=Response,
    summary="The athlete's memory as M13 YAML or Portable AI Memory JSON, without hidden memories (scope: read)",
)
def get_export(
    username: AthleteName,
    credentials: Credentials,
    format: Annotated[ExportFormat, Query(description="m13 (YAML) or pam (Portable AI Memory JSON)")] = "m13",
) -> Response:
    with token_session(credentials, ApiScope.READ) as (session, caller):
        athlete = athlete_by_username(session, username)
        exported = export_memory(session, caller.actor, athlete=athlete, format=format)
        ids = tuple(m.id for m in exported.data.memories)
    READ_LOG.add(PendingRead(caller, athlete.id, "memories", ids, utcnow(), query=f"export ({format})"))
    disposition = f'attachment; filename="{exported.file_name}"'
    media = f"{exported.media_type}; charset=utf-8"
    return Response(exported.text, media_type=media, headers={"Content-Disposition": disposition})
