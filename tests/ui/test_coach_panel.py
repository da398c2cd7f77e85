"""The coach's side of the Context page in NiceGUI's User fixture: hide from / show to the coach,
"used by your coach", and the "What my coach sees" panel (the block, a question, the read log)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from nicegui import ui
from nicegui.testing import User
from sqlalchemy import Engine, select

from domain.actors import SystemActor
from domain.api_tokens import Caller, create_token
from domain.coach_context import coach_memories, coach_preview, context_for
from domain.coach_reads import record_read
from domain.enums import AuditAction
from domain.models import AuditEvent
from domain.types import utcnow
from persistence.uow import unit_of_work
from tests.ui.context_support import (
    athlete,
    database,
    dialogs_closed,
    eventually,
    memory_action,
    memory_by_content,
    memory_row,
    open_context,
    set_value,
    texts,
)

NURSE = "Works as a nurse on rotating shifts"
KNEE = "Occasional knee soreness"
MARATHON = "Training for the Valencia marathon in December"


def coach_token(engine: Engine, name: str = "josi-coach") -> Caller:
    with unit_of_work(engine) as session:
        token = create_token(session, SystemActor("test"), name=name, scopes=["read"]).token
        return Caller(token_id=token.id, name=token.name, scopes=frozenset())


def add_read(
    engine: Engine, who: Caller, memory_ids: Sequence[int], *, query: str | None = None, days_ago: float = 0
) -> int:
    owner = athlete(engine, "alex")
    with unit_of_work(engine) as session:
        read = record_read(
            session,
            who,
            athlete_id=owner.id,
            kind="context",
            memory_ids=memory_ids,
            query=query,
            at=utcnow() - timedelta(days=days_ago),
        )
        return read.id


def coach_sees(engine: Engine, content: str) -> bool:
    """Whether the coach would be given `content`: in the preview block, and through the API's calls."""
    owner = athlete(engine, "alex")
    with unit_of_work(engine, read_only=True) as session:
        preview = coach_preview(session, owner).block.text
        answer = context_for(session, owner).block.text
        listed = [m.content for m in coach_memories(session, owner, limit=200).items]
    assert (content in preview) == (content in answer) == (content in listed)
    return content in listed


def hide_events(engine: Engine, memory_id: int) -> list[AuditAction]:
    with unit_of_work(engine, read_only=True) as session:
        return list(
            session.scalars(
                select(AuditEvent.action)
                .where(AuditEvent.target_id == memory_id, AuditEvent.action.in_([AuditAction.HIDE, AuditAction.UNHIDE]))
                .order_by(AuditEvent.seq)
            )
        )


def row(user: User, memory_id: int) -> dict[str, Any]:
    found = memory_row(user, memory_id)
    assert found is not None, f"memory {memory_id} is not listed"
    return found


def memory_text(user: User, memory_id: int) -> str:
    return str(row(user, memory_id)["text"])


def usage_line(user: User, memory_id: int) -> str:
    return str(row(user, memory_id)["usage"])


async def open_panel(user: User) -> None:
    set_value(user, "coach-panel", True)
    await user.should_see(marker="coach-budget")


def block_text(user: User) -> str:
    return texts(user, "coach-block")[0]


async def test_hiding_keeps_the_memory_on_the_page_and_takes_it_from_the_coach_until_shown_again(
    user: User, app_database: str
) -> None:
    with database(app_database) as engine:
        memory = memory_by_content(engine, "alex", NURSE)
        assert coach_sees(engine, NURSE)
        await open_context(user)
        await open_panel(user)
        await eventually(lambda: NURSE in block_text(user))

        memory_action(user, memory.id, "Hide from coach")
        await user.should_see(f"Hidden from your coach: '{NURSE}'")
        await eventually(lambda: row(user, memory.id)["hidden"])  # drawn with "Hidden from your coach"
        with user.scope(marker="memories"):
            await user.should_see("Hidden from your coach")
        assert memory_text(user, memory.id) == NURSE  # still on the page
        await eventually(lambda: NURSE not in block_text(user))  # the open panel follows
        assert not coach_sees(engine, NURSE)
        assert hide_events(engine, memory.id) == [AuditAction.HIDE]

        memory_action(user, memory.id, "Show to coach")
        await user.should_see(f"Your coach can see '{NURSE}' again")
        await eventually(lambda: not row(user, memory.id)["hidden"])  # its menu offers to hide it again
        with user.scope(marker="memories"):
            await user.should_not_see("Hidden from your coach")
        assert memory_text(user, memory.id) == NURSE
        await eventually(lambda: NURSE in block_text(user))
        assert coach_sees(engine, NURSE)
        assert hide_events(engine, memory.id) == [AuditAction.HIDE, AuditAction.UNHIDE]


async def test_a_card_says_how_often_the_coach_used_the_memory(user: User, app_database: str) -> None:
    with database(app_database) as engine:
        knee = memory_by_content(engine, "alex", KNEE)
        nurse = memory_by_content(engine, "alex", NURSE)
        who = coach_token(engine)
        add_read(engine, who, [knee.id, nurse.id], query="knee", days_ago=3)
        add_read(engine, who, [knee.id], query="long run knee", days_ago=2)
        await open_context(user)
    await user.should_see("Used by your coach 2 times, last 2 days ago")
    assert usage_line(user, knee.id) == "Used by your coach 2 times, last 2 days ago"
    assert usage_line(user, nurse.id) == "Used by your coach 1 time, last 3 days ago"
    with user.scope(marker="memories"):
        await user.should_see("Not used by your coach yet")  # the others in the list


async def test_a_read_recorded_later_shows_after_the_list_reloads(user: User, app_database: str) -> None:
    with database(app_database) as engine:
        knee = memory_by_content(engine, "alex", KNEE)
        await open_context(user)
        await user.should_see("Not used by your coach yet")
        assert usage_line(user, knee.id) == "Not used by your coach yet"
        add_read(engine, coach_token(engine), [knee.id])
    user.find(marker="search").type("knee")  # any reload of the list reads the counts again
    await eventually(lambda: usage_line(user, knee.id) == "Used by your coach 1 time, last just now")


async def test_the_panel_shows_the_block_with_its_budget_and_follows_a_question(user: User, app_database: str) -> None:
    with database(app_database) as engine:
        owner = athlete(engine, "alex")
        with unit_of_work(engine, read_only=True) as session:
            expected = coach_preview(session, owner)
            expected_knee = coach_preview(session, owner, query="knee pain")
    await open_context(user)
    await open_panel(user)
    await eventually(lambda: block_text(user) == expected.block.text)
    assert block_text(user).startswith("MEMORY:")
    await user.should_see(f"{expected.block.tokens} of 174 tokens used")

    user.find(marker="coach-query").type("knee pain")
    await eventually(lambda: block_text(user) == expected_knee.block.text)
    assert KNEE in block_text(user) and KNEE not in expected.block.text
    await user.should_see(f"{expected_knee.block.tokens} of 174 tokens used")

    user.find(marker="coach-query").clear()
    await eventually(lambda: block_text(user) == expected.block.text)


async def test_the_block_is_shown_as_text_not_html(user: User, app_database: str) -> None:
    with database(app_database) as engine:
        from domain import memories
        from domain.schemas import MemoryEdit

        memory = memory_by_content(engine, "alex", MARATHON)
        with unit_of_work(engine) as session:
            memories.edit_memory(
                session,
                athlete(engine, "alex"),
                memory_id=memory.id,
                changes=MemoryEdit(content="Training for <b>Valencia</b> in December"),
                expected_version=memory.version,
            )
    await open_context(user)
    await open_panel(user)
    await eventually(lambda: "Training for <b>Valencia</b> in December" in block_text(user))


async def test_the_read_log_says_nothing_read_yet_then_lists_a_read_whose_memory_opens(
    user: User, app_database: str
) -> None:
    await open_context(user)
    await open_panel(user)
    await user.should_see("Your coach has not read your memory yet.")

    with database(app_database) as engine:
        knee = memory_by_content(engine, "alex", KNEE)
        nurse = memory_by_content(engine, "alex", NURSE)
        read_id = add_read(engine, coach_token(engine), [knee.id, nurse.id], query="knee pain", days_ago=1)
    set_value(user, "coach-panel", False)
    set_value(user, "coach-panel", True)  # opening it again reads it again
    await user.should_see(marker=f"coach-read-{read_id}")
    with user.scope(marker=f"coach-read-{read_id}"):
        await user.should_see("1 day ago")
        await user.should_see("by josi-coach")
        await user.should_see("Asked about “knee pain”")
        await user.should_see("It got 2 memories:")
        await user.should_see(KNEE)
        await user.should_see(NURSE)
        assert texts(user, "read-memory") == [KNEE, NURSE]
    await user.should_not_see("Your coach has not read your memory yet.")

    with user.scope(marker=f"coach-read-{read_id}"):
        user.find(kind=ui.button, content=KNEE).click()
    with user.scope(marker="history-dialog"):
        await user.should_see(KNEE)
        await user.should_see("Imported")
    assert not dialogs_closed(user, "history-dialog")
