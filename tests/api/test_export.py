"""GET /api/v1/athletes/{username}/export: the token gate, both formats, hidden memories left out."""

from __future__ import annotations

import uuid

import pytest
import yaml
from sqlalchemy import select

from domain.coach_context import set_hidden
from domain.models import Memory
from persistence.uow import unit_of_work
from tests.api.conftest import ApiServer
from tests.pam_schema import assert_valid_pam_if_schema as assert_valid_pam

PATH = "/api/v1/athletes/alex/export"


@pytest.mark.parametrize("fmt", ["m13", "pam"])
@pytest.mark.parametrize("token", ["none", "wrong scope", "right scope", "revoked"])
def test_export_access(api: ApiServer, fmt: str, token: str) -> None:
    secret = {
        "none": lambda: None,
        "wrong scope": lambda: api.token("ingest"),
        "right scope": lambda: api.token("read"),
        "revoked": lambda: api.token("read", revoked=True),
    }[token]()
    with api.client(secret) as client:
        response = client.get(PATH, params={"format": fmt})
    expected = {"none": 401, "wrong scope": 403, "right scope": 200, "revoked": 401}[token]
    assert response.status_code == expected, response.text
    if expected != 200:
        assert set(response.json()) == {"error"}
        return
    assert response.headers["content-type"].startswith("application/yaml" if fmt == "m13" else "application/json")
    assert "attachment" in response.headers["content-disposition"]
    if fmt == "pam":
        assert_valid_pam(response.json())
    else:
        assert yaml.safe_load(response.text)["memories"]


def test_hidden_memories_are_left_out_and_bad_input_is_refused(api: ApiServer) -> None:
    alex = api.user("alex")
    with unit_of_work(api.engine) as session:
        hidden = session.scalars(select(Memory).where(Memory.athlete_id == alex.id).order_by(Memory.id)).first()
        assert hidden is not None
        set_hidden(session, alex, memory_id=hidden.id, hidden=True)
    try:
        with api.client(api.token("read")) as client:
            m13 = client.get(PATH).text
            pam = client.get(PATH, params={"format": "pam"}).json()
            unknown = client.get(f"/api/v1/athletes/nobody-{uuid.uuid4().hex[:6]}/export")
            bad = client.get(PATH, params={"format": "csv"})
    finally:
        with unit_of_work(api.engine) as session:
            set_hidden(session, alex, memory_id=hidden.id, hidden=False)
    assert hidden.content not in m13
    assert hidden.content not in [m["content"] for m in pam["memories"]]
    assert (unknown.status_code, bad.status_code) == (404, 422)
