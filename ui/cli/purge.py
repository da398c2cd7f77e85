"""`memory-review purge [--dry-run]`: apply the retention periods from the command line."""

from __future__ import annotations

import argparse

from domain.actors import SYSTEM
from domain.proposals import expire_stale
from domain.retention import plan_purge, run_purge
from persistence.settings import Settings, retention_periods
from persistence.uow import unit_of_work
from ui.cli.command import Commands, add_command, open_database


def register(commands: Commands) -> None:
    parser = add_command(commands, "purge", "remove what the retention periods say is due", _purge)
    parser.epilog = "Periods in days: MEMORY_REVIEW_{ARCHIVED,PROPOSAL,ACCESS_EVENT}_RETENTION_DAYS (default 90)."
    parser.add_argument("--dry-run", action="store_true", help="only list what a purge would remove")


def _purge(args: argparse.Namespace, settings: Settings) -> int:
    with open_database(settings) as engine:
        if not args.dry_run:  # a dry run changes nothing; a run first expires what is past its age
            with unit_of_work(engine) as session:
                expire_stale(session, max_age=settings.proposal_max_age)
        with unit_of_work(engine, read_only=True) as session:
            plan = plan_purge(session, SYSTEM, periods=retention_periods(settings))
        print("A purge would remove:" if args.dry_run else "Purging:")
        for line in plan.lines():
            print(f"  {line}")
        if args.dry_run or plan.is_empty:
            print("Nothing removed (dry run)." if args.dry_run else "Nothing to remove.")
            return 0
        with unit_of_work(engine) as session:
            result = run_purge(session, SYSTEM, plan=plan)
        for line in result.lines():
            print(line)
    return 0
