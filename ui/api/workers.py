"""A few worker threads of the API's own, fed by one queue: the context route's database work runs in
them, off the event loop, for a few microseconds of hand-off.

anyio's `to_thread.run_sync` (FastAPI's thread pool, or ours behind a CapacityLimiter) cost 56-81 µs
of CPU per call on this machine, against 9-11 µs here (20 concurrent callers, 4 threads, uvloop;
issue 9): a cancel scope, a limiter, a checkpoint and a worker queue per call. Here a call is a
future, a put on a SimpleQueue, and one `call_soon_threadsafe` back.

A call runs to its end even when its request is cancelled (the client left), as a thread cannot
be stopped; its answer is then dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import queue
import threading
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")
_Job = tuple[asyncio.AbstractEventLoop, "asyncio.Future[Any]", contextvars.Context, Callable[[], Any]]


class Workers:
    def __init__(self, size: int, name: str) -> None:
        self.size = size
        self.name = name
        self._jobs: queue.SimpleQueue[_Job] = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._start_lock = threading.Lock()

    async def run(self, work: Callable[[], T]) -> T:
        """`work()` in one of the threads (with the caller's context variables); its result or error."""
        if len(self._threads) < self.size:
            self._start()
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._jobs.put((loop, future, contextvars.copy_context(), work))
        return await future

    def _start(self) -> None:
        with self._start_lock:
            while len(self._threads) < self.size:
                thread = threading.Thread(target=self._serve, name=f"{self.name}-{len(self._threads)}", daemon=True)
                thread.start()
                self._threads.append(thread)

    def _serve(self) -> None:
        while True:
            loop, future, context, work = self._jobs.get()
            try:
                result = context.run(work)
            except BaseException as error:  # handed to the awaiting request, which raises it
                _answer(loop, _fail, future, error)
            else:
                _answer(loop, _succeed, future, result)


def _answer(loop: asyncio.AbstractEventLoop, deliver: Callable[..., None], *args: Any) -> None:
    with contextlib.suppress(RuntimeError):  # the loop was closed (the server stopped): nobody waits for it
        loop.call_soon_threadsafe(deliver, *args)


def _succeed(future: asyncio.Future[Any], result: Any) -> None:
    if not future.done():
        future.set_result(result)


def _fail(future: asyncio.Future[Any], error: BaseException) -> None:
    if not future.done():
        future.set_exception(error)
