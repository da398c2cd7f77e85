"""The seal's files: the anchor beside the database, and the key read from its file when first needed.

persistence/audit_seal.py says what they hold and where they live. Every engine on a SQLite file
gets a seal reading the files beside it (persistence/engine.py), so any process writing that file
(a test, a second command) keys and anchors its events as the app does; `seal_engine` attaches
one with the configured key, creating the key file on first use.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import secrets
import threading
from collections.abc import Iterator
from pathlib import Path

from domain.audit import Anchor, AnchorUnreadable, MissingAuditKey

KEY_SUFFIX = ".audit-key"
ANCHOR_SUFFIX = ".audit-anchor"


def beside(database: Path) -> FileSeal:
    """The seal of a SQLite file: its key and anchor files beside it."""
    return FileSeal(database.with_suffix(KEY_SUFFIX), database.with_suffix(ANCHOR_SUFFIX))


class FileSeal:
    """A key, and the anchor in a file; thread-safe, and safe across processes sharing the file."""

    def __init__(self, key: bytes | Path, anchor_path: Path) -> None:
        self._key = key  # or the file that holds it, read when first needed
        self.path = anchor_path
        self._lock = threading.Lock()
        self._written = -1  # the newest seq this process wrote or saw in the file

    @property
    def key(self) -> bytes:
        if isinstance(self._key, Path):
            try:
                self._key = self._key.read_text().strip().encode()
            except FileNotFoundError:
                raise MissingAuditKey() from None
        return self._key

    def anchor(self) -> Anchor | None:
        try:
            text = self.path.read_text()
        except FileNotFoundError:
            return None
        try:
            data = json.loads(text)
            return Anchor(int(data["seq"]), str(data["hash"]), int(data["keyed_after"]))
        except (ValueError, KeyError, TypeError) as exc:
            raise AnchorUnreadable(f"The audit anchor {self.path} is unreadable: {exc}") from None

    def advance(self, seq: int, hash_: str, keyed_after: int) -> None:
        """Runs after a commit: it never fails the change that was just committed. If the anchor
        cannot be written it lags (verify still holds it to what it says); an unreadable one is replaced."""
        with self._lock:
            if seq <= self._written:
                return
            try:
                with self._file_lock():
                    try:
                        current = self.anchor()
                    except AnchorUnreadable:
                        current = None
                    if current is not None and current.seq >= seq:
                        self._written = current.seq
                        return
                    self._write(Anchor(seq, hash_, keyed_after))
                    self._written = seq
            except OSError:
                return

    @contextlib.contextmanager
    def _file_lock(self) -> Iterator[None]:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path.with_name(self.path.name + ".lock"), os.O_WRONLY | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)  # closing releases the lock

    def _write(self, anchor: Anchor) -> None:
        """A new file renamed over the old one, not synced to disk: the anchor may lag the database
        (a power cut can bring back the one before, as a process killed before it wrote does), so a
        sync buys nothing it promises, and it was a second disk flush on every write (issue 9: one
        fsync beside the database's own per commit). The rename keeps it whole: a reader sees the old
        anchor or the new one; after a crash, ext4 (its replace-by-rename ordering) gives the same."""
        body = json.dumps({"seq": anchor.seq, "hash": anchor.hash, "keyed_after": anchor.keyed_after})
        draft = self.path.with_name(f"{self.path.name}.{secrets.token_hex(6)}.tmp")
        with os.fdopen(os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as file:
            file.write(body)
        os.replace(draft, self.path)
