"""Full-text search over memory content: FTS5 on SQLite, tsvector on PostgreSQL.

The user's words become a query of quoted prefix terms, always bound as a parameter.

On SQLite every memory is also indexed under tokens that carry its athlete: "knee" in a
memory of athlete 7 is indexed as `bbbbbjknee` too (the athlete id written with consonants,
fixed width). An athlete's search asks for those tokens only, so its cost follows how often the
athlete wrote the word, not how often everyone did (a common word had 270,106 matches in the
whole database for 262 of one athlete's). Consonants only: Porter stemming, which the index
applies to every token, then treats the owner mark like a word's leading consonants and stems
the word exactly as it stems it alone.
"""

from __future__ import annotations

import json
import re
from typing import Any

from sqlalchemy import ColumnElement, Select, bindparam, func, literal_column, select, text
from sqlalchemy.orm import Session

from domain.models import Memory

MAX_TERMS = 10
TS_CONFIG = "english"
OWNED_TOKENS_FUNCTION = "mr_owned_tokens"  # registered on every SQLite connection (persistence/engine.py)
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_CONSONANTS = "bcdfghjklmnpqrstvwxz"
_OWNER_WIDTH = 6  # 20**6 = 64 million athletes


def search_terms(user_text: str) -> list[str]:
    return _WORD.findall(user_text.lower())[:MAX_TERMS]


def owner_mark(athlete_id: int) -> str:
    digits = []
    for _ in range(_OWNER_WIDTH):
        athlete_id, digit = divmod(athlete_id, len(_CONSONANTS))
        digits.append(_CONSONANTS[digit])
    return "".join(reversed(digits))


def owned_tokens(athlete_id: int, content: str, tags: Any) -> str:
    """The words of a memory's content and tags, each marked with its athlete (see above)."""
    tag_list = json.loads(tags) if isinstance(tags, str) else (tags or [])
    mark = owner_mark(int(athlete_id))
    words = _WORD.findall(" ".join([content or "", *map(str, tag_list)]).lower())
    return " ".join(mark + word for word in words)


def text_match(session: Session, user_text: str, athlete_id: int | None = None) -> ColumnElement[bool]:
    """Every word of `user_text` as a prefix, in one athlete's memories when `athlete_id` is given."""
    terms = search_terms(user_text)
    if not terms:
        return literal_column("1") == literal_column("1")
    dialect = session.get_bind().dialect.name
    if dialect == "sqlite":
        if athlete_id is None:
            fts_query = "{content tags} : " + " ".join(f'"{term}"*' for term in terms)
        else:
            mark = owner_mark(athlete_id)
            fts_query = "owned : " + " ".join(f'"{mark}{term}"*' for term in terms)
        matching: Select[Any] = (
            select(literal_column("rowid"))
            .select_from(text("memories_fts"))
            .where(text("memories_fts MATCH :fts_query").bindparams(bindparam("fts_query", fts_query)))
        )
        return Memory.id.in_(matching)
    ts_query = " & ".join(f"{term}:*" for term in terms)
    return func.to_tsvector(TS_CONFIG, Memory.content).bool_op("@@")(func.to_tsquery(TS_CONFIG, ts_query))
