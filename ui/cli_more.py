"""Commands of later features, each in its own module with an add_commands(subparsers)."""

from __future__ import annotations

import importlib
from typing import Any

MODULES = ("ui.cli_ingest", "ui.cli_purge")


def add_commands(commands: Any) -> None:
    for name in MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            continue
        module.add_commands(commands)
