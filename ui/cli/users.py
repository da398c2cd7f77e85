"""`memory-review user create`: accounts from the command line, e.g. the first admin."""

from __future__ import annotations

import argparse
import getpass
import sys

from domain.actors import SYSTEM
from domain.enums import Role
from domain.users import create_user
from persistence.settings import Settings
from persistence.uow import unit_of_work
from ui.cli.command import Commands, add_command, add_group, open_database
from ui.cli.errors import CommandError


def register(commands: Commands) -> None:
    users = add_group(commands, "user", "user accounts")
    create = add_command(users, "create", "create an athlete or admin account", _create)
    create.add_argument("name", help="login name (stored in lower case)")
    create.add_argument(
        "--role",
        choices=[role.value for role in Role],
        required=True,
        help="athlete: reviews their own memory; admin: restores, reads the audit log, manages users",
    )
    create.add_argument(
        "--display-name", metavar="TEXT", help="name shown in the app (default: the login name, capitalised)"
    )
    create.add_argument(
        "--password-stdin",
        action="store_true",
        help="read the password from the first line of standard input instead of asking on the terminal",
    )


def _create(args: argparse.Namespace, settings: Settings) -> int:
    password = _read_password(from_stdin=args.password_stdin)
    with open_database(settings) as engine, unit_of_work(engine) as session:
        user = create_user(
            session,
            SYSTEM,
            username=args.name,
            password=password,
            role=Role(args.role),
            display_name=args.display_name,
        )
        print(f"Created {user.role.value} '{user.username}'.")
    return 0


def _read_password(*, from_stdin: bool) -> str:
    if from_stdin:
        return sys.stdin.readline().rstrip("\r\n")
    if not sys.stdin.isatty():
        raise CommandError("No terminal to ask for the password on: pipe it in and add --password-stdin.")
    try:
        password = getpass.getpass("Password: ")
        repeated = getpass.getpass("Repeat password: ")
    except EOFError:
        raise CommandError("No password given.") from None
    if password != repeated:
        raise CommandError("The passwords differ.")
    return password
