"""A prepared, reusable form of one athlete's coach-visible memories, so a context request does not
load and re-read 2,000 memories: word and tag-entity indexes, and the order by the query-free part
of the score. `CoachIndex.ranked` yields exactly what `coach_block.rank` returns (a test checks it),
lazily, so `build_block` stops reading once the block is full.

`IndexCache` keeps one index per athlete and checks it on every use against the athlete's change
stamp, which triggers raise in the same transaction as any change of the athlete's memories, by any
writer (migration 0013, `stamp` below): one primary-key read, whatever the athlete has stored, and
exact across processes and instances sharing the database.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, Connection, Integer, bindparam, func, select
from sqlalchemy.orm import QueryableAttribute, Session
from sqlalchemy.pool import Pool

from domain.coach_block import (
    CONFIDENCE_POINTS,
    Block,
    Candidate,
    Scored,
    block_text,
    build_block,
    rank_key,
    recency_points,
    words,
)
from domain.models import CoachStamp
from domain.prepared import WRITER, Prepared

StaticKey = tuple[int, int, float, int]  # rank_key without the score
# What of a query the ranking depends on: the words it shares with some memory, the tag entities in it.
Signature = tuple[tuple[str, ...], tuple[str, ...]]
BLOCKS_KEPT = 64  # per index and recency window


@dataclass(frozen=True)
class _Base:
    """The order by confidence + recency points, valid while no memory crosses a recency boundary."""

    points: list[int]
    levels: dict[int, list[int]]  # points -> the indexes with that many, in static order
    order: list[int]  # indexes with points > 0, best first
    valid_from: datetime
    valid_until: datetime
    # Blocks built in this window, by the query's signature and max_tokens (`CoachIndex.block`).
    blocks: dict[tuple[Signature, int], Block] = field(default_factory=dict)


class CoachIndex:
    def __init__(self, candidates: Sequence[Candidate]) -> None:
        self.candidates = list(candidates)
        self.by_word: dict[str, list[int]] = defaultdict(list)
        self.by_entity: dict[str, list[int]] = defaultdict(list)
        self.static: list[StaticKey] = []
        for i, candidate in enumerate(self.candidates):
            for word in words(candidate.content):
                self.by_word[word].append(i)
            for tag in candidate.tags:
                self.by_entity[tag.split(":")[-1]].append(i)  # a tag twice counts twice, as in rank()
            self.static.append(rank_key(Scored(candidate, 0))[1:])
        self.order = sorted(range(len(self.candidates)), key=self.static.__getitem__)
        self.position = [0] * len(self.order)  # each index's place in the static order
        for place, i in enumerate(self.order):
            self.position[i] = place
        self.shortest = min((len(block_text(c.content)) for c in self.candidates), default=0)
        self._lacking: dict[str, list[int]] = {}  # a word most memories contain: the ones without it
        self._base: _Base | None = None
        self._lock = threading.Lock()

    def _base_at(self, now: datetime) -> _Base:
        base = self._base
        if base is not None and base.valid_from <= now < base.valid_until:
            return base
        points = [CONFIDENCE_POINTS[c.confidence] + recency_points(c.updated_at, now) for c in self.candidates]
        levels: dict[int, list[int]] = defaultdict(list)
        for i in self.order:
            levels[points[i]].append(i)
        order = [i for level in sorted(levels, reverse=True) if level > 0 for i in levels[level]]
        until = min((_next_boundary(c.updated_at, now) for c in self.candidates), default=now + timedelta(days=1))
        base = _Base(points, dict(levels), order, now, until)
        with self._lock:
            self._base = base
        return base

    def _without(self, word: str) -> list[int]:
        lacking = self._lacking.get(word)
        if lacking is None:
            has = set(self.by_word[word])
            lacking = self._lacking[word] = [i for i in range(len(self.candidates)) if i not in has]
        return lacking

    def signature(self, query: str) -> Signature:
        """Two queries with the same signature rank every memory alike."""
        shared = tuple(sorted(word for word in words(query) if self.by_word.get(word)))
        query_lower = query.lower()
        return shared, tuple(entity for entity in self.by_entity if entity in query_lower)

    def block(self, query: str, now: datetime, max_tokens: int) -> Block:
        """`build_block(self.ranked(query, now), max_tokens)`, kept for the next query with the same
        signature and max_tokens while the query-free order holds (the index itself is kept only while
        the athlete's memories stay as they are). A coach asks the same things again: the bench's
        queries cost 18-146 us of ranking and filling each, a kept block a lookup (issue 9)."""
        base = self._base_at(now)
        key = (self.signature(query), max_tokens)
        block = base.blocks.get(key)
        if block is None:
            block = build_block(self._ranked(key[0], base), max_tokens, shortest=self.shortest)
            if len(base.blocks) >= BLOCKS_KEPT:
                base.blocks.clear()
            base.blocks[key] = block
        return block

    def ranked(self, query: str, now: datetime) -> Iterator[Scored]:
        return self._ranked(self.signature(query), self._base_at(now))

    def _ranked(self, signature: Signature, base: _Base) -> Iterator[Scored]:
        """A memory's score is its base points plus what the query adds. Only the memories the query
        touches are scored one by one: a word most memories contain adds +2 to all (`shift`) and -2 to
        the few without it. The others keep their base level, in static order; level by level, from the
        top, the two are merged, so the cost is what the query touches plus what the block reads, not
        every memory (issue 9: a word such as 'after' in all 2,000 memories of the bench)."""
        shared, entities = signature
        extra: dict[int, int] = {}
        shift = 0
        for word in shared:
            hits = self.by_word[word]
            gain = 2
            if 2 * len(hits) > len(self.candidates):
                shift, hits, gain = shift + 2, self._without(word), -2
            for i in hits:
                extra[i] = extra.get(i, 0) + gain
        for entity in entities:
            for i in self.by_entity[entity]:
                extra[i] = extra.get(i, 0) + 5
        candidates, points = self.candidates, base.points
        if not extra and not shift:
            for i in base.order:
                yield Scored(candidates[i], points[i])
            return
        touched: dict[int, list[int]] = defaultdict(list)  # total -> touched indexes, in static order
        for i in sorted(extra, key=self.position.__getitem__):
            total = points[i] + shift + extra[i]
            if total > 0:
                touched[total].append(i)
        top = max(max(touched, default=0), max(base.levels, default=0) + shift)
        for total in range(top, 0, -1):
            level = base.levels.get(total - shift, ())
            for i in self._merged(level, touched.get(total, ()), extra):
                yield Scored(candidates[i], total)

    def _merged(self, level: Sequence[int], touched: Sequence[int], skip: dict[int, int]) -> Iterator[int]:
        """The untouched of `level` and `touched`, both in static order, as one list in static order."""
        position = self.position
        j = 0
        for i in level:
            if i in skip:
                continue
            while j < len(touched) and position[touched[j]] < position[i]:
                yield touched[j]
                j += 1
            yield i
        yield from touched[j:]


def _next_boundary(updated_at: datetime, now: datetime) -> datetime:
    """When this memory's recency points next change (7 and 30 days after its update)."""
    for days in (7, 30):
        boundary = updated_at + timedelta(days=days)
        if boundary > now:
            return boundary
    return datetime.max.replace(tzinfo=now.tzinfo)


def stamp_columns(athlete_id: ColumnElement[int] | QueryableAttribute[int], dialect: str) -> list[ColumnElement[Any]]:
    """The athlete's change stamp as a statement's columns (the sum of the athlete's rows); on PostgreSQL
    also whether this transaction has written anything (it then has a transaction id). `stamp_of` reads them."""
    rows = select(func.coalesce(func.sum(CoachStamp.stamp), 0)).where(CoachStamp.athlete_id == athlete_id)
    total = rows.scalar_subquery()
    if dialect == "postgresql":
        return [total, func.pg_current_xact_id_if_assigned().is_not(None)]
    return [total]


def stamp_of(connection: Connection, values: Sequence[Any]) -> int | None:
    """The stamp from `stamp_columns`' values read on `connection`, or None when its transaction has
    written (see `stamp`)."""
    if connection.get_execution_options().get(WRITER, False):
        return None  # a unit of work that writes (persistence.uow): its changes may yet roll back
    if len(values) > 1 and values[1]:
        return None
    return int(values[0])


_ATHLETE_ID = bindparam("athlete_id", type_=Integer)
_STAMP = {dialect: Prepared(select(*stamp_columns(_ATHLETE_ID, dialect))) for dialect in ("sqlite", "postgresql")}


def stamp(session: Session, athlete_id: int) -> int | None:
    """The athlete's change stamp as this transaction sees it (one primary-key read), or None when the
    transaction has written and may yet roll back: an index it builds must not be kept under a stamp
    that a later commit could reach with other memories.

    Triggers raise the stamp in the same transaction as every change of the athlete's memories
    (migration 0013), so two reads that see the same stamp see the same memories. Read it before the
    memories: on PostgreSQL each statement has its own snapshot, and memories read later are then as
    new or newer than the stamp says (an index newer than its stamp is only ever rebuilt once more)."""
    connection = session.connection()
    values = _STAMP[connection.dialect.name].run(connection, {"athlete_id": athlete_id}).fetchone()
    return stamp_of(connection, values)


@dataclass(frozen=True)
class KnownStamp:
    """A stamp the caller read already (with the athlete, in one statement): None, keep nothing."""

    value: int | None


class IndexCache:
    """The most recently used athletes' indexes (thread-safe; an index is built outside the lock).

    Entries belong to one database: they are keyed by the engine's connection pool as well (one
    process may open several databases, as the tests do), held weakly so no id is ever reused.
    """

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self._entries: OrderedDict[tuple[int, int], _Entry] = OrderedDict()
        self._lock = threading.Lock()

    def get(
        self,
        session: Session,
        athlete_id: int,
        load: Callable[[], Sequence[Candidate]],
        *,
        known: KnownStamp | None = None,
    ) -> CoachIndex:
        """The athlete's index, made again with `load` unless the one kept has the stamp read now (or
        `known`, read before this call in the same unit of work and before `load` runs)."""
        pool = session.get_bind().engine.pool
        key = (id(pool), athlete_id)
        current = known.value if known is not None else stamp(session, athlete_id)
        if current is None:
            return CoachIndex(load())  # built from changes not yet committed: used once, never kept
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None and entry.pool() is pool and entry.stamp == current:
                self._entries.move_to_end(key)
                return entry.index
        index = CoachIndex(load())
        with self._lock:
            self._entries[key] = _Entry(weakref.ref(pool), current, index)
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)
        return index


@dataclass(frozen=True)
class _Entry:
    pool: weakref.ref[Pool]
    stamp: int
    index: CoachIndex
