"""/admin: the admin console (its tabs come with the admin issue)."""

from __future__ import annotations

from nicegui import ui

from domain.enums import Role
from ui.components.frame import frame
from ui.pages.guard import page_user


@ui.page("/admin")
def admin_page() -> None:
    user = page_user(Role.ADMIN)
    if user is None:
        return
    with frame(user, "Admin"):
        ui.label("Admin console").classes("text-2xl font-semibold")
        ui.label("Restore deleted memories, read the audit log and manage users here.").classes("mr-muted")
