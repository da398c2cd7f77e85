"""Merging two selected memories from the Context page's bulk bar (issue 11), in NiceGUI's User fixture."""

from __future__ import annotations

from nicegui import ui
from nicegui.testing import User

from domain import replaced
from domain.enums import MemoryConfidence, MemoryStatus
from persistence.uow import unit_of_work
from tests.ui.context_support import athlete, database, eventually, listed, memory_by_content, open_context, tick_memory

NURSE = "Works as a nurse on rotating shifts"
TREADMILL = "Dislikes running on the treadmill"
MERGED = "Works rotating nurse shifts; dislikes the treadmill"


def tick(user: User, memory_id: int) -> None:
    tick_memory(user, memory_id)


async def test_two_selected_memories_merge_into_one_with_the_chosen_wording(user: User, app_database: str) -> None:
    with database(app_database) as engine:
        nurse = memory_by_content(engine, "alex", NURSE)
        treadmill = memory_by_content(engine, "alex", TREADMILL)
        await open_context(user)
        user.find(marker="select-memories").click()
        await user.should_see(marker="bulk-merge")
        merge = user.find(marker="bulk-merge").elements.pop()
        assert isinstance(merge, ui.button) and not merge.enabled  # none selected
        tick(user, nurse.id)
        await user.should_see("1 selected")
        assert not user.find(marker="bulk-merge").elements.pop().enabled
        tick(user, treadmill.id)
        await user.should_see("2 selected")
        merge = user.find(marker="bulk-merge").elements.pop()
        assert merge.enabled
        user.find(marker="bulk-merge").click()
        await user.should_see(marker="merge-dialog")
        dialog = user.find(marker="merge-dialog").elements.pop()
        assert dialog.props["aria-label"] == "Merge two memories"
        keep = user.find(marker="merge-keep").elements.pop()
        wording = user.find(marker="merge-content").elements.pop()
        assert keep.props["aria-label"] == "Which memory to keep"
        assert wording.props["aria-label"] == "Wording to keep"
        assert isinstance(keep, ui.radio) and isinstance(wording, ui.textarea)
        assert keep.value == nurse.id and wording.value == NURSE
        keep.value = treadmill.id  # keep the treadmill memory: its wording comes in, to be edited
        await eventually(lambda: wording.value == TREADMILL)
        wording.value = MERGED
        user.find(marker="merge-confirm").click()
        await user.should_see(f"Merged into '{MERGED}'")
        await user.should_see("0 selected")
        await eventually(lambda: MERGED in listed(user))
        assert NURSE not in listed(user)
        owner = athlete(engine, "alex")
        with unit_of_work(engine, read_only=True) as session:
            assert [m.id for m in replaced.replaced_by(session, owner, memory_id=treadmill.id)] == [nurse.id]
        kept = memory_by_content(engine, "alex", MERGED)
        assert (kept.id, kept.status, kept.confidence) == (treadmill.id, MemoryStatus.ACTIVE, MemoryConfidence.HIGH)
        assert kept.occurrences == nurse.occurrences + treadmill.occurrences
        archived = memory_by_content(engine, "alex", NURSE)
        assert (archived.status, archived.superseded_by_id) == (MemoryStatus.ARCHIVED, treadmill.id)
