"""The Context page's data loads alone, as the page runs them when it opens (ui/pages/home.py:
the logged-in user, the memory list's first page with its rows, the overview, and with
`--view review` the first page of proposals), for the athlete of bench_clients (2,000 memories,
300 pending proposals), without NiceGUI or a browser. A tool for profilers, not a bench module:

    python -m tests.perf.page_reads --pages 200                 # CPU per page's data load
    python -m tests.perf.page_reads --pages 200 --profile       # cProfile, the top functions
    valgrind --tool=callgrind python -m tests.perf.page_reads --pages 40   # instructions:
    # run it twice (e.g. 40 and 140 pages) and divide the difference by the pages between them
    valgrind --tool=callgrind --instr-atstart=no python -m tests.perf.page_reads --pages 30 --callgrind
    # instructions of the measured pages only (the start and the warm-up are not counted): with and
    # without --build, the difference divided by the pages is what building a page's elements costs

`--build` also builds each page's elements as the server does on its event loop once the read is
done (ui/pages/home.py's frame and ContextPage, in a NiceGUI client of its own, without a request
or a socket; the browser's storage is an empty dict: a light page) and prints their CPU per page
and how many elements a page holds, by kind. The garbage collector runs as the server
runs it (ui/gc_policy.py): what was there before the pages is frozen.

`--search WORD` loads the list as a search for WORD shows it. The SQLite file is a copy of the
cached data set (on /dev/shm when there is one); `--postgres` loads the same data set into a
fresh schema of the test PostgreSQL server instead.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import inspect
import os
import pstats
import shutil
import subprocess
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import Engine
from sqlalchemy.orm import Session

from domain.enums import Role
from domain.models import User
from domain.overview import overview
from domain.proposals import DEFAULT_MAX_AGE, list_pending
from domain.users import get_user
from persistence.engine import make_engine
from persistence.uow import unit_of_work
from tests.perf import dataset
from tests.perf.bench_clients import SPEC
from ui.components.filters import MemoryFilters
from ui.components.memory_list import PAGE_SIZE, load_list
from ui.components.review import MAX_SHOWN

BUILT_FOR = User(username="bench", display_name="Bench", role=Role.ATHLETE)  # the header's user
TAKES_COUNTS = "counts" in inspect.signature(overview).parameters


def page_load(view: str, search: str) -> Callable[[Session, User], object]:
    filters = MemoryFilters()
    filters.text = search
    query = filters.query(limit=PAGE_SIZE)

    def load(session: Session, user: User) -> object:
        memories = load_list(session, user, query)
        # the page's overview takes the unfiltered list's counts (since 2026-11-24; older revisions read them again)
        counts = {"counts": memories.view.counts} if TAKES_COUNTS and not search else {}
        return (
            overview(session, user, proposal_max_age=DEFAULT_MAX_AGE, **counts),
            memories,
            list_pending(session, user, limit=min(PAGE_SIZE, MAX_SHOWN)) if view == "review" else None,
        )

    return load


def open_pages(
    engine: Engine, athlete_id: int, pages: int, load: Callable[[Session, User], object], build: Builder | None = None
) -> None:
    for _ in range(pages):
        with unit_of_work(engine, read_only=True) as session:
            user = get_user(session, athlete_id)
            assert user is not None
            data = load(session, user)
        if build is not None:
            build.page(data)


@dataclass
class Builder:
    """Builds the Context page's elements from a page's data, each page in a client of its own."""

    view: str
    cpu_s: float = 0.0
    whole_s: float = 0.0  # with the client's own making and deleting
    pages: int = 0
    kinds: Counter[str] = field(default_factory=Counter)

    def page(self, data: object) -> None:
        from nicegui import Client
        from nicegui.page import page

        from ui.components.frame import frame
        from ui.pages.home import ContextPage, PageData

        assert isinstance(data, tuple)
        whole = time.thread_time()
        client = Client(page("/"), request=None)
        started = time.thread_time()
        with client, frame(BUILT_FOR, "Your memory"):
            ContextPage(MemoryFilters(), PageData(*data), self.view)
        self.cpu_s += time.thread_time() - started
        self.pages += 1
        if not self.kinds:
            self.kinds.update(_kind(element) for element in client.elements.values())
        client.delete()
        self.whole_s += time.thread_time() - whole

    def report(self) -> None:
        built = sum(self.kinds.values())
        print(f"{self.pages} page builds: CPU {self.cpu_s * 1000 / self.pages:.2f} ms per page, {built} elements "
              "(the client's layout and the page's)")  # fmt: skip
        print("  " + ", ".join(f"{kind} {n}" for kind, n in self.kinds.most_common()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=100)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--view", choices=("memories", "review"), default="memories")
    parser.add_argument("--search", default="")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--postgres", action="store_true")
    parser.add_argument("--build", action="store_true", help="also build each page's elements (no server)")
    parser.add_argument(
        "--callgrind", action="store_true", help="under callgrind --instr-atstart=no: count the pages only"
    )
    args = parser.parse_args()
    load = page_load(args.view, args.search)
    shm = Path("/dev/shm")
    with tempfile.TemporaryDirectory(prefix="page-reads-", dir=shm if shm.is_dir() else None) as folder:
        if args.postgres:
            with dataset.postgres_database() as engine:
                if engine is None:
                    raise SystemExit("PostgreSQL is not reachable")
                loaded = dataset.generate(engine, SPEC)
                _run(engine, loaded.heavy[0], args, load)
        else:
            path, loaded = dataset.cached(SPEC)
            copy = Path(folder) / "app.sqlite3"
            shutil.copyfile(path, copy)
            engine = make_engine(f"sqlite:///{copy}")
            try:
                _run(engine, loaded.heavy[0], args, load)
            finally:
                engine.dispose()


def _run(engine: Engine, athlete_id: int, args: argparse.Namespace, load: Callable[[Session, User], object]) -> None:
    build = _builder(engine, args) if args.build else None
    open_pages(engine, athlete_id, args.warmup, load, build)
    if build is not None:
        build.cpu_s, build.whole_s, build.pages = 0.0, 0.0, 0
        gc.collect()
        gc.freeze()  # as ui/gc_policy.py does once the server has started
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
    if args.callgrind:
        subprocess.run(["callgrind_control", "--instr=on", str(os.getpid())], check=True, capture_output=True)
    started_cpu, started = time.process_time(), time.perf_counter()
    open_pages(engine, athlete_id, args.pages, load, build)
    cpu, wall = time.process_time() - started_cpu, time.perf_counter() - started
    if args.profile:
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(40)
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(60)
    per_page = 1000 / args.pages
    if build is not None:
        cpu -= build.whole_s
        build.report()
    print(f"{args.pages} page loads: CPU {cpu * per_page:.2f} ms per page, wall {wall * per_page:.2f} ms")


def _kind(element: object) -> str:
    name = type(element).__name__
    return str(getattr(element, "tag", name)) if name == "Element" else name


def _builder(engine: Engine, args: argparse.Namespace) -> Builder:
    """The app as the server sets it up for its pages (ui/server.py): its runtime, the theme's button
    props, NiceGUI's signature check kept per handler, the collector's thresholds."""
    from nicegui import app, ui
    from nicegui.storage import request_contextvar
    from starlette.requests import Request

    from persistence.settings import Settings
    from ui import handler_signatures, runtime
    from ui.gc_policy import INTERPRETER_FULL_AFTER

    runtime.configure(engine, Settings())
    request_contextvar.set(Request({"type": "http", "session": {"id": "page-reads"}}))  # the browser's
    app.storage._users["page-reads"] = {}  # type: ignore[assignment]  # storage: nothing chosen
    ui.button.default_props("no-caps unelevated")
    handler_signatures.install()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, INTERPRETER_FULL_AFTER)
    return Builder(args.view)


if __name__ == "__main__":
    main()
