"""`memory-review db upgrade`: bring the schema up to date."""

from __future__ import annotations

import argparse

from persistence.settings import Settings
from ui.cli.command import Commands, add_command, add_group, database_label, open_database


def register(commands: Commands) -> None:
    db = add_group(commands, "db", "database maintenance")
    add_command(db, "upgrade", "apply the migrations the database lacks (serve does this on start too)", _upgrade)


def _upgrade(args: argparse.Namespace, settings: Settings) -> int:
    with open_database(settings):
        print(f"Database is up to date: {database_label(settings)}")
    return 0
