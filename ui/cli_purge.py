"""`memory-review purge [--dry-run]`: apply the retention periods from the command line."""

from __future__ import annotations

import argparse
from typing import Any

from domain.proposals import expire_stale
from domain.retention import RetentionPeriods, plan_purge, run_purge
from persistence.settings import Settings
from persistence.uow import unit_of_work


def add_commands(commands: Any) -> None:
    parser = commands.add_parser("purge", help="remove what the retention periods say is due")
    parser.add_argument("--dry-run", action="store_true", help="only list what a purge would remove")
    parser.add_argument("--db", metavar="URL")
    parser.set_defaults(handler=_purge)


def retention_periods(settings: Settings) -> RetentionPeriods:
    return RetentionPeriods(
        archived_days=settings.archived_retention_days,
        proposal_days=settings.proposal_retention_days,
        access_days=settings.access_event_retention_days,
    )


def _purge(args: argparse.Namespace, settings: Settings) -> int:
    from ui.cli import ready_engine

    engine = ready_engine(settings)
    if not args.dry_run:  # a dry run changes nothing; a run first expires what is past its age
        with unit_of_work(engine) as session:
            expire_stale(session, max_age=settings.proposal_max_age)
    with unit_of_work(engine, read_only=True) as session:
        plan = plan_purge(session, None, periods=retention_periods(settings), as_system=True)
    print("A purge would remove:" if args.dry_run else "Purging:")
    for line in plan.lines():
        print(f"  {line}")
    if args.dry_run or plan.is_empty:
        print("Nothing removed (dry run)." if args.dry_run else "Nothing to remove.")
        return 0
    with unit_of_work(engine) as session:
        result = run_purge(session, None, plan=plan, as_system=True)
    for line in result.lines():
        print(line)
    return 0
