"""Commands of later features, each in its own module with an add_commands(subparsers)."""

from __future__ import annotations

from typing import Any

from ui import cli_ingest, cli_purge


def add_commands(commands: Any) -> None:
    for module in (cli_ingest, cli_purge):
        module.add_commands(commands)
