"""The Context page's data loads alone, as the page runs them when it opens (ui/pages/home.py:
the logged-in user, the memory list's first page with its rows, the overview, and with
`--view review` the first page of proposals), for the athlete of bench_clients (2,000 memories,
300 pending proposals), without NiceGUI or a browser. A tool for profilers, not a bench module:

    python -m tests.perf.page_reads --pages 200                 # CPU per page's data load
    python -m tests.perf.page_reads --pages 200 --profile       # cProfile, the top functions
    valgrind --tool=callgrind python -m tests.perf.page_reads --pages 40   # instructions:
    # run it twice (e.g. 40 and 140 pages) and divide the difference by the pages between them

`--search WORD` loads the list as a search for WORD shows it. The SQLite file is a copy of the
cached data set (on /dev/shm when there is one); `--postgres` loads the same data set into a
fresh schema of the test PostgreSQL server instead.
"""

from __future__ import annotations

import argparse
import cProfile
import inspect
import pstats
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from sqlalchemy import Engine
from sqlalchemy.orm import Session

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


def open_pages(engine: Engine, athlete_id: int, pages: int, load: Callable[[Session, User], object]) -> None:
    for _ in range(pages):
        with unit_of_work(engine, read_only=True) as session:
            user = get_user(session, athlete_id)
            assert user is not None
            load(session, user)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=100)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--view", choices=("memories", "review"), default="memories")
    parser.add_argument("--search", default="")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--postgres", action="store_true")
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
    open_pages(engine, athlete_id, args.warmup, load)
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
    started_cpu, started = time.process_time(), time.perf_counter()
    open_pages(engine, athlete_id, args.pages, load)
    cpu, wall = time.process_time() - started_cpu, time.perf_counter() - started
    if args.profile:
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(40)
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(60)
    per_page = 1000 / args.pages
    print(f"{args.pages} page loads: CPU {cpu * per_page:.2f} ms per page, wall {wall * per_page:.2f} ms")


if __name__ == "__main__":
    main()
