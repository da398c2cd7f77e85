"""`memory-review export`: an athlete's memory as M13 YAML or Portable AI Memory JSON."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from domain.actors import SystemActor
from domain.export_data import EXPORT_FORMATS
from persistence.settings import Settings
from persistence.uow import unit_of_work
from ui.cli.command import Commands, add_command, open_database

CLI = SystemActor("cli")


def register(commands: Commands) -> None:
    parser = add_command(commands, "export", "write an athlete's memory to a file (M13 YAML or PAM JSON)", _export)
    parser.add_argument("--athlete", required=True, metavar="NAME", help="login name of the athlete")
    parser.add_argument("--format", default="m13", choices=EXPORT_FORMATS, help="m13 (YAML, default) or pam (JSON)")
    parser.add_argument("-o", "--output", metavar="FILE", help="file to write (default: stdout); never overwritten")


def _export(args: argparse.Namespace, settings: Settings) -> int:
    # Imported when run: the other commands start without these modules and what they import.
    from domain.exports import export_memory
    from domain.ingest import find_athlete

    with open_database(settings) as engine, unit_of_work(engine, read_only=True) as session:
        athlete = find_athlete(session, args.athlete)
        exported = export_memory(session, CLI, athlete=athlete, format=args.format)
    if not args.output:
        sys.stdout.write(exported.text)
        return 0
    target = Path(args.output)
    # created whole and new: an existing file is never replaced by an export
    with os.fdopen(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w", encoding="utf-8") as out:
        out.write(exported.text)
    print(f"Wrote {exported.memories} memories of '{athlete.username}' to {target} ({args.format}).", file=sys.stderr)
    return 0
