"""Schemathesis against /openapi.json: generated requests, valid and invalid, never get a server error."""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis import GenerationMode

from tests.api.conftest import ApiServer

EXAMPLES = 20


def api_operations(api: ApiServer) -> list[Any]:
    schema = schemathesis.openapi.from_url(f"{api.url}/openapi.json")
    operations = [result.ok() for result in schema.get_all_operations()]
    return [op for op in operations if op.path.startswith("/api/")]


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE], ids=lambda m: m.value)
def test_no_generated_request_gets_a_server_error(api: ApiServer, mode: GenerationMode) -> None:
    headers = {"Authorization": f"Bearer {api.token('ingest', 'read')}"}
    operations = api_operations(api)
    assert len(operations) >= 3
    for operation in operations:
        for path_parameters in (None, {"username": "alex"}):
            if path_parameters and "{username}" not in operation.path:
                continue

            @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None)
            @given(case=operation.as_strategy(mode, path_parameters=path_parameters))
            def check(case: Any) -> None:
                response = case.call(base_url=api.url, headers=headers)
                assert response.status_code < 500, f"{case.method} {case.formatted_path}: {response.text[:300]}"
                assert response.status_code != 429, "the test token ran into the rate limit"

            check()
