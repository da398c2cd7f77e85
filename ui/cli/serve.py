"""`memory-review serve`: the web app."""

from __future__ import annotations

import argparse
import sys

from persistence.settings import Settings
from ui.cli.command import Commands, add_command, database_label


def register(commands: Commands) -> None:
    serve = add_command(commands, "serve", "start the web app (applies migrations first)", _serve)
    serve.add_argument("--host", help="address to listen on (default: MEMORY_REVIEW_HOST, else 127.0.0.1)")
    serve.add_argument("--port", type=_port, help="port to listen on (default: MEMORY_REVIEW_PORT, else 8080)")
    serve.add_argument("--demo", action="store_true", help="load the demo data set into an empty database")


def _port(value: str) -> int:
    try:
        port = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {value!r}") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"port must be 1–65535, got {port}")
    return port


def _serve(args: argparse.Namespace, settings: Settings) -> int:
    from ui.server import run  # NiceGUI loads only for this command

    host = args.host or settings.host
    port = args.port or settings.port
    print(f"Memory Review: http://{'localhost' if host in ('127.0.0.1', '0.0.0.0') else host}:{port}/")
    print(f"Database: {database_label(settings)}")
    if args.demo:
        print("Demo logins: alex / demo-alex, sam / demo-sam (athletes), admin / demo-admin (admin)")
    sys.stdout.flush()
    run(settings, demo=args.demo, host=host, port=port)
    return 0
