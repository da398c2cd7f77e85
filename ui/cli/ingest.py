"""`memory-review ingest`: send a note or message in from the command line."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from domain.actors import SystemActor
from domain.enums import SourceKind
from domain.errors import InvalidInput
from domain.schemas import MAX_SOURCE_TEXT
from persistence.settings import Settings
from persistence.uow import unit_of_work
from ui.cli.command import Commands, add_command, open_database

CLI = SystemActor("cli")  # how the audit log names text sent in from the command line


def register(commands: Commands) -> None:
    parser = add_command(commands, "ingest", "turn a note or message into proposals for the athlete", _ingest)
    parser.add_argument("--athlete", required=True, metavar="NAME", help="login name of the athlete it is about")
    parser.add_argument(
        "--kind", required=True, metavar="KIND", help=f"what the text is: {', '.join(k.value for k in SourceKind)}"
    )
    parser.add_argument("--ref", required=True, metavar="REF", help="the note's or message's id in the coaching system")
    parser.add_argument("file", nargs="?", default="-", metavar="FILE|-", help="UTF-8 text to read (default: stdin)")


def _read_text(name: str) -> str:
    try:
        raw = sys.stdin.buffer.read(MAX_SOURCE_TEXT * 4 + 1) if name == "-" else Path(name).read_bytes()
    except OSError as exc:
        raise InvalidInput(f"Cannot read {name}: {exc.strerror}.") from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidInput(f"{'Standard input' if name == '-' else name} is not UTF-8 text.") from None


def _ingest(args: argparse.Namespace, settings: Settings) -> int:
    # Imported when run: the other commands start without these modules and what they import.
    from domain.ingest import find_athlete, ingest

    text = _read_text(args.file)
    with open_database(settings) as engine, unit_of_work(engine) as session:
        athlete = find_athlete(session, args.athlete)
        result = ingest(session, athlete=athlete, kind=args.kind, reference=args.ref, text=text, actor=CLI)
        if result.source_text is None:
            print("Nothing to ingest: the text is empty.")
        elif not result.created:
            print(f"Already ingested: {args.kind} {args.ref!r}; nothing new was proposed.")
        elif not result.proposals:
            print("Stored; no memories proposed.")
        for proposal in result.proposals:
            tags = f"  [{', '.join(proposal.tags)}]" if proposal.tags else ""
            print(f"#{proposal.id} {proposal.type.value} ({proposal.confidence.value}): {proposal.content}{tags}")
    return 0
