"""The seal's files: the anchor beside the database, and the key read from its file when first needed.

persistence/audit_seal.py says what they hold and where they live. Every engine on a SQLite file
gets a seal reading the files beside it (persistence/engine.py), so any process writing that file
(a test, a second command) keys and anchors its events as the app does; `seal_engine` attaches
one with the configured key, creating the key file on first use.
"""

from __future__ import annotations

import contextlib
import fcntl
import itertools
import json
import os
import threading
import weakref
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
        # Every write's names, made once (each commit that writes events moves the anchor: issue 9).
        self._anchor_name = str(anchor_path)
        self._lock_name = f"{anchor_path}.lock"
        self._drafts = itertools.count()
        self._lock_fd: tuple[int, int] | None = None  # (pid, fd): the lock file, open in this process

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
            text = _read(self._anchor_name)
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
        """The lock file, opened once per process (a forked child opens its own: a lock taken through
        the parent's open file would be the parent's too), locked for the block."""
        pid = os.getpid()
        if self._lock_fd is None or self._lock_fd[0] != pid:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self._lock_name, os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC, 0o600)
            weakref.finalize(self, _close_in, pid, fd)
            self._lock_fd = (pid, fd)
        fd = self._lock_fd[1]
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)

    def _write(self, anchor: Anchor) -> None:
        """A new file renamed over the old one, not synced to disk: the anchor may lag the database
        (a power cut can bring back the one before, as a process killed before it wrote does), so a
        sync buys nothing it promises, and it was a second disk flush on every write (issue 9: one
        fsync beside the database's own per commit). The rename keeps it whole: a reader sees the old
        anchor or the new one; after a crash, ext4 (its replace-by-rename ordering) gives the same.
        The draft's name is this process's and its own (the file lock is held: no one else writes it)."""
        body = json.dumps({"seq": anchor.seq, "hash": anchor.hash, "keyed_after": anchor.keyed_after})
        draft = f"{self._anchor_name}.{os.getpid()}.{next(self._drafts)}.tmp"
        fd = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
        try:
            os.write(fd, body.encode())
        finally:
            os.close(fd)
        os.replace(draft, self._anchor_name)


def _close_in(pid: int, fd: int) -> None:
    if os.getpid() == pid:  # a forked child's copy of the finalizer leaves the parent's descriptor alone
        os.close(fd)


def _read(name: str) -> bytes:
    fd = os.open(name, os.O_RDONLY | os.O_CLOEXEC)
    try:
        return os.read(fd, _ANCHOR_MAX)
    finally:
        os.close(fd)


_ANCHOR_MAX = 4096  # an anchor is about 120 bytes; a larger file is not one (its JSON fails to parse)
