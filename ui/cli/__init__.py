"""The `memory-review` command line: the parser, put together from one module per command group.

Expected errors (bad input, unknown athlete, unreadable file, unreachable database) print one
line on stderr and exit 1; usage errors, and a call without a command, print help and exit 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, version

from pydantic import ValidationError

from persistence.settings import Settings
from ui.cli import audit, backup, db, desktop, ingest, purge, serve, tokens, users
from ui.cli import export as export_command
from ui.cli import imports as import_command
from ui.cli.command import Handler
from ui.cli.errors import CommandError, one_line

DISTRIBUTION = "memory-review"


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    handler: Handler | None = args.handler
    if handler is None:
        args.help_of.print_help(sys.stderr)
        return 2
    try:
        return handler(args, _settings(args.db))
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # one clear line instead of a traceback
        print(f"error: {one_line(exc)}", file=sys.stderr)
        return 1


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=DISTRIBUTION,
        description="Memory Review: see, correct and own what your AI coach remembers about you.",
        epilog="Settings come from MEMORY_REVIEW_* environment variables. "
        f"'{DISTRIBUTION} COMMAND --help' explains a command.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    parser.set_defaults(handler=None, help_of=parser)
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")
    for register in (serve.register, db.register, users.register, audit.register, ingest.register, purge.register):
        register(commands)
    tokens.register(commands)
    backup.register(commands)
    export_command.register(commands)
    import_command.register(commands)
    desktop.register(commands)
    return parser


def _version() -> str:
    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:
        return "(version unknown: not installed)"


def _settings(database_url: str | None) -> Settings:
    try:
        return Settings(database_url=database_url) if database_url else Settings()
    except ValidationError as exc:
        problem = exc.errors()[0]
        name = "MEMORY_REVIEW_" + "_".join(str(part) for part in problem["loc"]).upper()
        raise CommandError(f"{name}: {problem['msg']}.") from None
