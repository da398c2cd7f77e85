"""`memory-review desktop`: the app in its own window, for the athlete who keeps their memory on this computer."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from persistence.settings import Settings
from ui.cli.command import Commands, add_command
from ui.cli.errors import CommandError


def register(commands: Commands) -> None:
    desktop = add_command(commands, "desktop", "open the app in a window on this computer (no login)", _desktop)
    first = desktop.add_mutually_exclusive_group()
    first.add_argument("--demo", action="store_true", help="on first start, load the demo data set")
    first.add_argument("--empty", action="store_true", help="on first start, begin with no data (the default)")
    desktop.add_argument(
        "--data-dir",
        type=Path,
        metavar="DIR",
        help="folder for the database and the window's settings (default: MEMORY_REVIEW_DATA_DIR, else user data dir)",
    )


def _desktop(args: argparse.Namespace, settings: Settings) -> int:
    data_dir = (args.data_dir or settings.data_dir).expanduser().resolve()
    # The embedded database in the data folder, unless --db names another one.
    local = Settings(data_dir=data_dir, database_url=args.db, session_secret=settings.session_secret)
    os.environ["NICEGUI_STORAGE_PATH"] = str(data_dir / "window-storage")  # read when NiceGUI is imported
    from ui.desktop import first_start, missing_backend

    problem = missing_backend()
    if problem is not None:
        raise CommandError(problem)
    if first_start(local):
        if args.demo:
            print("First start: loading the demo data (you are the athlete 'alex').")
        else:
            print("First start: beginning with no data (run once with --demo on a new data folder for demo data).")
    print(f"Data folder: {data_dir}")
    sys.stdout.flush()
    from ui.desktop import run

    run(local, demo=args.demo)
    return 0
