"""'Merge' for two selected memories: the athlete picks which one to keep (and so its wording, which
they may edit); the other is archived, still readable from the kept one's History. One write."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from nicegui import ui

from domain import merges
from domain.content import MAX_CONTENT
from domain.errors import DomainError, EditConflict, InvalidInput, NotFound
from domain.models import Memory
from ui.components.busy import busy
from ui.components.dialogs import one_at_a_time, titled_dialog
from ui.components.labels import TYPE_SINGULAR
from ui.components.text import clip
from ui.session import write

MERGE_DIALOG = "merge-dialog"

Merged = Callable[[], Awaitable[None]]
CHANGED_MEANWHILE = "One of these memories changed meanwhile (another tab or device); nothing was merged."


@one_at_a_time(MERGE_DIALOG)
def open_merge_dialog(first: Memory, second: Memory, on_merged: Merged) -> None:
    """Merge `first` and `second`; `on_merged` runs after a merge, or once either turned out changed."""
    pair = {first.id: first, second.id: second}

    def choose(memory_id: int) -> None:
        wording.set_value(pair[memory_id].content)
        wording.error = None

    async def merge() -> None:
        keep = pair[int(choice.value)]
        other = second if keep is first else first
        content = wording.value or ""
        try:
            merged = await write(
                lambda s, u: merges.merge_memories(
                    s,
                    u,
                    keep_id=keep.id,
                    other_id=other.id,
                    content=content,
                    keep_version=keep.version,
                    other_version=other.version,
                )
            )
        except InvalidInput as error:
            wording.error = str(error)
            wording.run_method("focus")
            return
        except (EditConflict, NotFound):
            dialog.close()
            ui.notify(CHANGED_MEANWHILE, type="warning")
            await on_merged()
            return
        except DomainError as error:
            ui.notify(str(error), type="negative")
            return
        dialog.close()
        ui.notify(f"Merged into '{clip(merged.content)}'", type="positive")
        await on_merged()

    with titled_dialog("Merge two memories", marker=MERGE_DIALOG, wide=True) as dialog:
        ui.label("Keep one of them with the wording you choose; the other is archived and stays in its History.")
        choice = (
            ui.radio(
                {m.id: f"{m.content} ({TYPE_SINGULAR[m.type]})" for m in (first, second)},
                value=first.id,
                on_change=lambda e: choose(int(e.value)),
            )
            .props('aria-label="Which memory to keep"')
            .mark("merge-keep")
        )
        wording = (
            ui.textarea("Wording to keep", value=first.content)
            .props(f'autogrow counter maxlength={MAX_CONTENT} aria-label="Wording to keep"')
            .classes("w-full")
            .mark("merge-content")
        )
        with ui.row().classes("w-full justify-end gap-2"):
            ui.button("Cancel", color="meta", on_click=dialog.close).props("flat").mark("merge-cancel")
            button = ui.button("Merge", icon="merge").mark("merge-confirm")
            button.on_click(lambda: busy(button, merge))
