"""Every failure a command meets ends as one line on stderr, never a traceback."""

from __future__ import annotations

from sqlalchemy.exc import DBAPIError

from domain.errors import DomainError


class CommandError(Exception):
    """An expected failure of a command; its message is the line to show."""


def one_line(exc: BaseException) -> str:
    if isinstance(exc, CommandError | DomainError):
        return reason(exc)
    if isinstance(exc, DBAPIError):
        return f"database error: {reason(exc)}"
    if isinstance(exc, OSError) and exc.strerror:
        return reason(exc)
    return f"{type(exc).__name__}: {reason(exc)}"


def reason(exc: BaseException) -> str:
    """The first line of what went wrong, from the driver's own error when there is one."""
    if isinstance(exc, DBAPIError) and exc.orig is not None:
        return reason(exc.orig)
    if isinstance(exc, OSError) and exc.strerror:
        return f"{exc.strerror}: {exc.filename}" if exc.filename else exc.strerror
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__
