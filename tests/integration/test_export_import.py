"""Export and import on SQLite and PostgreSQL: the athlete's memory leaves and comes back whole,
as proposals to review; a malformed file changes nothing."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

import pytest
import yaml
from sqlalchemy import Engine, func, select

from domain import proposals
from domain.enums import MemoryConfidence, MemoryStatus, MemoryType, ProposalStatus
from domain.errors import InvalidInput, PermissionDenied
from domain.exports import export_memory
from domain.imports import import_file, plan_import
from domain.models import AuditEvent, Memory, Proposal, User
from persistence.engine import make_engine
from persistence.uow import unit_of_work
from tests.databases import SqliteTemplate, postgres_engine
from tests.factories import make_memory, make_user
from tests.pam_schema import assert_valid_pam_if_schema as assert_valid_pam


def at(day: str) -> datetime:
    return datetime.fromisoformat(day).replace(tzinfo=UTC)


@contextmanager
def empty_database(like: Engine, template: SqliteTemplate, tmp_path: Path) -> Iterator[Engine]:
    if like.dialect.name == "sqlite":
        fresh = make_engine(template.copy_to(tmp_path / "fresh.sqlite3"))
        yield fresh
        fresh.dispose()
    else:
        with postgres_engine() as fresh:
            yield fresh


def seed(engine: Engine, athlete: User) -> None:
    make_memory(
        engine,
        athlete,
        "Left knee pain after long runs over 18km",
        type=MemoryType.INJURY_HISTORY,
        tags=["body:knee"],
        confidence=MemoryConfidence.HIGH,
        occurrences=4,
        created_at=at("2025-02-15T10:30:00.123456"),
        updated_at=at("2025-03-10T08:45:00"),
    )
    make_memory(engine, athlete, "Prefers morning runs before work", tags=["time:morning"], created_at=at("2025-03-01"))
    make_memory(
        engine,
        athlete,
        "Sleeps badly before races",
        type=MemoryType.CONTEXT,
        confidence=MemoryConfidence.LOW,
        hidden_from_coach=True,
        created_at=at("2025-01-05"),
        updated_at=at("2025-01-06"),
    )
    new = make_memory(engine, athlete, "Recovers in two days after intervals", type=MemoryType.TRAINING_RESPONSE)
    make_memory(
        engine,
        athlete,
        "Recovers in three days after intervals",
        type=MemoryType.TRAINING_RESPONSE,
        status=MemoryStatus.ARCHIVED,
        superseded_by_id=new.id,
        archived_at=at("2025-04-01"),
    )


def facts(engine: Engine, athlete: User) -> list[tuple[object, ...]]:
    with unit_of_work(engine, read_only=True) as session:
        rows = session.scalars(select(Memory).where(Memory.athlete_id == athlete.id)).all()
        return sorted(
            (m.content, m.type, tuple(m.tags), m.confidence, m.created_at, m.updated_at, m.hidden_from_coach)
            for m in rows
        )


def export(engine: Engine, athlete: User, fmt: str) -> str:
    with unit_of_work(engine, read_only=True) as session:
        return export_memory(session, athlete, athlete=athlete, format=fmt).text


@pytest.mark.parametrize("fmt", ["m13", "pam"])
def test_round_trip_gives_back_the_same_memories(
    engine: Engine, athlete: User, fmt: str, sqlite_template: SqliteTemplate, tmp_path: Path
) -> None:
    seed(engine, athlete)
    text = export(engine, athlete, fmt)
    with empty_database(engine, sqlite_template, tmp_path) as fresh:
        again = make_user(fresh, "alex")
        with unit_of_work(fresh) as session:
            result = import_file(
                session,
                again,
                athlete=again,
                file_name=f"alex.{'yaml' if fmt == 'm13' else 'json'}",
                data=text.encode(),
            )
        assert len(result.proposals) == 4 and result.plan.parsed.history == 1
        with unit_of_work(fresh, read_only=True) as session:
            page = proposals.list_pending(session, again)
        assert all(item.proposal.evidence[0].startswith("Imported from alex.") for item in page.items)
        assert facts(fresh, again) == []  # proposals only, never silent memories
        ids = [item.proposal.id for item in page.items]
        with unit_of_work(fresh) as session:
            proposals.confirm_many(session, again, proposal_ids=ids, keep_both=ids)
        assert facts(fresh, again) == [
            f for f in facts(engine, athlete) if f[0] != "Recovers in three days after intervals"
        ]
        round_tripped = export(fresh, again, fmt)
    if fmt == "m13":
        before, after = yaml.safe_load(text)["memories"], yaml.safe_load(round_tripped)["memories"]
        keys = ("content", "type", "tags", "confidence", "created_at", "updated_at", "hidden_from_coach")
    else:
        before, after = json.loads(text)["memories"], json.loads(round_tripped)["memories"]
        before = [m for m in before if m["status"] == "active"]
        keys = ("content", "type", "custom_type", "tags", "confidence", "temporal", "access")
    pick = lambda ms: sorted(tuple(json.dumps(m[k], sort_keys=True) for k in keys) for m in ms)  # noqa: E731
    assert pick(before) == pick(after)


def test_pam_export_validates_and_keeps_supersession(engine: Engine, athlete: User) -> None:
    seed(engine, athlete)
    document = json.loads(export(engine, athlete, "pam"))
    assert_valid_pam(document)
    old = next(m for m in document["memories"] if m["status"] == "superseded")
    assert old["temporal"]["superseded_by"] in {m["id"] for m in document["memories"]}
    assert [r["type"] for r in document["relations"]] == ["supersedes"]
    hidden = next(m for m in document["memories"] if m["content"] == "Sleeps badly before races")
    assert hidden["access"]["visibility"] == "private" and hidden["metadata"]["memory_review"]["hidden_from_coach"]


def counts(engine: Engine) -> tuple[int, int, int]:
    with unit_of_work(engine, read_only=True) as session:
        return tuple(session.scalar(select(func.count()).select_from(t)) or 0 for t in (Proposal, Memory, AuditEvent))  # type: ignore[return-value]


M13_OK = "_schema:\n  format_version: '1.0.0'\nmemories:\n"
ENTRY = "  - id: m{n}\n    type: preference\n    content: Likes hills {n}\n    created_at: '2025-01-01T00:00:00Z'\n"


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("bad.yaml", b"_schema: [unclosed\n", "not valid YAML (line"),
        ("bad.json", b'{"schema": "portable-ai-memory", ', "not valid JSON"),
        ("old.yaml", b"_schema:\n  format_version: '2.0.0'\nmemories: []\n", "format_version '2.0.0' is not supported"),
        (
            "old.json",
            b'{"schema": "portable-ai-memory", "schema_version": "3.0", "owner": {"id": "x"}, "memories": []}',
            "schema_version '3.0'",
        ),
        ("big.txt", b"- Prefers morning runs\n" * 500_000, "an import takes at most 8 MB"),
        (
            "dup.yaml",
            (M13_OK + ENTRY.format(n=1) + ENTRY.format(n=1)).encode(),
            "id 'm1' appears twice (entries 1 and 2)",
        ),
        (
            "type.yaml",
            (M13_OK + ENTRY.format(n=1) + ENTRY.format(n=2).replace("preference", "hobby")).encode(),
            "entry 2 (m2): Type: unknown value 'hobby'",
        ),
        (
            "date.txt",
            b"[2026-03-01] - Prefers morning runs\n[2026-13-01] - Runs at night\n",
            "Line 2: date '2026-13-01'",
        ),
        ("binary.txt", b"\xff\xfe\x00bad", "not UTF-8"),
    ],
)
def test_a_malformed_file_changes_nothing(engine: Engine, athlete: User, name: str, data: bytes, message: str) -> None:
    before = counts(engine)
    with pytest.raises(InvalidInput) as raised, unit_of_work(engine) as session:
        import_file(session, athlete, athlete=athlete, file_name=name, data=data)
    assert message in str(raised.value)
    assert counts(engine) == before


def test_plain_text_lines_become_proposals_with_their_dates(engine: Engine, athlete: User) -> None:
    data = (
        b"Here is what I remember:\n\n[2026-03-01] - Prefers morning runs\n"
        b"[2026-02-10] - My left knee hurts after long runs\n"
    )
    with unit_of_work(engine) as session:
        result = import_file(session, athlete, athlete=athlete, file_name="chatgpt.txt", data=data)
    made = {p.content: p for p in result.proposals}
    assert set(made) == {"Here is what I remember:", "Prefers morning runs", "My left knee hurts after long runs"}
    assert made["Prefers morning runs"].type == MemoryType.PREFERENCE
    assert made["My left knee hurts after long runs"].type == MemoryType.INJURY_HISTORY
    assert all(p.status == ProposalStatus.PENDING for p in result.proposals)
    with unit_of_work(engine) as session:
        memory = proposals.confirm(session, athlete, proposal_id=made["Prefers morning runs"].id)
    assert memory.created_at == at("2026-03-01")
    with unit_of_work(engine, read_only=True) as session:  # importing it again proposes nothing new
        assert plan_import(session, athlete, athlete=athlete, file_name="chatgpt.txt", data=data).skipped == 2


def test_only_the_athlete_or_an_admin_imports(engine: Engine, athlete: User, other_athlete: User, admin: User) -> None:
    data = b"- Prefers morning runs\n"
    with pytest.raises(PermissionDenied), unit_of_work(engine) as session:
        import_file(session, other_athlete, athlete=athlete, file_name="x.txt", data=data)
    with unit_of_work(engine) as session:
        assert len(import_file(session, admin, athlete=athlete, file_name="x.txt", data=data).proposals) == 1
    with pytest.raises(PermissionDenied), unit_of_work(engine, read_only=True) as session:
        export_memory(session, other_athlete, athlete=athlete)


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("nan.json", b'{"schema": "portable-ai-memory", "schema_version": "1.0", "memories": [NaN]}', "NaN"),
        ("deep.json", b"[" * 100_000 + b"]" * 100_000, "nests too deeply"),
        (
            "rtl.yaml",
            (M13_OK + ENTRY.format(n=1) + '    source_reference: "\\u202eabc"\n').encode(),
            "reading direction",
        ),
    ],
)
def test_hostile_files_are_refused_with_a_message(
    engine: Engine, athlete: User, name: str, data: bytes, message: str
) -> None:
    before = counts(engine)
    with pytest.raises(InvalidInput) as raised, unit_of_work(engine) as session:
        import_file(session, athlete, athlete=athlete, file_name=name, data=data)
    assert message in str(raised.value)
    assert counts(engine) == before
