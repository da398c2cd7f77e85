"""Download my memory and Import on the Context page, and the admin console's Import tab (User fixture)."""

from __future__ import annotations

import yaml
from nicegui import ui
from nicegui.testing import User
from sqlalchemy import select

from domain.enums import ProposalStatus
from domain.models import Proposal
from persistence.engine import make_engine
from persistence.uow import unit_of_work
from tests.ui.conftest import log_in
from tests.ui.context_support import eventually
from ui.components.view_panels import ViewPanels
from ui.components.view_tabs import ViewTabs


def imported_pending(database_url: str) -> list[str]:
    engine = make_engine(database_url)
    try:
        with unit_of_work(engine, read_only=True) as session:
            rows = session.scalars(
                select(Proposal.content).where(
                    Proposal.status == ProposalStatus.PENDING, Proposal.extractor.like("import:%")
                )
            )
            return sorted(rows)
    finally:
        engine.dispose()


async def upload(user: User, name: str, data: bytes) -> None:
    element = user.find(ui.upload).elements.pop()
    assert isinstance(element, ui.upload)
    await element.handle_uploads([ui.upload.SmallFileUpload(name=name, content_type="text/plain", _data=data)])


async def test_download_then_import_on_the_context_page(user: User, app_database: str) -> None:
    await log_in(user, "alex")
    await user.should_see("What your coach remembers")
    user.find(marker="download-memory").click()
    await user.should_see(marker="download-dialog")
    user.find(marker="download-go").click()
    response = await user.download.next(timeout=5)
    document = yaml.safe_load(response.content)
    assert document["_schema"]["format_version"] == "1.0.0" and document["memories"]

    user.find(marker="import-memory").click()
    await user.should_see(marker="import-dialog")
    await upload(user, "bad.yaml", b"_schema:\n  format_version: '9.0'\nmemories: []\n")
    await user.should_see("_schema.format_version '9.0' is not supported")
    assert imported_pending(app_database) == []
    await upload(user, "notes.txt", b"[2026-03-01] - Swims on Sundays\n[2026-03-02] - Climbs twice a week\n")
    await user.should_see("2 proposals to review from notes.txt (plain text).")
    user.find(marker="import-go").click()
    await eventually(lambda: imported_pending(app_database) == ["Climbs twice a week", "Swims on Sundays"])
    await user.should_see("Imported from notes.txt, line 1")  # the page went to 'To review', where they wait
    await user.should_see("Recorded 01 Mar 2026")
    assert [tabs.value for tabs in user.find(kind=ViewTabs).elements] == ["review"]
    assert [panels.props["model-value"] for panels in user.find(kind=ViewPanels).elements] == ["review"]


async def test_an_admin_imports_for_a_chosen_athlete(user: User, app_database: str) -> None:
    await log_in(user, "admin")
    await user.should_see("Admin console")
    user.find(kind=ui.tab, content="Import").click()
    await user.should_see(marker="import-athlete")  # the tab is built when first opened, in a turn of its own
    select_element = user.find(marker="import-athlete").elements.pop()
    assert isinstance(select_element, ui.select)
    await eventually(lambda: "sam" in dict(select_element.options).values())  # type: ignore[call-overload]
    sam = next(key for key, name in dict(select_element.options).items() if name == "sam")  # type: ignore[call-overload]
    select_element.set_value(sam)
    user.find(marker="admin-import").click()
    await user.should_see("Import memories for sam")
    await upload(user, "sam.txt", b"- Prefers trail runs\n")
    await user.should_see("1 proposal to review from sam.txt (plain text).")
    user.find(marker="import-go").click()
    await eventually(lambda: imported_pending(app_database) == ["Prefers trail runs"])
