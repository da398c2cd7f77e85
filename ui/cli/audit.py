"""`memory-review audit verify [--full] [--deep]`: recompute the audit log's hash chain, and with
--deep compare every memory with what the log says it should hold."""

from __future__ import annotations

import argparse
import sys

from domain.actors import SYSTEM
from domain.audit_checkpoints import record, verify
from domain.audit_deep import compare_memories
from persistence.settings import Settings
from persistence.uow import unit_of_work
from ui.cli.command import Commands, add_command, add_group, open_database


def register(commands: Commands) -> None:
    audit = add_group(commands, "audit", "the audit log")
    parser = add_command(
        audit,
        "verify",
        "recompute the hash chain since the last verified checkpoint and name the first event that does not match it",
        _verify,
    )
    parser.add_argument("--full", action="store_true", help="recompute the whole chain from its first event")
    parser.add_argument(
        "--deep",
        action="store_true",
        help="also replay the log and compare every memory with it (finds rows changed behind the app's back)",
    )


def _verify(args: argparse.Namespace, settings: Settings) -> int:
    with open_database(settings) as engine:
        with unit_of_work(engine, read_only=True) as session:  # a long read holds up no writer
            report = verify(session, SYSTEM, full=args.full)
        with unit_of_work(engine) as session:
            record(session, SYSTEM, report)
        deep = None
        if args.deep and report.ok:
            with unit_of_work(engine, read_only=True) as session:
                deep = compare_memories(session, SYSTEM)
    print(report.summary(), file=sys.stdout if report.ok else sys.stderr)
    if deep is not None:
        print(deep.summary(), file=sys.stdout if deep.ok else sys.stderr)
    return 0 if report.ok and (deep is None or deep.ok) else 1
