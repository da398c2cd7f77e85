"""The `memory-review` command line. Errors exit non-zero with one clear line."""

from __future__ import annotations

import argparse
import getpass
import sys
from collections.abc import Callable, Sequence

from sqlalchemy import Engine

from domain.audit import verify_chain
from domain.enums import Role
from domain.errors import DomainError
from persistence.engine import make_engine
from persistence.migrate import upgrade
from persistence.settings import Settings
from persistence.uow import unit_of_work

Handler = Callable[[argparse.Namespace, Settings], int]


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    settings = Settings(database_url=args.db) if getattr(args, "db", None) else Settings()
    handler: Handler = args.handler
    try:
        return handler(args, settings)
    except DomainError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # one clear line instead of a traceback
        print(f"error: {type(exc).__name__}: {exc}".splitlines()[0], file=sys.stderr)
        return 1


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="memory-review", description="Memory Review: athlete memory you own.")
    commands = parser.add_subparsers(required=True, metavar="COMMAND")

    serve = commands.add_parser("serve", help="start the web app")
    serve.add_argument("--host", default=None)
    serve.add_argument("--port", type=_port, default=None)
    serve.add_argument("--db", metavar="URL", help="database URL (default: SQLite in the user data dir)")
    serve.add_argument("--demo", action="store_true", help="load the demo data set into an empty database")
    serve.set_defaults(handler=_serve)

    db = commands.add_parser("db", help="database maintenance").add_subparsers(required=True, metavar="ACTION")
    up = db.add_parser("upgrade", help="apply migrations")
    up.add_argument("--db", metavar="URL")
    up.set_defaults(handler=_db_upgrade)

    user = commands.add_parser("user", help="user accounts").add_subparsers(required=True, metavar="ACTION")
    create = user.add_parser("create", help="create a user")
    create.add_argument("name")
    create.add_argument("--role", choices=[r.value for r in Role], required=True)
    create.add_argument("--display-name")
    create.add_argument("--password-stdin", action="store_true", help="read the password from standard input")
    create.add_argument("--db", metavar="URL")
    create.set_defaults(handler=_user_create)

    audit = commands.add_parser("audit", help="the audit log").add_subparsers(required=True, metavar="ACTION")
    verify = audit.add_parser("verify", help="recompute the hash chain")
    verify.add_argument("--db", metavar="URL")
    verify.set_defaults(handler=_audit_verify)

    from ui.cli_more import add_commands

    add_commands(commands)
    return parser


def _port(value: str) -> int:
    try:
        port = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {value!r}") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"port must be 1–65535, got {port}")
    return port


def ready_engine(settings: Settings) -> Engine:
    engine = make_engine(settings.effective_database_url)
    upgrade(engine)
    return engine


def _serve(args: argparse.Namespace, settings: Settings) -> int:
    from ui.server import run

    host = args.host or settings.host
    port = args.port or settings.port
    print(f"Memory Review: http://{'localhost' if host in ('127.0.0.1', '0.0.0.0') else host}:{port}/")
    print(f"Database: {settings.effective_database_url}")
    if args.demo:
        print("Demo logins: alex / demo-alex, sam / demo-sam (athletes), admin / demo-admin (admin)")
    sys.stdout.flush()
    run(settings, demo=args.demo, host=host, port=port)
    return 0


def _db_upgrade(args: argparse.Namespace, settings: Settings) -> int:
    ready_engine(settings)
    print(f"Database is up to date: {settings.effective_database_url}")
    return 0


def _user_create(args: argparse.Namespace, settings: Settings) -> int:
    from domain.users import create_user

    if args.password_stdin:
        password = sys.stdin.readline().rstrip("\n")
    else:
        password = getpass.getpass("Password: ")
        if password != getpass.getpass("Repeat password: "):
            print("error: the passwords differ", file=sys.stderr)
            return 1
    with unit_of_work(ready_engine(settings)) as session:
        user = create_user(
            session,
            None,
            username=args.name,
            password=password,
            role=Role(args.role),
            display_name=args.display_name,
            bootstrap=True,
        )
        print(f"Created {user.role.value} '{user.username}'.")
    return 0


def _audit_verify(args: argparse.Namespace, settings: Settings) -> int:
    with unit_of_work(ready_engine(settings), read_only=True) as session:
        report = verify_chain(session)
    print(report.summary(), file=sys.stdout if report.ok else sys.stderr)
    return 0 if report.ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
