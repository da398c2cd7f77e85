"""`memory-review backup PATH` and `memory-review restore PATH` (SQLite; PostgreSQL: pg_dump)."""

from __future__ import annotations

import argparse
from pathlib import Path

from persistence.backup import BackupRefused, backup, restore, sqlite_path
from persistence.settings import Settings
from ui.cli.command import Commands, add_command, open_database
from ui.cli.errors import CommandError


def register(commands: Commands) -> None:
    parser = add_command(
        commands,
        "backup",
        "copy the database to PATH while the app runs (a consistent snapshot, checked), with its audit key beside it",
        _backup,
    )
    parser.add_argument("path", metavar="PATH", type=Path, help="the backup file to write (replaced if it exists)")
    parser = add_command(
        commands,
        "restore",
        "replace the database with the backup at PATH, once it is checked (stop the app first); "
        "the replaced database is kept beside it",
        _restore,
    )
    parser.add_argument("path", metavar="PATH", type=Path, help="a file written by 'memory-review backup'")


def _backup(args: argparse.Namespace, settings: Settings) -> int:
    try:
        sqlite_path(settings)  # PostgreSQL: pg_dump, before connecting to it at all
        with open_database(settings):  # migrated and keyed: the copy is of a current database
            pass
        checked = backup(settings, args.path)
    except BackupRefused as exc:
        raise CommandError(f"Backup failed, nothing was written: {exc}") from None
    print(f"Backed up {checked.memories:,} memories and {checked.events:,} audit events (verified) to {args.path}")
    print(f"Its audit key is in {args.path}.audit-key: keep the two together, and private.")
    return 0


def _restore(args: argparse.Namespace, settings: Settings) -> int:
    try:
        checked, kept = restore(settings, args.path)
    except BackupRefused as exc:
        raise CommandError(f"Not restored, nothing was changed: {exc}") from None
    print(f"Restored {checked.memories:,} memories and {checked.events:,} audit events (verified) from {args.path}")
    if kept is not None:
        print(f"The database it replaced is kept at {kept}")
    return 0
