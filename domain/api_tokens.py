"""API tokens of the coaching system: created, listed and revoked by an admin or the system (the CLI),
checked on every API request.

A token is `mr_` and 43 URL-safe characters (256 random bits). Only its sha256 is stored: a
high-entropy secret needs no slow hash, and a stolen table gives no usable token. The secret is
shown once, when the token is made.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import bindparam, or_, select, update
from sqlalchemy.orm import Session

from domain import audit
from domain.actors import Actor, TokenActor, actor_identity, require_admin_or_system, token_actor
from domain.enums import ApiScope, AuditAction, AuditTarget
from domain.errors import AuthenticationFailed, InvalidInput, NotFound
from domain.models import ApiToken
from domain.prepared import Prepared
from domain.types import utcnow

PREFIX = "mr_"
MAX_SECRET = 100
NAME_PATTERN = re.compile(r"^[A-Za-z][A-Za-z0-9._-]{0,63}$")
LAST_USED_EVERY = timedelta(minutes=1)  # last_used_at is a hint, not a log: at most one write a minute
NOT_FOUND = "API token not found."
SCOPE_VALUES = frozenset(s.value for s in ApiScope)


@dataclass(frozen=True)
class NewToken:
    token: ApiToken
    secret: str  # shown once; never stored


@dataclass(frozen=True)
class Caller:
    """An authenticated token, as a request carries it (plain data, safe across threads)."""

    token_id: int
    name: str
    scopes: frozenset[ApiScope]

    @property
    def actor(self) -> TokenActor:
        return token_actor(self.token_id, self.name)


def secret_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def parse_scopes(values: Iterable[str]) -> list[ApiScope]:
    scopes: list[ApiScope] = []
    for raw in values:
        value = raw.strip().lower()
        if not value:
            continue
        try:
            scope = ApiScope(value)
        except ValueError:
            allowed = ", ".join(s.value for s in ApiScope)
            raise InvalidInput(f"Scope: unknown value {raw[:40]!r}; allowed: {allowed}.", field="scopes") from None
        if scope not in scopes:
            scopes.append(scope)
    if not scopes:
        raise InvalidInput("Scope: give at least one of ingest, read.", field="scopes")
    return sorted(scopes)


def _active(session: Session, name: str) -> ApiToken | None:
    return session.scalar(select(ApiToken).where(ApiToken.name == name, ApiToken.revoked_at.is_(None)))


def create_token(session: Session, actor: Actor | None, *, name: str, scopes: Iterable[str]) -> NewToken:
    who = require_admin_or_system(actor)
    name = name.strip()
    if not NAME_PATTERN.match(name):
        raise InvalidInput(
            "Name: 1–64 characters, letters, digits, '.', '_' or '-', starting with a letter.", field="name"
        )
    scope_list = parse_scopes(scopes)
    if _active(session, name) is not None:
        raise InvalidInput(f"Name: a token named '{name}' exists; revoke it first.", field="name")
    secret = PREFIX + secrets.token_urlsafe(32)
    token = ApiToken(
        name=name,
        token_hash=secret_hash(secret),
        scopes=[s.value for s in scope_list],
        created_at=utcnow(),
        created_by=actor_identity(who)[1],
    )
    session.add(token)
    session.flush()
    audit.record(
        session,
        actor=who,
        action=AuditAction.TOKEN_CREATE,
        target_type=AuditTarget.API_TOKEN,
        target_id=token.id,
        athlete_id=None,
        after={"name": name, "scopes": list(token.scopes)},
    )
    return NewToken(token, secret)


def list_tokens(session: Session, actor: Actor | None, *, include_revoked: bool = True) -> list[ApiToken]:
    """Active tokens first, then revoked ones; newest first within each."""
    require_admin_or_system(actor)
    stmt = select(ApiToken)
    if not include_revoked:
        stmt = stmt.where(ApiToken.revoked_at.is_(None))
    return list(session.scalars(stmt.order_by(ApiToken.revoked_at.is_not(None), ApiToken.id.desc())))


def revoke_token(session: Session, actor: Actor | None, *, name_or_id: str | int) -> ApiToken:
    """Revoke by id (digits) or by the name of an active token. Revoking twice changes nothing."""
    who = require_admin_or_system(actor)
    key = str(name_or_id).strip()
    token = session.get(ApiToken, int(key)) if key.isdigit() else _active(session, key)
    if token is None:
        raise NotFound(NOT_FOUND)
    if token.revoked_at is not None:
        return token
    token.revoked_at = utcnow()
    session.flush()
    audit.record(
        session,
        actor=who,
        action=AuditAction.TOKEN_REVOKE,
        target_type=AuditTarget.API_TOKEN,
        target_id=token.id,
        athlete_id=None,
        before={"name": token.name, "scopes": list(token.scopes), "revoked": False},
        after={"name": token.name, "scopes": list(token.scopes), "revoked": True},
    )
    return token


# What a request's token check reads of its row; `caller_of` takes these values (None: no such token).
TOKEN_COLUMNS = (ApiToken.id, ApiToken.name, ApiToken.scopes, ApiToken.revoked_at.is_(None), ApiToken.token_hash)
_BY_HASH = Prepared(select(*TOKEN_COLUMNS).where(ApiToken.token_hash == bindparam("token_hash")))


def secret_to_look_up(secret: str) -> str:
    """The hash to look the secret's token up by; AuthenticationFailed, before any query, for what no
    token can be."""
    if not secret.startswith(PREFIX) or len(secret) > MAX_SECRET:
        raise AuthenticationFailed("Invalid API token.")
    return secret_hash(secret)


def authenticate(session: Session, secret: str) -> Caller:
    """The active token this secret belongs to; AuthenticationFailed for anything else.

    The lookup is by hash, so its timing says nothing about the secret; the final comparison
    is constant-time all the same. It runs on every API request, so as one fixed statement on the
    driver's cursor (domain.prepared): the ORM's select of the row cost several times SQLite's work.
    (The context route reads the token with its athlete in one statement: domain.coach_context.)
    """
    wanted = secret_to_look_up(secret)
    row = _BY_HASH.run(session.connection(), {"token_hash": wanted}).fetchone()
    return caller_of(row, wanted)


def caller_of(values: Sequence[Any] | None, wanted: str) -> Caller:
    """The caller from a row of TOKEN_COLUMNS looked up by `wanted` (the secret's hash)."""
    if values is None or values[0] is None or not hmac.compare_digest(values[4], wanted):
        raise AuthenticationFailed("Invalid API token.")
    token_id, name, raw_scopes, active, _ = values
    if not active:
        raise AuthenticationFailed("This API token was revoked.")
    stored = json.loads(raw_scopes) if isinstance(raw_scopes, str | bytes) else raw_scopes  # SQLite: JSON text
    scopes = frozenset(ApiScope(s) for s in stored or () if s in SCOPE_VALUES)
    return Caller(token_id=int(token_id), name=str(name), scopes=scopes)


_NOTE_USE = Prepared(
    update(ApiToken)
    .where(
        ApiToken.id == bindparam("token_id"),
        or_(ApiToken.last_used_at.is_(None), ApiToken.last_used_at <= bindparam("due")),
    )
    .values(last_used_at=bindparam("now"))
)


def note_use(session: Session, token_id: int, *, now: datetime | None = None) -> None:
    """Keep last_used_at roughly current without writing it on every request (one fixed UPDATE that
    changes the row only when its last_used_at is a minute old or unset; domain.prepared)."""
    now = now or utcnow()
    _NOTE_USE.run(session.connection(), {"token_id": token_id, "due": now - LAST_USED_EVERY, "now": now})
