"""`memory-review audit verify`: recompute the audit log's hash chain."""

from __future__ import annotations

import argparse
import sys

from domain.audit import verify_chain
from persistence.settings import Settings
from persistence.uow import unit_of_work
from ui.cli.command import Commands, add_command, add_group, open_database


def register(commands: Commands) -> None:
    audit = add_group(commands, "audit", "the audit log")
    add_command(audit, "verify", "recompute the hash chain and name the first event that does not match it", _verify)


def _verify(args: argparse.Namespace, settings: Settings) -> int:
    with open_database(settings) as engine, unit_of_work(engine, read_only=True) as session:
        report = verify_chain(session)
    print(report.summary(), file=sys.stdout if report.ok else sys.stderr)
    return 0 if report.ok else 1
