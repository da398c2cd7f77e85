"""What the routes answer: ingest once and again, hidden memories never served, reads recorded, limits."""

from __future__ import annotations

import time
import uuid

from sqlalchemy import select

from domain.api_tokens import authenticate
from domain.coach_context import set_hidden
from domain.coach_reads import ReadEntry, coach_reads_for
from domain.enums import AuditAction
from domain.memories import edit_memory
from domain.models import AuditEvent, Memory
from domain.schemas import MemoryEdit
from persistence.uow import unit_of_work
from tests.api.conftest import RATE_LIMIT, ApiServer


def recorded_reads(api: ApiServer, username: str, secret: str, *, count: int) -> list[ReadEntry]:
    """The athlete's reads by this token, newest first, once there are `count` of them: reads are
    written a moment behind their answers (ui.api.read_log), other tests' reads maybe after them."""
    athlete = api.user(username)
    deadline = time.monotonic() + 5
    while True:
        with unit_of_work(api.engine, read_only=True) as session:
            token = authenticate(session, secret).name
            reads = [read for read in coach_reads_for(session, athlete, limit=50) if read.token_name == token]
        if len(reads) >= count or time.monotonic() > deadline:
            return reads
        time.sleep(0.05)


def test_ingest_then_the_same_reference_again_gives_the_same_proposals(api: ApiServer) -> None:
    km = uuid.uuid4().int % 10_000  # a fact not proposed before, so this text proposes it
    text = f"My right ankle hurt after the {km} km trail run."
    note = {"athlete": "Alex", "kind": "activity_note", "reference": f"act-{uuid.uuid4().hex}", "text": text}
    with api.client(api.token("ingest")) as client:
        first = client.post("/api/v1/ingest", json=note)
        again = client.post("/api/v1/ingest", json={**note, "text": "Something else entirely."})
    assert first.status_code == 201, first.text
    assert again.status_code == 200, again.text
    assert first.json()["created"] is True and again.json()["created"] is False
    assert first.json()["proposals"] and again.json()["proposals"] == first.json()["proposals"]
    assert {p["status"] for p in first.json()["proposals"]} == {"pending"}
    assert first.json()["athlete"] == "alex"
    with unit_of_work(api.engine, read_only=True) as session:
        actors = session.scalars(
            select(AuditEvent.actor_label).where(AuditEvent.action == AuditAction.INGEST).order_by(AuditEvent.seq)
        ).all()
    assert actors[-1].startswith("token:t-")  # the audit log names the token that sent the text


def test_invalid_input_is_refused_with_one_clear_message(api: ApiServer) -> None:
    good = {"athlete": "alex", "kind": "activity_note", "reference": "r-1", "text": "Easy run."}
    cases = {
        "kind": {**good, "kind": "email"},
        "reference": {**good, "reference": "x" * 201},
        "text": {**good, "text": "   "},
        "athlete": {**good, "athlete": "not a name!"},
        "extra": {**good, "extra": 1},
    }
    with api.client(api.token("ingest")) as client:
        for field, body in cases.items():
            response = client.post("/api/v1/ingest", json=body)
            assert response.status_code == 422, (field, response.text)
            assert response.json()["error"].startswith(field), response.json()
        broken = client.post("/api/v1/ingest", content=b"{not json", headers={"content-type": "application/json"})
        assert broken.status_code == 422 and broken.json() == {"error": "The body is not valid JSON."}
        too_long_text = client.post("/api/v1/ingest", json={**good, "text": "a" * 20_001})
        assert too_long_text.status_code == 422 and too_long_text.json()["field"] == "text"


def test_a_body_over_64_kib_is_refused(api: ApiServer) -> None:
    body = b'{"text": "' + b"a" * (65 * 1024) + b'"}'
    with api.client(api.token("ingest")) as client:
        declared = client.post("/api/v1/ingest", content=body, headers={"content-type": "application/json"})
        chunked = client.post("/api/v1/ingest", content=iter([body[:40_000], body[40_000:]]))
    assert declared.status_code == 413 and "64 KiB" in declared.json()["error"]
    assert chunked.status_code == 413


def test_an_unknown_athlete_is_not_found(api: ApiServer) -> None:
    with api.client(api.token("read", "ingest")) as client:
        for response in (
            client.get("/api/v1/athletes/nobody/memories"),
            client.get("/api/v1/athletes/nobody/context"),
            client.get("/api/v1/athletes/admin/context"),  # an admin is no athlete
            client.post(
                "/api/v1/ingest", json={"athlete": "nobody", "kind": "user_message", "reference": "x", "text": "Hi"}
            ),
        ):
            assert response.status_code == 404, response.text
            assert response.json() == {"error": "Unknown athlete."}


def test_hidden_memories_are_never_served(api: ApiServer) -> None:
    sam = api.user("sam")
    with unit_of_work(api.engine) as session:
        memories = session.scalars(select(Memory).where(Memory.athlete_id == sam.id)).all()
        hidden = memories[0]
        set_hidden(session, sam, memory_id=hidden.id, hidden=True)
    words = " ".join(hidden.content.split()[:4])
    with api.client(api.token("read")) as client:
        listed = client.get("/api/v1/athletes/sam/memories", params={"limit": 200}).json()
        searched = client.get("/api/v1/athletes/sam/memories", params={"q": words}).json()
        context = client.get(
            "/api/v1/athletes/sam/context", params={"query": hidden.content, "max_tokens": 4000}
        ).json()
    assert listed["total"] == len(memories) - 1
    assert hidden.id not in [m["id"] for m in listed["items"] + searched["items"] + context["memories"]]
    assert hidden.content not in context["block"]
    with unit_of_work(api.engine) as session:
        set_hidden(session, sam, memory_id=hidden.id, hidden=False)
    with api.client(api.token("read")) as client:
        context = client.get(
            "/api/v1/athletes/sam/context", params={"query": hidden.content, "max_tokens": 4000}
        ).json()
    assert hidden.id in [m["id"] for m in context["memories"]]


def test_the_context_block_is_within_budget_deterministic_and_recorded(api: ApiServer) -> None:
    params = {"query": "knee pain on long runs", "max_tokens": 60}
    secret = api.token("read")
    with api.client(secret) as client:
        first = client.get("/api/v1/athletes/alex/context", params=params).json()
        second = client.get("/api/v1/athletes/alex/context", params=params).json()
        default = client.get("/api/v1/athletes/alex/context").json()
    assert first["block"] == second["block"] and first["block"].startswith("MEMORY:\n- Facts: ")
    assert first["tokens"] <= 60 and -(-len(first["block"]) // 4) == first["tokens"]
    assert default["max_tokens"] == 174 and default["tokens"] <= 174
    reads = recorded_reads(api, "alex", secret, count=3)
    assert len(reads) == 3 and reads[0].query == "" and reads[0].max_tokens == 174
    assert reads[1].query == "knee pain on long runs" and reads[1].kind == "context"
    assert list(reads[1].memory_ids) == [m["id"] for m in first["memories"]]
    assert reads[1].block == first["block"] and reads[1].token_name.startswith("t-")


def test_too_many_requests_get_429_with_retry_after(api: ApiServer) -> None:
    with api.client(api.token("read")) as client:
        statuses = [client.get("/api/v1/athletes/nobody/memories").status_code for _ in range(RATE_LIMIT)]
        refused = client.get("/api/v1/athletes/nobody/memories")
    assert set(statuses) == {404}
    assert refused.status_code == 429
    assert 1 <= int(refused.headers["retry-after"]) <= 60
    assert "Too many requests" in refused.json()["error"]
    with api.client(api.token("read")) as other:  # the limit is per token
        assert other.get("/api/v1/athletes/nobody/memories").status_code == 404


def test_a_change_made_by_another_process_is_in_the_next_context_answer(api: ApiServer) -> None:
    """The server keeps each athlete's prepared memories, checked against the athlete's change stamp
    (ui.api → domain.coach_index), and reads on connections its threads keep: an edit made by another
    process (this one) must be in the very next answer, whichever thread and connection serves it."""
    sam = api.user("sam")
    marker = f"Zebra{uuid.uuid4().hex[:8]}"
    with api.client(api.token("read")) as client:
        for _ in range(4):  # the server's connections have seen sam's memories as they are
            assert client.get("/api/v1/athletes/sam/context", params={"query": marker}).status_code == 200
        with unit_of_work(api.engine) as session:
            memory = session.scalars(select(Memory).where(Memory.athlete_id == sam.id).order_by(Memory.id)).first()
            assert memory is not None
            edit_memory(
                session,
                sam,
                memory_id=memory.id,
                changes=MemoryEdit(content=f"{marker} legs after hills"),
                expected_version=memory.version,
            )
        context = client.get("/api/v1/athletes/sam/context", params={"query": marker.lower()}).json()
    assert memory.id in [m["id"] for m in context["memories"]] and marker in context["block"]
