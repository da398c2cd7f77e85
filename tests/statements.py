"""The SQL statements an engine runs, as the tests that read their plans or count them capture them."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Engine, event

Statement = tuple[str, Any]  # the SQL and its parameters, as the driver got them


@contextmanager
def captured(engine: Engine) -> Iterator[list[Statement]]:
    seen: list[Statement] = []

    def keep(_conn: Any, _cursor: Any, statement: str, parameters: Any, *_: Any) -> None:
        seen.append((statement, parameters))

    event.listen(engine, "before_cursor_execute", keep)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", keep)
