"""Download my memory (M13 YAML or Portable AI Memory JSON) and Import (a file becomes proposals).

The athlete's page shows both buttons; the admin console's Import tab imports for a chosen athlete.
Export and import run in a worker thread (ui.session), never on the event loop.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from nicegui import events, ui
from sqlalchemy.orm import Session

from domain.errors import DomainError, NotFound
from domain.exports import ExportFile, export_memory
from domain.import_parse import MAX_IMPORT_BYTES
from domain.imports import ImportPlan, import_file, plan_import
from domain.models import User
from domain.users import athlete_choices, get_user
from ui.components.admin_common import clear_error, show_error_at
from ui.components.dialogs import one_at_a_time, titled_dialog
from ui.components.plain_button import PlainButton
from ui.session import in_thread, write

IMPORT_DIALOG = "import-dialog"

DOWNLOAD_DIALOG = "download-dialog"

FORMATS = {"m13": "M13 YAML (memories.yaml)", "pam": "Portable AI Memory 1.0 (JSON)"}
TOO_BIG = f"The file is larger than {MAX_IMPORT_BYTES // 1024 // 1024} MB; an import takes at most that."
ACCEPT = ".yaml,.yml,.json,.txt,.md"
Reload = Callable[[], Awaitable[None]]
# Quasar's own header puts the file input inside an unnamed button (nested, unlabelled controls for a
# screen reader): a named button picks the file, and the input (out of the tab order) has a label of its own.
# Its file list has an unnamed remove button; the file is read as soon as it is chosen, so the list only names it.
UPLOAD_HEADER = """
<div class="row items-center no-wrap q-gutter-sm q-pa-sm">
  <q-btn flat no-caps color="white" icon="add_box" label="Choose a file" @click="props.pickFiles" />
  <label class="sr-only">File to import <q-uploader-add-trigger /></label>
  <div v-if="props.isUploading" class="q-uploader__subtitle">Reading the file…</div>
</div>
"""
UPLOAD_LIST = """
<div v-for="file in props.files" :key="file.__key" class="q-pa-sm">{{ file.name }} ({{ file.__sizeLabel }})</div>
"""


def transfer_buttons(on_imported: Reload) -> None:
    """The athlete's two buttons: download their own memory, import a file of their own (laid out by
    the caller's container)."""
    PlainButton("Download my memory", icon="download", color="meta", props="flat", on_click=open_download_dialog).mark(
        "download-memory"
    )
    PlainButton(
        "Import", icon="upload_file", color="meta", props="flat", on_click=lambda: open_import_dialog(None, on_imported)
    ).mark("import-memory")


@one_at_a_time(DOWNLOAD_DIALOG)
def open_download_dialog() -> None:
    with titled_dialog("Download my memory", marker=DOWNLOAD_DIALOG) as dialog:
        ui.label(
            "Everything you confirmed, with the memories you hid from your coach (marked as hidden) "
            "and the ones that were replaced. Deleted memories are not included."
        ).classes("mr-muted text-sm")
        choice = ui.radio(FORMATS, value="m13").props('aria-label="File format"').mark("download-format")

        async def download() -> None:
            fmt = str(choice.value)
            try:
                exported: ExportFile = await in_thread(lambda s, u: export_memory(s, u, athlete=u, format=fmt))
            except DomainError as error:
                ui.notify(str(error), type="negative")
                return
            ui.download.content(exported.text.encode("utf-8"), exported.file_name, exported.media_type)
            ui.notify(f"Downloading {exported.memories} memories as {exported.file_name}", type="positive")
            dialog.close()

        with ui.row().classes("w-full justify-end"):
            ui.button("Download", icon="download", on_click=download).mark("download-go")


def _athlete(session: Session, user: User, athlete_id: int | None) -> User:
    """The athlete the import is for: oneself, or (an admin's choice) the chosen athlete."""
    if athlete_id is None:
        return user
    athlete = get_user(session, athlete_id)
    if athlete is None:
        raise NotFound("Athlete not found.")
    return athlete


@one_at_a_time(IMPORT_DIALOG)
def open_import_dialog(athlete_id: int | None, on_imported: Reload, athlete_label: str | None = None) -> None:
    ImportDialog(athlete_id, on_imported, athlete_label)


class ImportDialog:
    """Upload a file, see how many proposals it makes (or what is wrong), then import it."""

    def __init__(self, athlete_id: int | None, on_imported: Reload, athlete_label: str | None = None) -> None:
        self.athlete_id = athlete_id
        self.on_imported = on_imported
        self.file: tuple[str, bytes] | None = None
        title = "Import memories" + (f" for {athlete_label}" if athlete_label else "")
        with titled_dialog(title, marker=IMPORT_DIALOG) as self.dialog:
            ui.label(
                "A file from this app (M13 YAML or Portable AI Memory JSON), or plain text with one memory per "
                "line, like “[2026-03-01] - Prefers morning runs”. Each memory becomes a proposal to review; "
                "nothing is saved as a memory until it is confirmed."
            ).classes("mr-muted text-sm")
            upload = (
                ui.upload(
                    label="Choose a file",
                    auto_upload=True,
                    max_file_size=MAX_IMPORT_BYTES,
                    on_upload=self.received,
                    on_rejected=lambda: self.show_error(TOO_BIG),
                )
                .props(f'accept="{ACCEPT}" aria-label="File to import"')
                .classes("w-full")
                .mark("import-upload")
            )
            upload.add_slot("header", UPLOAD_HEADER)
            upload.add_slot("list", UPLOAD_LIST)
            self.result = ui.label().classes("text-sm").props('role="status" aria-live="polite"').mark("import-result")
            with ui.row().classes("w-full justify-end"):
                self.go = ui.button("Create proposals", icon="playlist_add", on_click=self.run).mark("import-go")
                self.go.disable()

    def show_error(self, message: str) -> None:
        self.file = None
        self.go.disable()
        self.result.classes(replace="text-sm text-negative").set_text(message)

    async def received(self, event: events.UploadEventArguments) -> None:
        name, data = event.file.name, await event.file.read()
        athlete_id = self.athlete_id
        try:
            plan: ImportPlan = await in_thread(
                lambda s, u: plan_import(s, u, athlete=_athlete(s, u, athlete_id), file_name=name, data=data)
            )
        except DomainError as error:
            self.show_error(str(error))
            return
        self.file = (name, data)
        self.result.classes(replace="text-sm").set_text(plan.summary())
        self.go.set_enabled(bool(plan.new))

    async def run(self) -> None:
        if self.file is None:
            return
        name, data = self.file
        athlete_id = self.athlete_id
        try:
            made = await write(
                lambda s, u: len(
                    import_file(s, u, athlete=_athlete(s, u, athlete_id), file_name=name, data=data).proposals
                )
            )
        except DomainError as error:
            self.show_error(str(error))
            return
        ui.notify(f"{made} proposal{'s' if made != 1 else ''} to review from {name}", type="positive")
        self.dialog.close()
        await self.on_imported()


class AdminImportTab:
    """Admin console: import a file as proposals for a chosen athlete (who then reviews them)."""

    def __init__(self) -> None:
        ui.label(
            "Import a file of memories for an athlete: each memory becomes a proposal the athlete reviews "
            "on their Context page."
        ).classes("mr-muted")
        with ui.row().classes("items-end gap-2"):
            self.athlete = ui.select({}, label="Athlete").classes("min-w-[14rem]").mark("import-athlete")
            ui.button("Import a file", icon="upload_file", on_click=self.open).mark("admin-import")

    async def load(self) -> None:
        try:
            choices = await in_thread(lambda s, u: athlete_choices(s, u))
        except DomainError as error:
            ui.notify(str(error), type="negative")
            return
        self.athlete.set_options(choices)

    def open(self) -> None:
        athlete_id = self.athlete.value
        if not isinstance(athlete_id, int):
            show_error_at(self.athlete, "Choose an athlete first.", focus=True)
            return
        clear_error(self.athlete)
        label = str(self.athlete.options.get(athlete_id, "")) if isinstance(self.athlete.options, dict) else None
        open_import_dialog(athlete_id, self._done, athlete_label=label)

    async def _done(self) -> None:
        return None
