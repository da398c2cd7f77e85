"""A page address that does not exist: the app's own header, plain words and a way home, instead of
the framework's default. Anything that is not a page (the API, static files) keeps its own answer."""

from __future__ import annotations

from fastapi import Request
from fastapi.exception_handlers import http_exception_handler
from nicegui import Client, app, ui
from nicegui.page import page
from starlette.exceptions import HTTPException
from starlette.responses import Response

from ui.components.frame import APP_NAME

NOT_PAGES = ("/api/", "/_nicegui", "/assets", "/static", "/docs", "/redoc", "/openapi.json")


@app.exception_handler(404)
async def not_found(request: Request, exception: Exception) -> Response:
    if request.url.path.startswith(NOT_PAGES) and isinstance(exception, HTTPException):
        return await http_exception_handler(request, exception)
    with Client(page(""), request=request) as client:
        ui.page_title(f"Page not found · {APP_NAME}")
        with ui.header().classes("mr-header items-center px-4 py-2"):
            ui.icon("psychology", size="28px").props('aria-hidden="true"')
            ui.link(APP_NAME, "/").classes("mr-brand text-lg font-semibold")
        with ui.column().classes("mr-main w-full max-w-5xl mx-auto p-4 gap-3 items-start").mark("not-found"):
            ui.label("This page doesn't exist").classes("text-2xl font-semibold").props('role="heading" aria-level="1"')
            ui.label("The address may be mistyped, or the page has moved.").classes("mr-muted")
            ui.link("Go to your memory", "/").classes("text-lg").mark("go-home")
    return client.build_response(request, 404)
