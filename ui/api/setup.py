"""Puts the API on the app: the gate in front of /api/, the rate limit, and the OpenAPI description."""

from __future__ import annotations

from nicegui import app
from nicegui.ui_run import DocsConfig

from persistence.settings import Settings
from ui.api.gate import MAX_BODY, ApiGate
from ui.api.read_log import READ_LOG
from ui.api.security import configure_rate_limit

DESCRIPTION = f"""
The coaching system's side of Memory Review. Every route under `/api/v1` takes a bearer token
(`Authorization: Bearer mr_…`) made with `memory-review token create NAME --scope ingest,read`
or in the admin console's Tokens tab; a browser's login counts for nothing here.

* Scopes: `ingest` for `POST /api/v1/ingest`, `read` for everything that reads memory.
* Errors are JSON: `{{"error": "…"}}`, with `field` when one field is at fault. No, unknown or
  revoked token → 401; missing scope → 403; unknown athlete → 404; invalid input → 422;
  body over {MAX_BODY // 1024} KiB → 413; too many requests for one token → 429 with `Retry-After`.
* Token counting in the context block: **ceil(characters / 4)**, characters being Unicode code
  points of the whole block, `MEMORY:` line included.
* Memories the athlete hid from the coach are never in any answer. Every read is recorded
  (when, which token, the query, which memories) and shown to the athlete.
"""


def api_docs() -> DocsConfig:
    """For ui.run(fastapi_docs=...): /docs, /redoc and /openapi.json."""
    return DocsConfig(
        title="Memory Review API",
        summary=None,
        description=DESCRIPTION,
        version="1.0.0",
        terms_of_service=None,
        contact=None,
        license_info=None,
    )


def install_api(settings: Settings) -> None:
    configure_rate_limit(settings.api_rate_limit)
    app.add_middleware(ApiGate)
    app.on_shutdown(lambda: READ_LOG.flush())  # the reads answered last are written before the process ends
