"""Work that follows typing: run once the athlete pauses, off the event loop, newest answer only."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

from nicegui import ui

T = TypeVar("T")
PAUSE_SECONDS = 0.3


class Debounced(Generic[T]):
    """Call `changed()` on every keystroke: `compute` runs `pause` seconds after the last one (it should
    do its work in a worker thread, e.g. ui.session.in_thread) and `show` gets its answer, unless a newer
    keystroke came meanwhile; then the answer is stale and dropped. `compute` may return None: nothing
    to show (e.g. the fields do not parse yet)."""

    def __init__(
        self,
        compute: Callable[[], Awaitable[T | None]],
        show: Callable[[T], None],
        *,
        pause: float = PAUSE_SECONDS,
    ) -> None:
        self.compute, self.show, self.pause = compute, show, pause
        self.generation = 0
        self.timer: ui.timer | None = None
        self.anchor = ui.element("div").classes("hidden")  # the timers' parent: lives as long as the form

    def changed(self) -> None:
        self.generation += 1
        wanted = self.generation
        if self.timer is not None:
            self.timer.cancel()
        with self.anchor:
            self.timer = ui.timer(self.pause, lambda: self._run(wanted), once=True)

    async def now(self) -> None:
        """Run at once (e.g. before a save), still dropping the answer if typing goes on."""
        self.generation += 1
        await self._run(self.generation)

    async def _run(self, wanted: int) -> None:
        if wanted != self.generation:
            return
        answer = await self.compute()
        if wanted != self.generation or answer is None or self.anchor.is_deleted:
            return  # typed on meanwhile: a newer answer is coming
        self.show(answer)
