"""Passwords: argon2 hashes and the rules for a new one. Never stored or logged in clear."""

from __future__ import annotations

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from domain.errors import InvalidInput

MIN_PASSWORD = 8
MAX_PASSWORD = 256
hasher = PasswordHasher()


def check_new_password(password: str) -> None:
    if len(password) < MIN_PASSWORD:
        raise InvalidInput(f"Password: at least {MIN_PASSWORD} characters.", field="password")
    if len(password) > MAX_PASSWORD:
        raise InvalidInput(f"Password: at most {MAX_PASSWORD} characters.", field="password")


def hash_password(password: str) -> str:
    return hasher.hash(password)


def matches(password_hash: str, password: str) -> bool:
    """Whether the password matches the hash (slow by design: argon2 takes a good part of a second)."""
    try:
        return hasher.verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


def needs_rehash(password_hash: str) -> bool:
    return hasher.check_needs_rehash(password_hash)
