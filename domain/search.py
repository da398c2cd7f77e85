"""Full-text search over memory content: FTS5 on SQLite, tsvector on PostgreSQL.

The user's words become a query of quoted prefix terms, always bound as a parameter.
"""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy import ColumnElement, Select, bindparam, func, literal_column, select, text
from sqlalchemy.orm import Session

from domain.models import Memory

MAX_TERMS = 10
TS_CONFIG = "english"
_WORD = re.compile(r"[^\W_]+", re.UNICODE)


def search_terms(user_text: str) -> list[str]:
    return _WORD.findall(user_text.lower())[:MAX_TERMS]


def text_match(session: Session, user_text: str) -> ColumnElement[bool]:
    terms = search_terms(user_text)
    if not terms:
        return literal_column("1") == literal_column("1")
    dialect = session.get_bind().dialect.name
    if dialect == "sqlite":
        fts_query = " ".join(f'"{term}"*' for term in terms)
        matching: Select[Any] = (
            select(literal_column("rowid"))
            .select_from(text("memories_fts"))
            .where(text("memories_fts MATCH :fts_query").bindparams(bindparam("fts_query", fts_query)))
        )
        return Memory.id.in_(matching)
    ts_query = " & ".join(f"{term}:*" for term in terms)
    return func.to_tsvector(TS_CONFIG, Memory.content).bool_op("@@")(func.to_tsquery(TS_CONFIG, ts_query))
