"""The audit chain's seal, kept outside the database: the HMAC key and the anchor of the head.

The key is MEMORY_REVIEW_AUDIT_KEY, else a file created on first use beside the SQLite file
(`memory-review.audit-key`, 0600) or in the data folder for a server database (`audit.key`):
the same way as the session secret, and with the same rule: instances writing one database
share it (the same data folder, or the variable). Keep it out of the database's backups' reach
as you would the session secret; `memory-review backup` writes a copy beside the backup, 0600.

The anchor (`memory-review.audit-anchor`, or `audit-anchor-<database digest>.json` in the data
folder) holds the newest committed event's seq and hash and where the keyed part of the chain
starts. It is written (in place, whole, under a file lock that orders the processes sharing it and
the readers: persistence/audit_files.py) after each commit that wrote events and only moves forward,
so it may lag the database by the commits of a process killed mid-way, but is never ahead of it:
verify then needs that event in the chain.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import secrets
from pathlib import Path

from sqlalchemy import Engine, select, update

from domain.audit import attach_seal, chain_waiting, chain_waiting_now
from domain.models import AuditHead
from persistence.audit_files import ANCHOR_SUFFIX, FileSeal
from persistence.engine import IMMEDIATE
from persistence.settings import Settings

KEY_BYTES = 32


def audit_key(settings: Settings) -> bytes:
    """MEMORY_REVIEW_AUDIT_KEY, else the key file, created whole or not at all on first use."""
    if settings.audit_key is not None:
        return settings.audit_key.encode()
    path = settings.audit_key_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        draft = path.with_name(f"{path.name}.{secrets.token_hex(6)}.tmp")
        with os.fdopen(os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as file:
            file.write(secrets.token_urlsafe(KEY_BYTES))
        with contextlib.suppress(FileExistsError):  # another instance was first: use its key
            os.link(draft, path)
        draft.unlink()
    return path.read_text().strip().encode()


def anchor_path(settings: Settings) -> Path:
    url = settings.effective_database_url
    if url.startswith("sqlite:///") and url != "sqlite:///:memory:":
        return Path(url.removeprefix("sqlite:///")).with_suffix(ANCHOR_SUFFIX)
    label = hashlib.sha256(url.encode()).hexdigest()[:16]
    return settings.data_dir / f"audit-anchor-{label}.json"


def seal_engine(engine: Engine, settings: Settings) -> FileSeal:
    """Key the engine's chain from now on: the first time, mark where the keyed part starts (every
    event so far stays plain SHA-256, the legacy part); start the anchor if there is none."""
    seal = FileSeal(audit_key(settings), anchor_path(settings))
    head = _head(engine)
    if head.keyed_after is None:
        with engine.execution_options(**{IMMEDIATE: True}).begin() as connection:
            locked = connection.execute(_HEAD.with_for_update()).one()
            if locked.keyed_after is None:
                # events waiting from before the key join the legacy part: they carry no MAC
                seq = chain_waiting(connection, None) or locked.seq
                connection.execute(update(AuditHead).where(AuditHead.id == 1).values(keyed_after=seq))
        head = _head(engine)
    if seal.anchor() is None:
        seal.advance(head.seq, head.hash, head.keyed_after)
    attach_seal(engine, seal)
    chain_waiting_now(engine)  # events a process killed between its commit and chaining them left waiting
    return seal


_HEAD = select(AuditHead.seq, AuditHead.hash, AuditHead.keyed_after).where(AuditHead.id == 1)


def _head(engine: Engine):  # type: ignore[no-untyped-def]
    with engine.connect() as connection:
        return connection.execute(_HEAD).one()
