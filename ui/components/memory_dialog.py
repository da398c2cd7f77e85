"""'Add memory' and 'Edit' dialogs. Nothing is saved until valid; a conflicting edit overwrites nothing."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from nicegui import ui

from domain import memories
from domain.errors import DomainError, EditConflict, InvalidInput, NotFound
from domain.models import Memory
from domain.schemas import MemoryCreate, MemoryEdit
from ui.components.busy import busy
from ui.components.dialogs import one_at_a_time, titled_dialog
from ui.components.labels import TYPE_SINGULAR
from ui.components.memory_form import MemoryForm
from ui.components.words import tags_words
from ui.session import in_thread, write

ADD_DIALOG = "add-dialog"
EDIT_DIALOG = "edit-dialog"

Saved = Callable[[], Awaitable[None]]


@dataclass
class _ExpectedVersion:
    """The version the athlete's edit is based on; a conflict moves it to the newer one."""

    version: int


@one_at_a_time(ADD_DIALOG)
def open_add_dialog(on_saved: Saved) -> None:
    """Add a memory; the type and tags are suggested from the text as it is typed (MemoryForm)."""

    async def save() -> None:
        try:
            await form.settle_type()  # saved with no type picked: the suggestion, if the rules have one
            data = form.parse(MemoryCreate)
            await write(lambda s, u: memories.add_memory(s, u, data=data))
        except InvalidInput as error:
            form.show_error(error)
            return
        except DomainError as error:
            ui.notify(str(error), type="negative")
            return
        dialog.close()
        ui.notify("Memory added.", type="positive")
        await on_saved()

    with titled_dialog("Add memory", marker=ADD_DIALOG) as dialog:
        form = MemoryForm(suggest=True)  # Enter in Tags makes a chip; Save is the next stop for Tab
        _buttons(dialog, save)


@one_at_a_time(EDIT_DIALOG)
def open_edit_dialog(memory: Memory, on_saved: Saved) -> None:
    expected = _ExpectedVersion(memory.version)

    async def save() -> None:
        try:
            changes = form.parse(MemoryEdit)
            version = expected.version
            await write(
                lambda s, u: memories.edit_memory(s, u, memory_id=memory.id, changes=changes, expected_version=version)
            )
        except InvalidInput as error:
            form.show_error(error)
            return
        except EditConflict as error:
            await _show_newer(error)
            return
        except NotFound:
            dialog.close()
            ui.notify("This memory was deleted meanwhile; nothing was saved.", type="warning")
            await on_saved()
            return
        except DomainError as error:
            ui.notify(str(error), type="negative")
            return
        dialog.close()
        ui.notify("Memory saved.", type="positive")
        await on_saved()

    async def _show_newer(error: EditConflict) -> None:
        try:
            newer = await in_thread(lambda s, u: memories.get_memory(s, u, memory_id=memory.id))
        except NotFound:
            dialog.close()
            ui.notify("This memory was deleted meanwhile; nothing was saved.", type="warning")
            await on_saved()
            return
        expected.version = newer.version
        conflict.clear()
        with conflict:
            ui.label(str(error)).classes("font-semibold")
            ui.label("The newer version:").classes("text-sm")
            ui.label(newer.content).classes("mr-memory-text").mark("newer-content")
            details = TYPE_SINGULAR[newer.type] + (f" · {tags_words(list(newer.tags))}" if newer.tags else "")
            ui.label(details).classes("text-sm mr-muted")
            ui.label("Your text is kept below. Save again to replace the newer version with it, or Cancel.").classes(
                "text-sm"
            )
        conflict.set_visibility(True)
        await on_saved()

    with titled_dialog("Edit memory", marker=EDIT_DIALOG) as dialog:
        conflict = ui.column().classes("mr-conflict w-full gap-1").props('role="alert"').mark("edit-conflict")
        conflict.set_visibility(False)
        form = MemoryForm(memory.content, memory.type, memory.tags)
        _buttons(dialog, save)


def _buttons(dialog: ui.dialog, save: Callable[[], Awaitable[None]]) -> None:
    with ui.row().classes("w-full justify-end gap-2"):
        ui.button("Cancel", color="meta", on_click=dialog.close).props("flat")
        button = ui.button("Save").mark("save")
        button.on_click(lambda: busy(button, save))
