"""Pages take turns to build their elements on the event loop: at most TURN_BUDGET_S of building per
turn of the loop.

A page reads its data in a worker thread, then builds its elements on the loop (a few ms). When
fifty pages open at once, the worker threads finish their reads while the loop is busy, and the
loop then runs every page whose read has finished in the same turn, back to back: 37 builds, 150 ms
of CPU in one turn, with every other browser's events waiting behind them.

Here a page builds while holding a lock. Builds in the same turn add up their time; once they pass
the budget, the page that passed it keeps the lock until the loop's next turn, so the pages still
waiting are woken a turn later, after the loop has looked for socket messages and other pages'
events again. Under the budget the lock is released at once: holding it for a turn after every
page (one page per turn) made each page wait for two turns of a loop that shares the interpreter
with the worker threads, and fifty pages opening at once took longer to be ready.

The lock is the running loop's own (a test starts a new loop for each test).
"""

from __future__ import annotations

import asyncio
import time
import weakref
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import TypeVar

from nicegui import ui

T = TypeVar("T")

TURN_BUDGET_S = 0.012  # about three Context pages
ROWS_PER_TURN = 5  # of a list whose rows are cards of a dozen elements (1.5-2 ms each)
# NiceGUI answers a page not built within its response timeout (3 s by default) with an error page;
# fifty pages opening at once on a busy machine can take longer than that: slow, not an error page.
PAGE_RESPONSE_TIMEOUT_S = 30.0


@dataclass
class _Turns:
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    spent_s: float = 0.0  # building time in the loop's current turn
    counting: bool = False  # a callback that starts the next turn's count is scheduled

    def start_counting(self, loop: asyncio.AbstractEventLoop) -> None:
        if not self.counting:
            self.counting = True
            loop.call_soon(self._next_turn)  # runs in the loop's next turn

    def _next_turn(self) -> None:
        self.spent_s = 0.0
        self.counting = False


_turns: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Turns] = weakref.WeakKeyDictionary()


@asynccontextmanager
async def building_turn() -> AsyncIterator[None]:
    """Build a page's elements in this block: at most TURN_BUDGET_S of it per turn. No `await` inside but
    an awaited refresh of a refreshable whose function is not async, which builds at once (a refresh that
    is not awaited runs later, in a task of NiceGUI's, outside the turn)."""
    loop = asyncio.get_running_loop()
    turns = _turns.get(loop)
    if turns is None:
        turns = _turns[loop] = _Turns()
    async with turns.lock:
        started = time.perf_counter()
        yield
        turns.spent_s += time.perf_counter() - started
        turns.start_counting(loop)
        if turns.spent_s >= TURN_BUDGET_S:
            await asyncio.sleep(0)  # keep the lock until the loop's next turn


def waiting() -> int:
    """How many pages wait for their turn on the running loop."""
    turns = _turns.get(asyncio.get_running_loop())
    waiters = turns.lock._waiters if turns is not None else None  # asyncio.Lock keeps no public count
    return sum(not w.done() for w in waiters) if waiters else 0


async def build_in_turns(
    items: Sequence[T],
    build: Callable[[T], object],
    *,
    into: ui.element,
    wanted: Callable[[], bool] = lambda: True,
    per_turn: int = ROWS_PER_TURN,
) -> bool:
    """`build` each item into `into`, `per_turn` items per building turn, so a long list does not hold
    the loop in one piece; stops (False) once `into` is gone or `wanted()` says a newer list replaces it."""
    for start in range(0, len(items), per_turn):
        async with building_turn():
            if into.is_deleted or not wanted():
                return False
            with into:
                for item in items[start : start + per_turn]:
                    build(item)
    return True
