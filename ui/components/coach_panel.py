"""'What my coach sees': the exact `MEMORY:` block the coaching system would get (for a question the
athlete types, or none), its size against the token budget, and the coach's recent reads, each
memory it got a button that opens that memory.

Everything is read in a worker thread, and only while the panel is open: a closed panel costs
nothing (its body is built when it is first opened), and opening it always shows the current state.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from nicegui import ui
from sqlalchemy.orm import Session

from domain.coach_context import ContextAnswer, coach_preview
from domain.coach_reads import ReadEntry, coach_reads_for
from domain.errors import DomainError
from domain.memories import get_memories
from domain.models import User
from ui.components.disclosure import Disclosure
from ui.components.fixed_props import fixed_props
from ui.components.text import Inline, clip
from ui.components.timeago import time_ago
from ui.session import in_thread

READS_SHOWN = 10
QUERY_DEBOUNCE_MS = 400
EXACT_TIME = "%d %b %Y, %H:%M UTC"
NO_READS = "Your coach has not read your memory yet."


@dataclass(frozen=True)
class ServedMemory:
    """A memory a read served, as it is now: None when it is no longer on the athlete's page."""

    content: str
    hidden: bool


@dataclass(frozen=True)
class ReadLog:
    reads: list[ReadEntry]
    memories: dict[int, ServedMemory | None]
    more: bool  # older reads exist (as far as one extra row tells)


def read_log(session: Session, user: User, *, before_id: int | None = None) -> ReadLog:
    """The coach's recent reads and, for each memory they served, what it says now."""
    reads = coach_reads_for(session, user, limit=READS_SHOWN + 1, before_id=before_id)
    more = len(reads) > READS_SHOWN
    reads = reads[:READS_SHOWN]
    ids = list(dict.fromkeys(m for entry in reads for m in entry.memory_ids))
    found = get_memories(session, user, memory_ids=ids)  # one query; deleted or replaced since: None
    served = {i: ServedMemory(m.content, bool(m.hidden_from_coach)) if (m := found.get(i)) else None for i in ids}
    return ReadLog(reads, served, more)


def asked_text(entry: ReadEntry) -> str:
    """What the coach asked, in the athlete's words."""
    query = " ".join((entry.query or "").split())
    if entry.kind == "memories":
        return f"Looked through your memories for “{clip(query, 120)}”" if query else "Looked through your memories"
    return f"Asked about “{clip(query, 120)}”" if query else "Asked for your memory without a question"


def budget_text(answer: ContextAnswer) -> str:
    block = answer.block
    return (
        f"{block.tokens} of {answer.max_tokens} tokens used · "
        f"{len(block.items)} of the {answer.considered} memories your coach may see fit in"
    )


class CoachPanel:
    """The panel; `open_memory(id)` shows one memory (the page opens its history)."""

    def __init__(self, open_memory: Callable[[int], None]) -> None:
        self.open_memory = open_memory
        self.query = ""
        self.answer: ContextAnswer | None = None
        self.log: ReadLog | None = None
        self._asked = 0  # the newest preview asked for; an older answer arriving late is dropped
        self._built = False
        with fixed_props(ui.element("section"), 'aria-label="What my coach sees"').classes("w-full"):
            self.expansion = Disclosure("What my coach sees", icon="visibility", on_toggle=self._toggled,
                                        props="dense-toggle")  # fmt: skip
            self.expansion.classes("mr-card mr-coach w-full").mark("coach-panel")

    def _body(self) -> None:
        ui.label(
            "This is exactly what your coach gets when it asks about you. Memories you hide from your coach "
            "are left out; the rest are picked by how well they fit the question, most useful first."
        ).classes("mr-muted text-sm")
        ui.input(
            "Try a question your coach might ask",
            placeholder="e.g. knee pain on long runs",
            on_change=lambda e: self._query_changed(e.value),
        ).props(f"clearable debounce={QUERY_DEBOUNCE_MS}").classes("w-full").mark("coach-query")
        self.preview()
        ui.label("Recent reads by your coach").classes("mr-group-title mt-2").props('role="heading" aria-level="3"')
        self.reads()

    @property
    def is_open(self) -> bool:
        return bool(self.expansion.value)

    async def _toggled(self) -> None:
        if not self.is_open:
            return
        if not self._built:
            self._built = True
            with self.expansion.body():
                self._body()
        await self.reload()

    async def reload(self) -> None:
        """Read the preview and the read log again (only while the panel is open)."""
        await self._ask(with_log=True)

    async def _query_changed(self, value: str | None) -> None:
        self.query = value or ""
        await self._ask(with_log=False)

    async def _ask(self, *, with_log: bool) -> None:
        """The preview for the query as it stands (an answer overtaken by a newer question is
        dropped) and, with `with_log`, the coach's recent reads; nothing while the panel is closed."""
        if not self.is_open:
            return
        asked = self._next()
        query = self.query
        try:
            answer, log = await in_thread(
                lambda s, u: (coach_preview(s, u, query=query), read_log(s, u) if with_log else None)
            )
        except DomainError as error:
            ui.notify(str(error), type="negative")
            return
        if asked == self._asked:
            self.answer = answer
            self.preview.refresh()
        if log is not None:
            self.log = log
            self.reads.refresh()

    def _next(self) -> int:
        self._asked += 1
        return self._asked

    @ui.refreshable_method
    def preview(self) -> None:
        answer = self.answer
        if answer is None:
            ui.label("Loading…").classes("mr-muted text-sm")
            return
        if not answer.block.text:
            with ui.column().classes("mr-empty w-full items-center gap-1").mark("coach-block-empty"):
                if answer.query.strip():
                    ui.label("For this question your coach would get none of your memories.")
                elif answer.considered:
                    ui.label("Your coach would get none of your memories without a question.")
                else:
                    ui.label("Your coach gets no memories: there are none it may see.")
        else:
            Inline(answer.block.text, tag="pre").classes("mr-coach-block").props(
                'aria-label="The memory block your coach gets"'
            ).mark("coach-block")
        ui.label(budget_text(answer)).classes("mr-muted text-sm").mark("coach-budget")

    @ui.refreshable_method
    def reads(self) -> None:
        log = self.log
        if log is None:
            ui.label("Loading…").classes("mr-muted text-sm")
            return
        if not log.reads:
            with ui.column().classes("mr-empty w-full items-center gap-1").mark("coach-reads-empty"):
                ui.label(NO_READS)
                ui.label("When it does, you will see here when, what it asked and what it got.").classes(
                    "mr-muted text-sm"
                )
            return
        with ui.column().classes("w-full gap-2").mark("coach-reads"):
            for entry in log.reads:
                self._read(entry, log.memories)
        if log.more:
            ui.button("Show older reads", color="brand", on_click=self._older).props("flat").classes(
                "self-center"
            ).mark("coach-reads-older")

    def _read(self, entry: ReadEntry, memories: dict[int, ServedMemory | None]) -> None:
        with ui.card().classes("mr-card w-full gap-1").props("flat").mark(f"coach-read-{entry.id}"):
            with ui.row().classes("items-baseline gap-2"):
                ui.label(time_ago(entry.at)).classes("font-semibold").tooltip(entry.at.strftime(EXACT_TIME))
                ui.label(f"by {entry.token_name}").classes("mr-muted text-sm").mark("coach-read-client")
            ui.label(asked_text(entry)).classes("mr-memory-text").mark("coach-read-asked")
            if not entry.memory_ids:
                ui.label("It got none of your memories.").classes("mr-muted text-sm")
                return
            count = len(entry.memory_ids)
            ui.label(f"It got {count} {'memory' if count == 1 else 'memories'}:").classes("mr-muted text-sm")
            with ui.column().classes("w-full gap-0"):
                for memory_id in entry.memory_ids:
                    self._served(memory_id, memories.get(memory_id))

    def _served(self, memory_id: int, memory: ServedMemory | None) -> None:
        if memory is None:
            ui.label("A memory you have deleted since").classes("mr-muted text-sm")
            return
        text = clip(memory.content, 90) + (" (now hidden from your coach)" if memory.hidden else "")
        ui.button(text, icon="open_in_new", color="brand", on_click=lambda: self.open_memory(memory_id)).props(
            "flat dense no-caps align=left"
        ).classes("mr-read-memory").mark("read-memory")

    async def _older(self) -> None:
        log = self.log
        if log is None or not log.reads:
            return
        before = log.reads[-1].id
        try:
            older = await in_thread(lambda s, u: read_log(s, u, before_id=before))
        except DomainError as error:
            ui.notify(str(error), type="negative")
            return
        self.log = ReadLog(log.reads + older.reads, {**log.memories, **older.memories}, older.more)
        self.reads.refresh()
