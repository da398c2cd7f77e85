"""Backup and restore of a SQLite database, whole and consistent while the app writes.

`backup` copies through SQLite's online backup API: a consistent snapshot even while others write
(copying the file does not give one: a running app's recent commits sit in the -wal file), then
checks the copy (integrity, the audit chain under the key, up to at least the anchor read before
the copy began) and writes the audit key beside it (0600), since the copy's chain needs it.

`restore` takes a backup only if it is a Memory Review database whose chain verifies and whose
memories match their log (`audit verify --deep`); the database it replaces is first kept beside
it (`….before-restore-<time>.sqlite3`), then the backup is copied in, migrated, and the anchor
and key are set to the restored chain's. Run it with the app stopped.

PostgreSQL: use pg_dump / pg_restore (README, "Backup"); this module refuses other databases.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
from contextlib import closing
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import Engine, func, select

from domain.actors import SYSTEM
from domain.audit import Anchor, ChainReport, attach_seal, verify_chain
from domain.audit_deep import DeepReport, compare_memories
from domain.models import Memory
from domain.visibility import with_inactive
from persistence.audit_files import KEY_SUFFIX, FileSeal
from persistence.audit_seal import anchor_path, audit_key, seal_engine
from persistence.engine import make_engine
from persistence.migrate import upgrade
from persistence.settings import Settings
from persistence.uow import unit_of_work


class BackupRefused(Exception):
    """The file is not a backup this database can take; the message says why."""


@dataclass(frozen=True)
class Checked:
    memories: int
    events: int


class _KeyOnly:
    """The key without an anchor: for checking a copy, whose own anchor is the caller's business."""

    def __init__(self, key: bytes, anchor: Anchor | None = None) -> None:
        self._key, self._anchor = key, anchor

    @property
    def key(self) -> bytes:
        return self._key

    def anchor(self) -> Anchor | None:
        return self._anchor

    def advance(self, seq: int, hash_: str, keyed_after: int) -> None:
        return None


def sqlite_path(settings: Settings) -> Path:
    url = settings.effective_database_url
    if not url.startswith("sqlite:///") or url == "sqlite:///:memory:":
        raise BackupRefused(
            "This database is not a SQLite file: back up PostgreSQL with pg_dump (README, section 'Backup')."
        )
    return Path(url.removeprefix("sqlite:///"))


def backup(settings: Settings, target: Path) -> Checked:
    """Copy the database to `target` (written whole or not at all) and check the copy."""
    source = sqlite_path(settings)
    if not source.exists():
        raise BackupRefused(f"There is no database at {source}.")
    if target.resolve() == source.resolve():
        raise BackupRefused("The backup must go to another file than the database itself.")
    key = audit_key(settings)
    anchor = FileSeal(key, anchor_path(settings)).anchor()  # before the copy: the copy holds at least this
    draft = target.with_name(f".{target.name}.partial")
    draft.unlink(missing_ok=True)
    try:
        with closing(sqlite3.connect(source)) as src, closing(sqlite3.connect(draft)) as dst:
            src.backup(dst)
        checked = _check(draft, key, anchor)
        os.replace(draft, target)
    finally:
        draft.unlink(missing_ok=True)
    _write_private(Path(f"{target}{KEY_SUFFIX}"), key)
    return checked


def restore(settings: Settings, backup_file: Path) -> tuple[Checked, Path | None]:
    """Replace the database with a checked backup; returns what it holds and where the old one was kept."""
    target = sqlite_path(settings)
    if not backup_file.is_file():
        raise BackupRefused(f"There is no file at {backup_file}.")
    key_file = Path(f"{backup_file}{KEY_SUFFIX}")
    key = key_file.read_text().strip().encode() if key_file.exists() else audit_key(settings)
    target.parent.mkdir(parents=True, exist_ok=True)
    work = target.with_name(f".{target.name}.restoring")
    _remove_database(work)
    try:
        shutil.copyfile(backup_file, work)
        checked = _check(work, key, None)
        kept = None
        if target.exists():
            kept = target.with_name(f"{target.stem}.before-restore-{datetime.now(UTC):%Y%m%dT%H%M%S}{target.suffix}")
            _copy_database(target, kept)
        _copy_database(work, target)
    finally:
        _remove_database(work)
    if key_file.exists():
        _write_private(settings.audit_key_path(), key)
    anchor_path(settings).unlink(missing_ok=True)  # it anchored the replaced chain; start it at the restored head
    engine = make_engine(f"sqlite:///{target}")
    try:
        seal_engine(engine, settings)
    finally:
        engine.dispose()
    return checked, kept


def _check(path: Path, key: bytes, anchor: Anchor | None) -> Checked:
    """A Memory Review database (migrated to this version), whole, whose chain verifies under
    `key` (and holds `anchor`), and whose memories match their log."""
    with closing(sqlite3.connect(path)) as connection:
        try:
            integrity = connection.execute("PRAGMA integrity_check").fetchone()[0]
            tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        except sqlite3.DatabaseError as exc:
            raise BackupRefused(f"The file is not a SQLite database ({exc}).") from None
    if integrity != "ok":
        raise BackupRefused(f"The copy is damaged: {integrity}")
    if not {"alembic_version", "audit_head", "audit_events", "memories"} <= tables:
        raise BackupRefused("The file is a SQLite database, but not a Memory Review one.")
    engine = make_engine(f"sqlite:///{path}")
    try:
        upgrade(engine)
        attach_seal(engine, _KeyOnly(key, anchor))
        return _verified(engine)
    finally:
        engine.dispose()


def _verified(engine: Engine) -> Checked:
    with unit_of_work(engine, read_only=True) as session:
        chain: ChainReport = verify_chain(session)
        if not chain.ok:
            raise BackupRefused(f"Its audit log does not verify: {chain.summary()}")
        deep: DeepReport = compare_memories(session, SYSTEM)
        if not deep.ok:
            raise BackupRefused(deep.summary())
        memories = session.scalar(select(func.count()).select_from(Memory), execution_options=with_inactive()) or 0
    return Checked(memories=memories, events=chain.verified.seq)


def _copy_database(source: Path, target: Path) -> None:
    """Through the backup API: right even if `target` is open elsewhere (its -wal is rewritten too)."""
    with closing(sqlite3.connect(source)) as src, closing(sqlite3.connect(target)) as dst:
        src.backup(dst)


def _remove_database(path: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def _write_private(path: Path, key: bytes) -> None:
    draft = path.with_name(f".{path.name}.partial")
    draft.unlink(missing_ok=True)
    with os.fdopen(os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as file:
        file.write(key.decode())
    os.replace(draft, path)
