"""Coach reads are written behind the answer, in batches, by one writer thread.

A context answer takes about a millisecond to compute; a write transaction waits for the disk
(and on SQLite for the one write lock). Written one per request, the record would set the pace
of every read. The writer takes a read, then whatever else arrives within WINDOW (or until
MAX_BATCH), and writes them in one transaction (group commit).

Why a window and not just what has queued: a batch taken the moment one read arrives is a few
reads, and each costs the writer a wake-up, a transaction and turns at the interpreter lock with
the requests. bench_api, 20 clients: the writer's CPU per read 0.24-0.27 ms without a window,
0.13-0.14 ms with 50 ms. (Its commits no longer touch the context index's freshness check: that
is the athlete's change stamp, which only memory changes raise; domain.coach_index.)

The price: a read is in the database up to WINDOW (plus the write) after its answer, and a crash
in that moment loses it. On shutdown the queue is written out first; `flush` writes at once.
"""

from __future__ import annotations

import logging
import queue
import threading
import time

from sqlalchemy.exc import SQLAlchemyError

from domain.coach_reads import PendingRead, record_reads
from persistence.uow import unit_of_work
from ui import runtime

log = logging.getLogger(__name__)
MAX_BATCH = 500
WINDOW = 0.05  # seconds a batch stays open for more reads after its first


class ReadLog:
    def __init__(self) -> None:
        self._queue: queue.SimpleQueue[PendingRead | threading.Event] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()

    def add(self, read: PendingRead) -> None:
        self._ensure_writer()
        self._queue.put(read)

    def flush(self, timeout: float = 10.0) -> bool:
        """Wait until every read queued before this call is written; say whether that happened in time."""
        done = threading.Event()
        self._ensure_writer()
        self._queue.put(done)
        return done.wait(timeout)

    def _ensure_writer(self) -> None:
        thread = self._thread
        if thread is not None and thread.is_alive():  # the usual case, without taking the lock
            return
        with self._start_lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="coach-read-log", daemon=True)
                self._thread.start()

    def _run(self) -> None:
        while True:
            batch = [self._queue.get()]
            deadline = time.monotonic() + WINDOW
            while len(batch) < MAX_BATCH and not isinstance(batch[-1], threading.Event):
                try:
                    batch.append(self._queue.get(timeout=max(0.0, deadline - time.monotonic())))
                except queue.Empty:
                    break
            reads = [item for item in batch if isinstance(item, PendingRead)]
            if reads:
                self._write(reads)
            for item in batch:
                if isinstance(item, threading.Event):
                    item.set()

    def _write(self, reads: list[PendingRead]) -> None:
        try:
            self._write_once(reads)
        except SQLAlchemyError:
            log.warning("writing %d coach reads together failed; writing them one by one", len(reads), exc_info=True)
            for read in reads:
                try:
                    self._write_once([read])
                except SQLAlchemyError:
                    log.exception("a coach read of athlete %s by token %s was lost", read.athlete_id, read.caller.name)

    @staticmethod
    def _write_once(reads: list[PendingRead]) -> None:
        with unit_of_work(runtime.current().engine) as session:
            record_reads(session, reads)


READ_LOG = ReadLog()
