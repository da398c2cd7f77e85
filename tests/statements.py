"""The SQL statements an engine runs, as the tests that read their plans or count them capture them."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Connection, Engine, event

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


def plan_nodes_of(raw: Any) -> list[dict[str, Any]]:
    """Every node of a plan PostgreSQL gave as JSON (EXPLAIN (FORMAT JSON)), the top node first."""
    plan = raw if isinstance(raw, list) else json.loads(raw)
    nodes: list[dict[str, Any]] = []
    waiting = [plan[0]["Plan"]]
    while waiting:
        node = waiting.pop(0)
        nodes.append(node)
        waiting[:0] = node.get("Plans", [])
    return nodes


def plan_nodes(connection: Connection, statement: Statement, *, analyze: bool = False) -> list[dict[str, Any]]:
    """The nodes of the plan PostgreSQL makes for a captured statement; `analyze`: run it, with actual rows."""
    options = "ANALYZE, FORMAT JSON" if analyze else "FORMAT JSON"
    return plan_nodes_of(connection.exec_driver_sql(f"EXPLAIN ({options}) {statement[0]}", statement[1]).scalar_one())
