"""The authorization matrix over HTTP: every page route and every API route of the real server (a
subprocess, SQLite and PostgreSQL) × {anonymous, owner, other athlete, disabled user, admin, API token
per scope, revoked token} × the owner's memories and proposals in each state.

The expected outcomes are ONE table per kind of route (`PAGE_TABLE`, `API_TABLE`); a route the app
registers without a row (pages: every `@ui.page` and page-serving GET; API: every route under /api/v1)
fails `test_every_registered_route_has_rows`.

People log in in Chromium through the login page (the ticket flow of ui/auth.py); their cookies then
serve plain HTTP calls too. The disabled user logged in while still enabled and was disabled after.
Anonymous callers and tokens never get past the login redirect, so their page cells are read over
plain HTTP (without following redirects).

Page cells: where the browser ended up (P: the requested page, L: /login, A: /admin, H: /), then V if
the target's content is anywhere in the requested page. API cells: the status code, then V if the target's
content is in the answer. The target of a listing row (`*`) is each record in turn: the same call,
checked for each one's content.
"""

from __future__ import annotations

import re
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from sqlalchemy import Engine

from domain.actors import SYSTEM
from domain.enums import Role
from domain.models import User
from domain.users import create_user, set_disabled
from persistence.uow import unit_of_work
from tests.api.conftest import ApiServer
from tests.integration.test_authorization_matrix import ALL_TARGETS, MEMORY_TARGETS, Targets, build_targets

ACTORS = ("anonymous", "owner", "other", "disabled", "admin", "token:ingest", "token:read", "token:revoked")
BROWSERS = ("owner", "other", "disabled", "admin")
PASSWORD = "route matrix passphrase"
NONE = "-"

# One row per (route, target); columns in the order of ACTORS: an(onymous), ow(ner), ot(her athlete),
# di(sabled), ad(min), t(oken) i(ngest), t r(ead), t x (revoked).
PAGE_TABLE_TEXT = """
# page                         target        an    ow    ot    di    ad    ti    tr    tx
/                              active        L     PV    P     L     A     L     L     L
/                              soft-deleted  L     P     P     L     A     L     L     L
/                              archived      L     P     P     L     A     L     L     L
/                              hidden        L     PV    P     L     A     L     L     L
/                              hard-deleted  L     P     P     L     A     L     L     L
/                              pending       L     P     P     L     A     L     L     L
/                              confirmed     L     P     P     L     A     L     L     L
/                              rejected      L     P     P     L     A     L     L     L
/?memory={memory}              active        L     PV    P     L     A     L     L     L
/?memory={memory}              soft-deleted  L     P     P     L     A     L     L     L
/?memory={memory}              archived      L     P     P     L     A     L     L     L
/?memory={memory}              hidden        L     PV    P     L     A     L     L     L
/?memory={memory}              hard-deleted  L     P     P     L     A     L     L     L
/account                       active        L     P     P     L     A     L     L     L
/account                       soft-deleted  L     PV    P     L     A     L     L     L
/account                       archived      L     P     P     L     A     L     L     L
/account                       hidden        L     P     P     L     A     L     L     L
/account                       hard-deleted  L     P     P     L     A     L     L     L
/account                       pending       L     P     P     L     A     L     L     L
/account                       confirmed     L     P     P     L     A     L     L     L
/account                       rejected      L     P     P     L     A     L     L     L
/admin                         -             L     H     H     L     P     L     L     L
/admin?tab=deleted             active        L     H     H     L     P     L     L     L
/admin?tab=deleted             soft-deleted  L     H     H     L     PV    L     L     L
/admin?tab=deleted             archived      L     H     H     L     P     L     L     L
/admin?tab=deleted             hidden        L     H     H     L     P     L     L     L
/admin?tab=deleted             hard-deleted  L     H     H     L     P     L     L     L
/admin?tab=deleted             pending       L     H     H     L     P     L     L     L
/admin?tab=deleted             confirmed     L     H     H     L     P     L     L     L
/admin?tab=deleted             rejected      L     H     H     L     P     L     L     L
/login                         -             P     H     H     P     A     P     P     P
/login/complete?ticket=forged  -             L     L     L     L     L     L     L     L
"""

API_TABLE_TEXT = """
# method path                                     target        an    ow    ot    di    ad    ti    tr    tx
POST /api/v1/ingest                               -             401   401   401   401   401   201   403   401
GET /api/v1/athletes/{username}/memories          active        401   401   401   401   401   403   200V  401
GET /api/v1/athletes/{username}/memories          soft-deleted  401   401   401   401   401   403   200   401
GET /api/v1/athletes/{username}/memories          archived      401   401   401   401   401   403   200   401
GET /api/v1/athletes/{username}/memories          hidden        401   401   401   401   401   403   200   401
GET /api/v1/athletes/{username}/memories          hard-deleted  401   401   401   401   401   403   200   401
GET /api/v1/athletes/{username}/memories          pending       401   401   401   401   401   403   200   401
GET /api/v1/athletes/{username}/memories          confirmed     401   401   401   401   401   403   200   401
GET /api/v1/athletes/{username}/memories          rejected      401   401   401   401   401   403   200   401
GET /api/v1/athletes/{username}/context           active        401   401   401   401   401   403   200V  401
GET /api/v1/athletes/{username}/context           soft-deleted  401   401   401   401   401   403   200   401
GET /api/v1/athletes/{username}/context           archived      401   401   401   401   401   403   200   401
GET /api/v1/athletes/{username}/context           hidden        401   401   401   401   401   403   200   401
GET /api/v1/athletes/{username}/context           hard-deleted  401   401   401   401   401   403   200   401
GET /api/v1/athletes/{username}/context           pending       401   401   401   401   401   403   200   401
GET /api/v1/athletes/{username}/context           confirmed     401   401   401   401   401   403   200   401
GET /api/v1/athletes/{username}/context           rejected      401   401   401   401   401   403   200   401
GET /api/v1/athletes/{username}/export            active        401   401   401   401   401   403   200V  401
GET /api/v1/athletes/{username}/export            soft-deleted  401   401   401   401   401   403   200   401
GET /api/v1/athletes/{username}/export            archived      401   401   401   401   401   403   200V  401
GET /api/v1/athletes/{username}/export            hidden        401   401   401   401   401   403   200   401
GET /api/v1/athletes/{username}/export            hard-deleted  401   401   401   401   401   403   200   401
GET /api/v1/athletes/{username}/export            pending       401   401   401   401   401   403   200   401
GET /api/v1/athletes/{username}/export            confirmed     401   401   401   401   401   403   200   401
GET /api/v1/athletes/{username}/export            rejected      401   401   401   401   401   403   200   401
GET /api/v1/{rest:path}                           -             401   401   401   401   401   404   404   401
POST /api/v1/{rest:path}                          -             401   401   401   401   401   404   404   401
PUT /api/v1/{rest:path}                           -             401   401   401   401   401   404   404   401
PATCH /api/v1/{rest:path}                         -             401   401   401   401   401   404   404   401
DELETE /api/v1/{rest:path}                        -             401   401   401   401   401   404   404   401
"""

# The address each page route is tried at; {memory} is the target memory's id.
PAGE_CALLS: dict[str, list[tuple[str, tuple[str, ...]]]] = {
    "/": [("/", ALL_TARGETS), ("/?memory={memory}", MEMORY_TARGETS)],
    "/account": [("/account", ALL_TARGETS)],
    "/admin": [("/admin", (NONE,)), ("/admin?tab=deleted", ALL_TARGETS)],
    "/login": [("/login", (NONE,))],
    "/login/complete": [("/login/complete?ticket=forged", (NONE,))],
}


@dataclass(frozen=True)
class ApiCall:
    method: str
    path: str  # {username}: the owner's
    body: dict[str, Any] | None = None
    targets: tuple[str, ...] = ALL_TARGETS


API_CALLS: dict[str, ApiCall] = {
    "POST /api/v1/ingest": ApiCall(
        "POST", "/api/v1/ingest", {"kind": "activity_note", "text": "Easy run by the river."}, (NONE,)
    ),
    "GET /api/v1/athletes/{username}/memories": ApiCall("GET", "/api/v1/athletes/{username}/memories?limit=200"),
    "GET /api/v1/athletes/{username}/context": ApiCall(
        "GET",
        "/api/v1/athletes/{username}/context?max_tokens=4000&query="
        + "quiet+trails+night+shifts+left+knee+pain+recovers+slowly+secret+insight+hill+repeats+treadmills",
    ),
    "GET /api/v1/athletes/{username}/export": ApiCall("GET", "/api/v1/athletes/{username}/export?format=pam"),
    # Anything else under /api/v1: a token gets 404, everyone else 401.
    **{
        f"{method} /api/v1/{{rest:path}}": ApiCall(method, "/api/v1/athletes/{username}/proposals", None, (NONE,))
        for method in ("GET", "POST", "PUT", "PATCH", "DELETE")
    },
}


def parse_table(text: str, width: int) -> dict[tuple[str, str, str], str]:
    """Rows of `width` words naming the route, then the target, then one code per actor."""
    table: dict[tuple[str, str, str], str] = {}
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        words = line.split()
        route, target, codes = " ".join(words[:width]), words[width], words[width + 1 :]
        assert len(codes) == len(ACTORS), line
        for actor, code in zip(ACTORS, codes, strict=True):
            assert (route, actor, target) not in table, line
            table[(route, actor, target)] = code
    return table


PAGE_TABLE = parse_table(PAGE_TABLE_TEXT, 1)
API_TABLE = parse_table(API_TABLE_TEXT, 2)


# ---------------------------------------------------------------------------------------------------
# The routes the app registers
# ---------------------------------------------------------------------------------------------------


def _walk(routes: list[Any], prefix: str = "") -> Iterator[tuple[str, str]]:
    for route in routes:
        inner = getattr(route, "original_router", None)  # NiceGUI's wrapper of an included router
        if inner is not None:
            context = getattr(route, "include_context", None)
            yield from _walk(inner.routes, prefix + getattr(context, "prefix", ""))
            continue
        path = prefix + getattr(route, "path", "")
        for method in sorted(getattr(route, "methods", None) or ()):
            if method != "HEAD":
                yield method, path


def registered_routes() -> tuple[set[str], set[str]]:
    """(page paths, 'METHOD /api/v1/...' routes) as the server registers them (ui.server imports them)."""
    from nicegui import app
    from nicegui.client import Client

    from ui.server import _register_pages

    _register_pages()
    routes = set(_walk(list(app.routes)))
    pages = set(Client.page_routes.values())
    pages |= {
        path for method, path in routes if method == "GET" and not path.startswith(("/_nicegui", "/api/", "/docs"))
    }
    pages -= {"/openapi.json", "/docs", "/redoc", "/docs/oauth2-redirect"}
    api = {f"{method} {path}" for method, path in routes if path.startswith("/api/")}
    return pages, api


def test_every_registered_route_has_rows() -> None:
    """A page or API route added later without rows in the tables fails here."""
    pages, api = registered_routes()
    assert pages == set(PAGE_CALLS), "pages without rows (or rows without a page)"
    assert api == set(API_CALLS), "API routes without rows (or rows without a route)"
    page_keys = {
        (url, a, t) for calls in PAGE_CALLS.values() for url, targets in calls for a in ACTORS for t in targets
    }
    assert set(PAGE_TABLE) == page_keys
    api_keys = {(name, a, t) for name, call in API_CALLS.items() for a in ACTORS for t in call.targets}
    assert set(API_TABLE) == api_keys


# ---------------------------------------------------------------------------------------------------
# The world on the server's database
# ---------------------------------------------------------------------------------------------------


@dataclass
class HttpWorld:
    api: ApiServer
    names: dict[str, str]  # actor → username
    targets: Targets  # the owner's
    own_targets: Targets  # the disabled user's own
    cookies: dict[str, dict[str, str]]  # browser actor → its cookies after login
    tokens: dict[str, str | None]  # actor → bearer secret

    def targets_for(self, actor: str) -> Targets:
        return self.own_targets if actor == "disabled" else self.targets


def _user(engine: Engine, username: str, role: Role = Role.ATHLETE) -> User:
    with unit_of_work(engine) as session:
        return create_user(session, SYSTEM, username=username, password=PASSWORD, role=role)


# A page that lets its visitor stay draws the app's header (or is the login page); one that sends the
# visitor on (the wrong role, a login that ended) draws nothing and navigates once its socket is up.
_DRAWN = (
    "() => window.did_handshake === true && (!!document.querySelector('.q-header') || location.pathname === '/login')"
)


def _settle(page: Any) -> None:
    """Until the page's socket is up, it has drawn a page to stay on, and no navigation follows."""
    for _ in range(5):
        url = page.url
        try:
            page.wait_for_function(_DRAWN, timeout=15_000)
            page.wait_for_timeout(250)
        except Exception:  # the page navigated away while we waited: look again
            continue
        if page.url == url:
            return


def _log_in(browser: Any, url: str, username: str) -> Any:
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{url}/login")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(re.compile(r".*/(admin)?$"))
    _settle(page)
    return page


@pytest.fixture(scope="module")
def world(api: ApiServer) -> Iterator[HttpWorld]:
    playwright_api = pytest.importorskip("playwright.sync_api")
    from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS

    suffix = uuid.uuid4().hex[:6]
    names = {a: f"rm{a[:3]}{suffix}" for a in BROWSERS}
    users = {a: _user(api.engine, names[a], Role.ADMIN if a == "admin" else Role.ATHLETE) for a in BROWSERS}
    targets = build_targets(api.engine, users["owner"], users["admin"])
    own_targets = build_targets(api.engine, users["disabled"], users["admin"])
    tokens: dict[str, str | None] = {
        "anonymous": None,
        "token:ingest": api.token("ingest"),
        "token:read": api.token("read"),
        "token:revoked": api.token("read", "ingest", revoked=True),
    }
    with playwright_api.sync_playwright() as runner:
        browser = runner.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            pages = {a: _log_in(browser, api.url, names[a]) for a in BROWSERS}
            with unit_of_work(api.engine) as session:
                set_disabled(session, users["admin"], user_id=users["disabled"].id, disabled=True)
            cookies = {a: {c["name"]: c["value"] for c in p.context.cookies()} for a, p in pages.items()}
            yield_world = HttpWorld(api, names, targets, own_targets, cookies, tokens)
            yield_world.pages = pages  # type: ignore[attr-defined]
            yield yield_world
        finally:
            browser.close()


# ---------------------------------------------------------------------------------------------------
# Observing the cells
# ---------------------------------------------------------------------------------------------------


def _where(path: str) -> str:
    return {"/login": "L", "/admin": "A", "/": "H"}.get(path, "?" + path)


def _browser_cells(world: HttpWorld, urls: dict[str, str], requested: str) -> dict[str, tuple[str, str]]:
    """(landing code, page text) for each logged-in browser opening its url, all at once."""
    pages = world.pages  # type: ignore[attr-defined]
    for actor, url in urls.items():
        pages[actor].goto(world.api.url + url, wait_until="commit")
    cells = {}
    for actor in urls:
        page = pages[actor]
        landed, text = _read_settled(page)
        cells[actor] = ("P" if landed == requested else _where(landed)), text
    return cells


def _read_settled(page: Any) -> tuple[str, str]:
    """(path, page text) once the page stays put: a redirect may still start while the text is read."""
    for _ in range(5):
        _settle(page)
        url = page.url
        try:
            text = page.content()
        except Exception:  # navigating again: settle on where it goes
            continue
        if page.url == url:
            return httpx.URL(url).path, text
    raise AssertionError(f"{page.url} kept navigating")


def _page_cell(world: HttpWorld, actor: str, url: str, requested: str) -> tuple[str, str]:
    """(landing code, page text) for an anonymous or token caller opening `url` (no redirect followed)."""
    secret = world.tokens[actor]
    headers = {"Authorization": f"Bearer {secret}"} if secret else {}
    response = httpx.get(world.api.url + url, headers=headers, follow_redirects=False, timeout=20)
    if response.status_code in (302, 303, 307):
        return _where(httpx.URL(response.headers["location"]).path), ""
    assert response.status_code == 200, (actor, url, response.status_code)
    return "P", response.text


def observe_pages(world: HttpWorld) -> dict[tuple[str, str, str], str]:
    observed: dict[tuple[str, str, str], str] = {}
    # Visiting /login/complete gives the browser a new id (logged out): it comes last.
    order = sorted(PAGE_CALLS, key=lambda route: route == "/login/complete")
    for route in order:
        for url, row_targets in PAGE_CALLS[route]:
            requested = url.split("?")[0]
            for target in row_targets if "{memory}" in url else [NONE]:
                addresses = {
                    a: url.format(memory=world.targets_for(a).memory_ids[target]) if target != NONE else url
                    for a in ACTORS
                }
                cells = _browser_cells(world, {a: addresses[a] for a in BROWSERS}, requested)
                cells |= {a: _page_cell(world, a, addresses[a], requested) for a in ACTORS if a not in BROWSERS}
                for actor, (landed, text) in cells.items():
                    markers = world.targets_for(actor)
                    for each in [target] if target != NONE else row_targets:
                        # What a page shows counts only on the page asked for (not on the one a browser was sent to).
                        seen = landed == "P" and each != NONE and markers.marker(each) in text
                        observed[(url, actor, each)] = landed + ("V" if seen else "")
    return observed


def observe_api(world: HttpWorld) -> dict[tuple[str, str, str], str]:
    observed: dict[tuple[str, str, str], str] = {}
    for actor in ACTORS:
        targets = world.targets_for(actor)
        secret = world.tokens.get(actor)
        headers = {"Authorization": f"Bearer {secret}"} if secret else {}
        cookies = world.cookies.get(actor, {})
        with httpx.Client(base_url=world.api.url, headers=headers, cookies=cookies, timeout=20) as client:
            for name, call in API_CALLS.items():
                body = call.body
                if body is not None:
                    body = {**body, "athlete": targets.username, "reference": f"rm-{uuid.uuid4().hex}"}
                response = client.request(call.method, call.path.format(username=targets.username), json=body)
                assert response.status_code != 500, response.text
                for target in call.targets:
                    seen = target != NONE and targets.marker(target) in response.text
                    observed[(name, actor, target)] = f"{response.status_code}{'V' if seen else ''}"
    return observed


def _format(observed: dict[tuple[str, str, str], str], rows: list[tuple[str, str]], width: int) -> str:
    lines = []
    for route, target in rows:
        codes = "  ".join(f"{observed.get((route, a, target), '?'):<3}" for a in ACTORS)
        lines.append(f"{route:<{width}} {target:<13} {codes}".rstrip())
    return "\n".join(lines)


def _compare(observed: dict[tuple[str, str, str], str], table: dict[tuple[str, str, str], str], text: str) -> None:
    if observed != table:
        print(text)
    wrong = {key: (table.get(key, "no row"), got) for key, got in observed.items() if table.get(key) != got}
    assert not wrong, f"(route, actor, target): (expected, observed) {wrong}"


def test_every_actor_on_every_api_route_gets_what_the_table_says(world: HttpWorld) -> None:
    observed = observe_api(world)
    rows = [(name, t) for name, call in API_CALLS.items() for t in call.targets]
    _compare(observed, API_TABLE, _format(observed, rows, 49))


def test_every_actor_on_every_page_gets_what_the_table_says(world: HttpWorld) -> None:
    started = time.monotonic()
    observed = observe_pages(world)
    rows = [(url, t) for calls in PAGE_CALLS.values() for url, targets in calls for t in targets]
    _compare(observed, PAGE_TABLE, _format(observed, rows, 23))
    assert time.monotonic() - started < 120
