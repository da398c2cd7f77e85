"""`memory-review token create|list|revoke`: API tokens for the coaching system."""

from __future__ import annotations

import argparse
from datetime import datetime

from domain.actors import SystemActor
from domain.api_tokens import create_token, list_tokens, revoke_token
from persistence.settings import Settings
from persistence.uow import unit_of_work
from ui.cli.command import Commands, add_command, add_group, open_database

CLI = SystemActor("cli")


def register(commands: Commands) -> None:
    tokens = add_group(commands, "token", "API tokens for the coaching system")
    create = add_command(tokens, "create", "make a token and print it once (only its hash is stored)", _create)
    create.add_argument("name", help="what the token is for, e.g. coach-prod (letters, digits, '.', '_', '-')")
    create.add_argument(
        "--scope",
        required=True,
        metavar="SCOPES",
        help="comma-separated: ingest (send notes and messages in), read (memories and the context block)",
    )
    listing = add_command(tokens, "list", "list tokens: id, name, scopes, created, last used, revoked", _list)
    listing.add_argument("--active", action="store_true", help="leave revoked tokens out")
    revoke = add_command(tokens, "revoke", "revoke a token at once (by id, or by the name of an active one)", _revoke)
    revoke.add_argument("token", metavar="NAME|ID", help="the token's name or id (see `token list`)")


def _create(args: argparse.Namespace, settings: Settings) -> int:
    with open_database(settings) as engine, unit_of_work(engine) as session:
        made = create_token(session, CLI, name=args.name, scopes=args.scope.split(","))
        scopes = ",".join(made.token.scopes)
    print(f"Created token #{made.token.id} '{made.token.name}' (scopes: {scopes}). It is shown only this once:")
    print(made.secret)
    return 0


def _when(at: datetime | None) -> str:
    return at.strftime("%Y-%m-%d %H:%M") if at else "-"


def _list(args: argparse.Namespace, settings: Settings) -> int:
    with open_database(settings) as engine, unit_of_work(engine, read_only=True) as session:
        tokens = list_tokens(session, CLI, include_revoked=not args.active)
    if not tokens:
        print("No tokens.")
        return 0
    print(f"{'ID':>4}  {'NAME':<24} {'SCOPES':<12} {'CREATED':<16} {'LAST USED':<16} REVOKED")
    for t in tokens:
        scopes = ",".join(t.scopes)
        print(
            f"{t.id:>4}  {t.name:<24} {scopes:<12} {_when(t.created_at):<16} {_when(t.last_used_at):<16} "
            f"{_when(t.revoked_at)}"
        )
    return 0


def _revoke(args: argparse.Namespace, settings: Settings) -> int:
    with open_database(settings) as engine, unit_of_work(engine) as session:
        token = revoke_token(session, CLI, name_or_id=args.token)
    print(f"Revoked token #{token.id} '{token.name}'.")
    return 0
