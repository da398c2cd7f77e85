"""Full-text search over memory content and tags: FTS5 on SQLite, a GIN index on PostgreSQL.

The user's words become a query of prefix terms, always bound as a parameter.

Every search reads only its own part of the index. Each memory is indexed under its words
marked with its athlete: "knee" in a memory of athlete 7 is indexed as `bbbbbjknee` on SQLite
(the id in consonants, fixed width); a deleted memory is also indexed under the mark of id 0,
which is no athlete's, for the admin's search of deleted memories. A search asks for marked
words only, so its cost follows how often the athlete (or the deleted set) has the word, not
how often everyone does: a common word had 270,106 matches in the whole database for 262 of
one athlete's. Consonants only: stemming, which both indexes apply to every word, then treats
the mark like a word's leading consonants and stems the word as it stems it alone.

SQLite computes the marked words in `mr_owned_tokens`, registered on every connection by
persistence/engine.py and called by the index's triggers; PostgreSQL in the immutable SQL
functions `mr_owned_tsvector` and `mr_owned_tsquery` that migration 0007 creates, whose mark is
the id in ten consonants. Nothing searches the whole table unmarked.

Statements built once (the Context page's list, domain/memory_lists.py) take a search as a form
and its values (`match_values`), and the condition of each form with its words as bind
parameters (`match_condition`): the same SQL as `text_match` gives, not built again per search.

A word in thousands of an athlete's memories (PostgreSQL): the page reads the athlete's rows in the
order of the list's index and keeps the matches (form "tsvector_many", see `match_condition`), as SQLite's
"fts_common" does; the list asks for it when its bounded count found more than it counts
(domain/memory_lists.py, COUNT_CAP).
"""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any, Literal

from sqlalchemy import (
    ARRAY,
    ColumnElement,
    Integer,
    Select,
    String,
    Text,
    bindparam,
    cast,
    column,
    func,
    literal_column,
    select,
    text,
)
from sqlalchemy.orm import Session

from domain.memory_rows import RowReader, reading
from domain.models import Memory

MAX_TERMS = 10
COMMON_MATCHES = 200  # more matches than this: SQLite reads the list's index and keeps the matches
OWNED_TOKENS_FUNCTION = "mr_owned_tokens"  # registered on every SQLite connection (persistence/engine.py)
DELETED = 0  # the mark of deleted memories: no athlete has id 0
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


def text_match(session: Session, user_text: str, athlete_id: int) -> ColumnElement[bool]:
    """Every word of `user_text` as a prefix, in the memories of one athlete."""
    return _marked_match(session, user_text, athlete_id, by_frequency=True)


def reads_marked_index(session: Session, user_text: str) -> bool:
    """Whether `text_match` reads PostgreSQL's index of marked words (its entries then are the
    athlete's alone, and the athlete needs no index of its own: domain/memory_lists.py's _owner)."""
    return bool(search_terms(user_text)) and session.get_bind().dialect.name == "postgresql"


def owner_column(*, searched: bool) -> ColumnElement[int]:
    """The athlete's column in a list's conditions; `searched`: in PostgreSQL's index of marked words
    (below), with no type filter. That index holds only this athlete's entries for the
    words, which the planner cannot know: given `athlete_id`, it also read every entry of the athlete
    in the (athlete, status, ...) index to intersect with the matches, 17,723 entries for 6,909
    matches ('run', the athlete with 20,000 memories), most of the statement's CPU. `athlete_id + 0`
    is in no index (server CPU per search 22 -> 14 ms; 'plantar', 4.5 -> 0.6 ms). With a type, the
    intersection with (athlete, status, type) does pay: it leaves out the other types' matches."""
    return Memory.athlete_id + literal_column("0") if searched else Memory.athlete_id.expression


def deleted_text_match(session: Session, user_text: str, *, by_index: bool = True) -> ColumnElement[bool]:
    """Every word of `user_text` as a prefix, in deleted memories of any athlete.

    `by_index=False` (PostgreSQL): the same test, written so that the index of marked words cannot serve it. For a
    word in thousands of deleted memories, the first pages are then read newest deletion first and the reading stops
    when the page is full, instead of reading every match and sorting them all (at a million memories, 'knee': 9,180
    matches, about 8,000 table pages, against 139 rows and 164 buffers). SQLite reads its matches' ids either way."""
    return _marked_match(session, user_text, DELETED, by_frequency=False, by_index=by_index)


def _fts_query(mark_id: int, terms: list[str]) -> str:
    mark = owner_mark(mark_id)
    return "owned : " + " ".join(f'"{mark}{term}"*' for term in terms)


def _matching(name: str, **bind: Any) -> Select[Any]:
    """The ids of the index's matches; the query is the bind parameter `name` (made with `bind`)."""
    match = text(f"memories_fts MATCH :{name}").bindparams(bindparam(name, **bind))
    return select(literal_column("rowid")).select_from(text("memories_fts")).where(match)


def _bounded(matching: Select[Any]) -> Select[Any]:
    return select(func.count()).select_from(matching.limit(COMMON_MATCHES + 1).subquery())


def _is_common(session: Session, fts_query: str, count: Any) -> bool:
    """Whether more than COMMON_MATCHES memories match `fts_query` (counted by `count()` in the
    index alone, once per session: a page's count and rows ask alike)."""
    known: dict[str, bool] = session.info.setdefault("common_search_words", {})
    if fts_query not in known:
        known[fts_query] = (count() or 0) > COMMON_MATCHES
    return known[fts_query]


def _by_frequency(session: Session, matching: Select[Any], fts_query: str) -> ColumnElement[int]:
    """The memory id as SQLite's planner should use it, by how many memories match (counted in
    the index alone, up to COMMON_MATCHES + 1). Few: read each match by its id. Many: `id + 0`,
    which no index holds, so the planner reads the athlete's rows in the index of the list's order
    and keeps the matches, stopping when a page is full, instead of reading every match by id and
    sorting them all (a word in 6,281 of 17,797 memories: a page 11 -> 1.2 ms, its count 7.8 -> 4.2 ms)."""
    common = _is_common(session, fts_query, lambda: session.scalar(_bounded(matching)))
    return Memory.id + 0 if common else Memory.id.expression


def _marked_match(
    session: Session, user_text: str, mark_id: int, *, by_frequency: bool, by_index: bool = True
) -> ColumnElement[bool]:
    terms = search_terms(user_text)
    if not terms:
        return literal_column("1") == literal_column("1")
    if session.get_bind().dialect.name == "sqlite":
        fts_query = _fts_query(mark_id, terms)
        matching = _matching("fts_query", value=fts_query, unique=True)
        key = _by_frequency(session, matching, fts_query) if by_frequency else Memory.id.expression
        return key.in_(matching)
    # The same expression as the index ix_memories_owned_tsv, so the planner can use it (by_index=False: it cannot).
    athlete = Memory.athlete_id if by_index else Memory.athlete_id + 0
    owned = func.mr_owned_tsvector(athlete, Memory.status, Memory.content, Memory.tags)
    wanted = func.mr_owned_tsquery(mark_id, bindparam("search_words", terms, type_=ARRAY(Text), unique=True))
    return owned.bool_op("@@")(wanted)


# ---- the same condition in statements built once: a form, and its values as bind parameters ----

MatchForm = Literal["any", "fts", "fts_common", "tsvector", "tsvector_many"]
"""any: no words (every memory matches); fts: SQLite, few matches (read by id); fts_common: SQLite,
many matches (`id + 0`, see _by_frequency); tsvector: PostgreSQL, read through the index of marked
words; tsvector_many: PostgreSQL, many matches, tested row by row (see match_condition)."""

_BOUNDED = RowReader(_bounded(_matching("b_fts_query", type_=String)))


def match_values(session: Session, user_text: str, athlete_id: int) -> tuple[MatchForm, dict[str, Any]]:
    """What `text_match(session, user_text, athlete_id)` is, as `match_condition(form)` and its values."""
    terms = search_terms(user_text)
    if not terms:
        return "any", {}
    if session.get_bind().dialect.name == "sqlite":
        fts_query = _fts_query(athlete_id, terms)
        values = {"b_fts_query": fts_query}
        common = _is_common(session, fts_query, lambda: _BOUNDED.tuples(reading(session), values)[0][0])
        return "fts_common" if common else "fts", values
    return "tsvector", {"b_mark_id": athlete_id, "b_search_words": terms}


@cache
def match_condition(form: MatchForm) -> ColumnElement[bool]:
    """The condition of `match_values`' form, the same SQL as `text_match`'s; its values are bound
    at each run (b_fts_query on SQLite; b_mark_id and b_search_words on PostgreSQL)."""
    if form == "any":
        return literal_column("1") == literal_column("1")
    if form in ("fts", "fts_common"):
        key = Memory.id + 0 if form == "fts_common" else Memory.id.expression
        return key.in_(_matching("b_fts_query", type_=String))
    words = bindparam("b_search_words", type_=ARRAY(Text))
    if form == "tsvector_many":
        return func.ts_match_vq(_PLAIN_TSVECTOR, _PLAIN_TSQUERY.bindparams(words).scalar_subquery())
    owned = func.mr_owned_tsvector(Memory.athlete_id, Memory.status, Memory.content, Memory.tags)
    return owned.bool_op("@@")(func.mr_owned_tsquery(bindparam("b_mark_id", type_=Integer), words))


# "tsvector_many": the words of mr_owned_tsvector and mr_owned_tsquery (migration 0007) without the athlete's
# mark, which the list's own conditions (athlete, status) stand for: a memory matches one exactly when it matches
# the other. No index holds this expression, so the planner reads the athlete's rows in the order of the list's
# index and tests each (to_tsvector of one row, about 7 us: less than half the marked function's 16 us, which
# also marks every word), stopping when the page is full: for 'run' in 6,134 of 17,723 memories, about 70 rows
# for a page of 20 instead of a heap page for every match. The query is computed once per statement. The test is
# `@@`'s own function, ts_match_vq, called by name: the operator's estimate for an expression without statistics is
# that one row in 200 matches, so for an athlete with a few thousand memories the planner read them all and tested
# every one (2,000 memories, 'run': 1,761 rows tested); a function's estimate, a third, is nearer what a word with
# over COUNT_CAP matches has, and the planner walks the index until the page is full (49 rows).
_PLAIN_TSVECTOR = func.to_tsvector(
    literal_column("'english'::regconfig"),
    Memory.content.op("||")(literal_column("' '")).op("||")(cast(Memory.tags, Text)),
)
_PLAIN_TSQUERY = text(
    "SELECT coalesce(string_agg(quote_literal(lexeme) || ':*', ' & '), '')::tsquery "
    "FROM unnest(CAST(:b_search_words AS text[])) AS word, "
    "unnest(tsvector_to_array(to_tsvector('english'::regconfig, word))) AS lexeme"
).columns(column("plain_query"))
