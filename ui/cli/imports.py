"""`memory-review import`: a file's memories become proposals for the athlete to review."""

from __future__ import annotations

import argparse
from pathlib import Path

from domain.actors import SystemActor
from domain.errors import InvalidInput
from persistence.settings import Settings
from persistence.uow import unit_of_work
from ui.cli.command import Commands, add_command, open_database

CLI = SystemActor("cli")


def register(commands: Commands) -> None:
    parser = add_command(
        commands, "import", "propose the memories in a file (M13 YAML, PAM JSON, or one per line) for review", _import
    )
    parser.add_argument("--athlete", required=True, metavar="NAME", help="login name of the athlete")
    parser.add_argument("file", metavar="FILE", help="the file to import")


def _read(name: str) -> bytes:
    # Imported when run: the other commands start without these modules and what they import.
    from domain.import_parse import MAX_IMPORT_BYTES

    try:
        with open(name, "rb") as handle:
            return handle.read(MAX_IMPORT_BYTES + 1)  # past the cap the check says so without reading it all
    except OSError as exc:
        raise InvalidInput(f"Cannot read {name}: {exc.strerror}.") from None


def _import(args: argparse.Namespace, settings: Settings) -> int:
    from domain.imports import import_file
    from domain.ingest import find_athlete

    data = _read(args.file)
    with open_database(settings) as engine, unit_of_work(engine) as session:
        athlete = find_athlete(session, args.athlete)
        result = import_file(session, CLI, athlete=athlete, file_name=Path(args.file).name, data=data)
    print(result.plan.summary())
    print(f"'{athlete.username}' reviews them on the Context page.")
    return 0
