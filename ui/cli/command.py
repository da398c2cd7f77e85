"""What every command shares: how it is added to the parser, its --db option, its database."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeAlias

from sqlalchemy import Engine, make_url
from sqlalchemy.exc import DBAPIError

from persistence.ready import ready_engine
from persistence.settings import Settings
from ui.cli.errors import CommandError, reason

Handler: TypeAlias = Callable[[argparse.Namespace, Settings], int]
Commands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


def add_group(commands: Commands, name: str, summary: str) -> Commands:
    """A command that only holds actions; called without one, it prints its help."""
    parser = commands.add_parser(name, help=summary, description=summary)
    parser.set_defaults(handler=None, help_of=parser)
    return parser.add_subparsers(title="actions", metavar="ACTION")


def add_command(commands: Commands, name: str, summary: str, handler: Handler) -> argparse.ArgumentParser:
    parser = commands.add_parser(name, help=summary, description=summary)
    parser.add_argument(
        "--db",
        metavar="URL",
        help="database URL (default: MEMORY_REVIEW_DATABASE_URL, else SQLite in the user data dir)",
    )
    parser.set_defaults(handler=handler)
    return parser


@contextmanager
def open_database(settings: Settings) -> Iterator[Engine]:
    """The migrated database, or one clear line saying which database could not be used and why."""
    try:
        engine = ready_engine(settings)
    except (DBAPIError, OSError) as exc:
        raise CommandError(f"Cannot open the database {database_label(settings)}: {reason(exc)}") from None
    try:
        yield engine
    finally:
        engine.dispose()


def database_label(settings: Settings) -> str:
    """The database URL without its password, fit to print."""
    return make_url(settings.effective_database_url).render_as_string(hide_password=True)
