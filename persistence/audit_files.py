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
        """The anchor as last written, read under the file lock shared (a write in place never shows
        half-done); None if there is none."""
        try:
            fd = os.open(self._anchor_name, os.O_RDONLY | os.O_CLOEXEC)
        except FileNotFoundError:
            return None
        try:
            with self._lock:  # one flock per open lock file: no thread of this process holds it meanwhile
                try:
                    with self._file_lock(fcntl.LOCK_SH):
                        text = os.pread(fd, _ANCHOR_MAX, 0)
                except OSError:  # no lock file to be had (a read-only folder): nothing writes there either
                    text = os.pread(fd, _ANCHOR_MAX, 0)
        finally:
            os.close(fd)
        return self._parse(text)

    def _parse(self, text: bytes) -> Anchor:
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
                with self._file_lock(fcntl.LOCK_EX):
                    self._written = self._move(Anchor(seq, hash_, keyed_after))
            except OSError:
                return

    def _move(self, anchor: Anchor) -> int:
        """Under the file lock: write `anchor` over the file's unless that one is as new; the seq the
        file holds after. The file is written in place (`_write`); a missing one is made whole first."""
        try:
            fd = os.open(self._anchor_name, os.O_RDWR | os.O_CLOEXEC)
        except FileNotFoundError:
            self._replace(anchor)
            return anchor.seq
        try:
            text = os.pread(fd, _ANCHOR_MAX, 0)
            try:
                current: Anchor | None = self._parse(text)
            except AnchorUnreadable:
                current = None
            if current is not None and current.seq >= anchor.seq:
                return current.seq
            _write(fd, anchor, len(text))
        finally:
            os.close(fd)
        return anchor.seq

    @contextlib.contextmanager
    def _file_lock(self, kind: int) -> Iterator[None]:
        """The lock file, opened once per process (a forked child opens its own: a lock taken through
        the parent's open file would be the parent's too), locked for the block (`kind`: shared or
        exclusive). The caller holds `_lock`: a second flock on the same open file would change this one."""
        pid = os.getpid()
        if self._lock_fd is None or self._lock_fd[0] != pid:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self._lock_name, os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC, 0o600)
            weakref.finalize(self, _close_in, pid, fd)
            self._lock_fd = (pid, fd)
        fd = self._lock_fd[1]
        fcntl.flock(fd, kind)
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)

    def _replace(self, anchor: Anchor) -> None:
        """A new anchor file, whole: written under a name of its own and renamed into place (a reader
        never meets an empty one). Only when there is none yet: each move after writes in place."""
        draft = f"{self._anchor_name}.{os.getpid()}.{next(self._drafts)}.tmp"
        fd = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
        try:
            _write(fd, anchor, 0)
        finally:
            os.close(fd)
        os.replace(draft, self._anchor_name)


def _write(fd: int, anchor: Anchor, had: int) -> None:
    """The anchor as JSON padded with spaces to _ANCHOR_SIZE bytes, written at the start of the file in
    one write (cut back if the file held more): issue 9, a rename per commit cost 90-150 us of CPU and
    a journal commit of its own on ext4 (the new file's data flushed before the rename), against 8 us.
    Not synced to disk: the anchor may lag the database (a power cut can bring back the one before, as
    a process killed before it wrote does), so a sync buys nothing it promises. The write is one
    sector's worth at the file's start: a crash leaves the old anchor or the new one, and a reader
    (`FileSeal.anchor`, under the lock shared) never sees it half-written."""
    body = json.dumps({"seq": anchor.seq, "hash": anchor.hash, "keyed_after": anchor.keyed_after}).encode()
    os.pwrite(fd, body.ljust(_ANCHOR_SIZE), 0)
    if had > _ANCHOR_SIZE:
        os.ftruncate(fd, _ANCHOR_SIZE)


def _close_in(pid: int, fd: int) -> None:
    if os.getpid() == pid:  # a forked child's copy of the finalizer leaves the parent's descriptor alone
        os.close(fd)


_ANCHOR_MAX = 4096  # an anchor is about 120 bytes; a larger file is not one (its JSON fails to parse)
_ANCHOR_SIZE = 256  # written padded to this, so each write covers the one before
