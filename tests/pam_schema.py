"""Where the tests find the published Portable AI Memory JSON Schema.

The schema belongs to the portable-ai-memory project and is not committed here (we copy no
other project's files). A developer points MEMORY_REVIEW_PAM_SCHEMA at a copy of
`schemas/portable-ai-memory.schema.json` from github.com/portable-ai-memory/portable-ai-memory,
or places it at tests/data/pam/ (ignored by git) or ../shared/pam/ beside the checkout.
"""

from __future__ import annotations

import json
import os
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

ROOT = Path(__file__).resolve().parents[1]
FILE_NAME = "portable-ai-memory.schema.json"
PLACES = (ROOT / "tests" / "data" / "pam" / FILE_NAME, ROOT.parent / "shared" / "pam" / FILE_NAME)
MISSING = (
    "the published PAM schema is not on this machine (it is another project's file, not committed): "
    "set MEMORY_REVIEW_PAM_SCHEMA to a copy of schemas/portable-ai-memory.schema.json"
)


@cache
def published_schema() -> dict[str, Any] | None:
    configured = os.environ.get("MEMORY_REVIEW_PAM_SCHEMA")
    for path in ([Path(configured)] if configured else []) + list(PLACES):
        if path.is_file():
            loaded: dict[str, Any] = json.loads(path.read_text())
            return loaded
    return None


def schema_problems(document: dict[str, Any]) -> list[str]:
    """Every place where `document` breaks the published schema; requires the schema (else skips)."""
    schema = published_schema()
    if schema is None:
        pytest.skip(MISSING)
    validator = Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(document)]


def assert_valid_pam_if_schema(document: dict[str, Any]) -> None:
    """Validate where the schema is present; the callers' own assertions run either way."""
    if published_schema() is not None:
        assert schema_problems(document) == []
