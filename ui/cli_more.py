"""Commands that later features add (ingest, purge); kept apart so cli.py stays small."""

from __future__ import annotations

import argparse
from typing import Any


def add_commands(commands: Any) -> None:
    _ = (commands, argparse)
