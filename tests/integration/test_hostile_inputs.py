"""Every hostile input (tests/data/hostile_inputs.txt) through every input path of the domain, on SQLite
and PostgreSQL: add, edit, tags, search (the athlete's list, the coach's list and context, the admin's
deleted list, audit log and users), proposal edit and confirm, reasons, usernames, display names, the
ingest of a note, the import of a file (M13 YAML, Portable AI Memory JSON, plain text) and the audit
CSV export.

Each one is either refused with InvalidInput, a message, and NOTHING changed (no row and no audit event
more), or stored and read back from the database exactly as the documented normal form says (NFC,
trimmed; a reason or name on one line; a coach's note without the characters the text rule refuses).
A search answers or refuses; it never fails on the search engine's syntax. Nothing else is allowed:
no DataError (PostgreSQL and NUL), no other exception.
"""

from __future__ import annotations

import csv
import io
import json
import unicodedata
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from sqlalchemy import Engine, func, select
from sqlalchemy.orm import Session

from domain import admin_deleted, coach_context, imports, ingest, memories, proposals, users
from domain.audit_export import export_csv
from domain.audit_log import AuditFilter, audit_page
from domain.content import scrub_text, text_problem
from domain.enums import AuditAction, MemoryType, Role
from domain.errors import InvalidInput
from domain.memory_lists import MemoryQuery, list_memories
from domain.models import AuditEvent, Memory, Proposal, SourceText, User
from domain.schemas import MemoryCreate, MemoryEdit, ProposalEdit, parse
from domain.visibility import with_inactive
from persistence.engine import IMMEDIATE, make_engine
from persistence.uow import unit_of_work
from tests.databases import SqliteTemplate, postgres_engine
from tests.factories import TEST_PASSWORD, make_memory, make_user
from tests.hostile import Hostile, hostile_inputs
from tests.integration.test_authorization_matrix import _proposal

NOTHING = object()  # a search: nothing is stored, nothing to read back


@dataclass
class World:
    engine: Engine
    owner: User
    admin: User
    active_id: int
    active_version: int
    deleted_id: int
    proposal_id: int


def nfc(value: str) -> str:
    return unicodedata.normalize("NFC", value)


def one_line(value: str) -> str | None:
    return nfc(" ".join(value.split())) or None


def _last_event(session: Session) -> AuditEvent:
    event = session.scalar(select(AuditEvent).order_by(AuditEvent.seq.desc()).limit(1))
    assert event is not None
    return event


def _memory(session: Session, memory_id: int) -> Memory:
    memory = session.get(Memory, memory_id, execution_options=with_inactive(), populate_existing=True)
    assert memory is not None
    return memory


def _m13(world: World, session: Session, content: str) -> bytes:
    document = {
        "_schema": {"format_version": "1.0", "schema_type": "memories"},
        "memories": [{"id": "m1", "type": "preference", "content": content, "confidence": "medium"}],
    }
    return yaml.safe_dump(document, allow_unicode=True).encode("utf-8", "surrogatepass")


def _pam(world: World, session: Session, content: str) -> bytes:
    document = {
        "schema": "portable-ai-memory",
        "schema_version": "1.0",
        "memories": [{"id": "m1", "type": "preference", "content": content}],
    }
    return json.dumps(document).encode("ascii")


def _imported(session: Session, world: World, name: str, data: bytes) -> list[str]:
    result = imports.import_file(session, world.owner, athlete=world.owner, file_name=name, data=data)
    session.flush()
    session.expire_all()
    return [
        p.content for p in session.scalars(select(Proposal).where(Proposal.id.in_([m.id for m in result.proposals])))
    ]


def _csv_reason(session: Session, world: World, reason: str) -> str | None:
    memories.restore_memory(session, world.admin, memory_id=world.deleted_id, reason=reason)
    session.flush()
    exported = export_csv(session, world.admin, filters=AuditFilter(action=AuditAction.RESTORE), summary=str)
    rows = list(csv.reader(io.StringIO(exported.text)))
    for cells in rows:  # no cell starts a formula (= + - @), whatever it holds
        assert not any(cell.startswith(("=", "+", "-", "@")) for cell in cells), cells
    return rows[1][7] or None  # the newest event's reason column


def _csv_expected(value: str) -> str | None:
    reason = one_line(value)
    if reason is None:
        return None
    return "'" + reason if reason.startswith(("=", "+", "-", "@")) else reason


Apply = Callable[[Session, World, str, Hostile], Any]


@dataclass(frozen=True)
class Path_:
    apply: Apply  # the stored value read back, or NOTHING
    expected: Callable[[str], Any]
    bytes_input: bool = False  # takes the input's bytes (a file), not its text


def _add(s: Session, w: World, v: str, h: Hostile) -> Any:
    memory = memories.add_memory(s, w.owner, data=parse(MemoryCreate, content=v, type="context"))
    s.flush()
    return _memory(s, memory.id).content


def _tags(s: Session, w: World, v: str, h: Hostile) -> Any:
    memory = memories.add_memory(s, w.owner, data=parse(MemoryCreate, content="Tagged", type="context", tags=[v]))
    s.flush()
    return _memory(s, memory.id).tags


def _edit(s: Session, w: World, v: str, h: Hostile) -> Any:
    memories.edit_memory(
        s, w.owner, memory_id=w.active_id, expected_version=w.active_version, changes=parse(MemoryEdit, content=v)
    )
    s.flush()
    return _memory(s, w.active_id).content


def _preview(s: Session, w: World, v: str, h: Hostile) -> Any:
    proposals.preview_confirm(s, w.owner, proposal_id=w.proposal_id, edits=parse(ProposalEdit, content=v))
    return NOTHING


def _confirm(s: Session, w: World, v: str, h: Hostile) -> Any:
    memory = proposals.confirm(s, w.owner, proposal_id=w.proposal_id, edits=parse(ProposalEdit, content=v))
    s.flush()
    return _memory(s, memory.id).content


def _restore_reason(s: Session, w: World, v: str, h: Hostile) -> Any:
    memories.restore_memory(s, w.admin, memory_id=w.deleted_id, reason=v)
    s.flush()
    s.expire_all()
    return _last_event(s).reason


def _hard_delete_reason(s: Session, w: World, v: str, h: Hostile) -> Any:
    memories.hard_delete_memory(s, w.admin, memory_id=w.deleted_id, reason=v)
    s.flush()
    s.expire_all()
    return _last_event(s).reason


def _delete_permanently_reason(s: Session, w: World, v: str, h: Hostile) -> Any:
    admin_deleted.delete_permanently(s, w.admin, memory_id=w.deleted_id, typed_username=w.owner.username, reason=v)
    s.flush()
    s.expire_all()
    return _last_event(s).reason


def _username(s: Session, w: World, v: str, h: Hostile) -> Any:
    user = users.create_user(s, w.admin, username=v, password=TEST_PASSWORD, role=Role.ATHLETE)
    s.flush()
    s.expire_all()
    return s.get(User, user.id, populate_existing=True).username  # type: ignore[union-attr]


def _display_name(s: Session, w: World, v: str, h: Hostile) -> Any:
    user = users.create_user(
        s, w.admin, username=f"h{h.line}", password=TEST_PASSWORD, role=Role.ATHLETE, display_name=v
    )
    s.flush()
    s.expire_all()
    shown = s.get(User, user.id, populate_existing=True).display_name  # type: ignore[union-attr]
    return None if shown == f"H{h.line}" else shown  # a blank name: the username, capitalised


def _ingest_text(s: Session, w: World, v: str, h: Hostile) -> Any:
    result = ingest.ingest(s, athlete=w.owner, kind="activity_note", reference=f"hostile-{h.line}", text=v)
    s.flush()
    s.expire_all()
    if result.source_text is None:
        return None  # nothing but blanks once cleaned: nothing stored
    return s.scalar(select(SourceText.text).where(SourceText.id == result.source_text.id))


def _ingest_reference(s: Session, w: World, v: str, h: Hostile) -> Any:
    result = ingest.ingest(s, athlete=w.owner, kind="activity_note", reference=v, text="Easy run by the river.")
    s.flush()
    s.expire_all()
    assert result.source_text is not None
    return s.scalar(select(SourceText.reference).where(SourceText.id == result.source_text.id))


def _search(call: Callable[[Session, World, str], Any]) -> Apply:
    def run(s: Session, w: World, v: str, h: Hostile) -> Any:
        call(s, w, v)
        return NOTHING

    return run


PATHS: dict[str, Path_] = {
    "memory content (add)": Path_(_add, lambda v: nfc(v.strip())),
    "memory tag (add)": Path_(_tags, lambda v: [" ".join(v.strip().lower().split())] if v.strip() else []),
    "memory content (edit)": Path_(_edit, lambda v: nfc(v.strip())),
    "proposal content (preview)": Path_(_preview, lambda v: NOTHING),
    "proposal content (confirm)": Path_(_confirm, lambda v: nfc(v.strip())),
    "search: Context page list": Path_(
        _search(lambda s, w, v: list_memories(s, w.owner, query=MemoryQuery(text=v))), lambda v: NOTHING
    ),
    "search: coach memories": Path_(
        _search(lambda s, w, v: coach_context.coach_memories(s, w.owner, text=v)), lambda v: NOTHING
    ),
    "search: coach context query": Path_(
        _search(lambda s, w, v: coach_context.context_for(s, w.owner, query=v)), lambda v: NOTHING
    ),
    "search: admin deleted": Path_(
        _search(lambda s, w, v: admin_deleted.list_deleted(s, w.admin, query=admin_deleted.DeletedQuery(text=v))),
        lambda v: NOTHING,
    ),
    "search: audit log": Path_(
        _search(lambda s, w, v: audit_page(s, w.admin, filters=AuditFilter(text=v))), lambda v: NOTHING
    ),
    "search: users": Path_(_search(lambda s, w, v: users.list_users(s, w.admin, text=v)), lambda v: NOTHING),
    "reason (restore)": Path_(_restore_reason, one_line),
    "reason (hard delete)": Path_(_hard_delete_reason, one_line),
    "reason (delete permanently)": Path_(_delete_permanently_reason, one_line),
    "username": Path_(_username, lambda v: nfc(v.strip().lower())),
    "display name": Path_(_display_name, lambda v: one_line(v)),  # blank: the username, capitalised (below)
    "ingest text": Path_(_ingest_text, lambda v: scrub_text(v) if scrub_text(v).strip() else None),
    "ingest reference": Path_(_ingest_reference, lambda v: nfc(v.strip())),
    "import M13 YAML content": Path_(
        lambda s, w, v, h: _imported(s, w, "memories.yaml", _m13(w, s, v)), lambda v: [nfc(v.strip())]
    ),
    "import PAM JSON content": Path_(
        lambda s, w, v, h: _imported(s, w, "memory.json", _pam(w, s, v)), lambda v: [nfc(v.strip())]
    ),
    "import text file (bytes)": Path_(
        lambda s, w, v, h: _imported(s, w, "notes.txt", h.data + b"\n"), lambda v: NOTHING, bytes_input=True
    ),
    "audit CSV export (reason cell)": Path_(lambda s, w, v, h: _csv_reason(s, w, v), _csv_expected),
}


def _counts(session: Session) -> tuple[int, ...]:
    return tuple(
        session.scalar(select(func.count()).select_from(model).execution_options(**with_inactive())) or 0
        for model in (Memory, Proposal, AuditEvent, User, SourceText)
    )


@contextmanager
def rolled_back(engine: Engine) -> Iterator[Session]:
    session = Session(bind=engine.execution_options(**{IMMEDIATE: True}), autoflush=True)
    try:
        yield session
    finally:
        session.rollback()
        session.close()


def attempt(world: World, name: str, path: Path_, hostile: Hostile) -> str | None:
    """None if the input was handled as it should be; else what went wrong."""
    value = hostile.text
    with rolled_back(world.engine) as session:
        before = _counts(session)
        try:
            stored = path.apply(session, world, value, hostile)
        except InvalidInput as exc:
            if not str(exc).strip():
                return "refused without a message"
            after = _counts(session)
            return None if after == before else f"refused ({exc}) yet changed counts {before} -> {after}"
        except Exception as exc:
            return f"{type(exc).__name__}: {str(exc)[:200]}"
        if name == "import text file (bytes)":
            problems = [c for c in stored if text_problem(c, multiline=True) is not None]
            return f"stored unclean content {problems!r}" if problems else None
        if stored is NOTHING:
            return None
        try:
            expected = path.expected(value)
        except Exception as exc:  # pragma: no cover - the expectation itself cannot hold the value
            return f"stored {stored!r:.80}, but no normal form: {exc}"
        if stored != expected:
            return f"stored {stored!r:.120} != expected {expected!r:.120}"
        if isinstance(stored, str) and text_problem(stored, multiline=True) is not None:
            return f"stored unclean text {stored!r:.80}"
    return None


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def world(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    def build(engine: Engine) -> World:
        owner = make_user(engine, "alex")
        admin = make_user(engine, "root", Role.ADMIN)
        active = make_memory(engine, owner, content="Prefers morning runs")
        deleted = make_memory(engine, owner, content="Works night shifts", type=MemoryType.CONTEXT)
        with unit_of_work(engine) as session:
            memories.delete_memory(session, owner, memory_id=deleted.id)
            proposal = _proposal(session, owner, "Likes hill repeats", MemoryType.PREFERENCE, [])
        return World(engine, owner, admin, active.id, active.version, deleted.id, proposal.id)

    if request.param == "sqlite":
        template = SqliteTemplate(tmp_path_factory.mktemp("hostile-template"))
        engine = make_engine(template.copy_to(Path(tmp_path_factory.mktemp("hostile")) / "hostile.sqlite3"))
        try:
            yield build(engine)
        finally:
            engine.dispose()
    else:
        with postgres_engine() as engine:
            yield build(engine)


@pytest.mark.parametrize("name", list(PATHS))
def test_every_hostile_input_is_refused_cleanly_or_stored_exactly(
    world: World, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bytes inputs reach the text paths as lone surrogates (what a JSON '\\udcff' escape delivers)."""
    monkeypatch.setattr(users, "hash_password", lambda password: "not-a-hash")  # every account is rolled back
    path = PATHS[name]
    failures = {}
    for hostile in hostile_inputs():
        problem = attempt(world, name, path, hostile)
        if problem is not None:
            failures[str(hostile)] = problem
    assert not failures, "\n".join(f"{k}: {v}" for k, v in failures.items())


def test_the_file_holds_every_kind_of_hostile_input() -> None:
    values = [h.value for h in hostile_inputs()]
    texts = [v for v in values if isinstance(v, str)]
    assert len(values) >= 70
    assert any(isinstance(v, bytes) for v in values)
    for needle in ("<script>", "onerror", "onload", "javascript:", "' OR 1=1", "DROP TABLE", "NEAR(", "content:"):
        assert any(needle in t for t in texts), needle
    for char in ("\x00", "\x07", "\x1b", "\u202e", "\u200b", "\u200d", "\ud800"):
        assert any(char in t for t in texts), repr(char)
    assert any(len(t) >= 10_240 for t in texts)


def test_a_tag_holding_a_broken_character_is_refused_with_a_message() -> None:
    """Found by the hostile inputs: the refusal quoted the tag, and pydantic could not encode the lone
    surrogate in its message (UnicodeEncodeError instead of InvalidInput)."""
    with pytest.raises(InvalidInput, match="Tags: ") as refused:
        parse(MemoryCreate, content="Tagged", type="context", tags=["body:\ud800"])
    assert refused.value.field == "tags"


def test_a_user_search_with_a_broken_character_answers(world: World) -> None:
    """Found by the hostile inputs: the admin's user search passed a lone surrogate to the database
    driver, which cannot encode it (UnicodeEncodeError on SQLite and PostgreSQL)."""
    with rolled_back(world.engine) as session:
        assert [u.username for u in users.list_users(session, world.admin, text="\ud800ro\x00").users] == ["root"]
