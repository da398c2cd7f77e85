"""PostgreSQL: the admin's search of deleted memories across athletes reads no more than its page needs. Work is
read from the plans of the statements list_deleted runs (EXPLAIN), never timed.

A common word ("knee" in 9,180 deleted memories at a million) used to be read whole through the index of marked
words and sorted by deletion time for a page of 25: about 8,000 table pages. Its count stops at COUNT_CAP anyway,
so the page now walks the deletions newest first and keeps the matches; a rare word still reads its few matches
through the words' index. Either way the count reads the words' index alone."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import Engine, insert, select

from domain.admin_deleted import COUNT_CAP, DeletedQuery, list_deleted
from domain.enums import MemoryConfidence, MemorySource, MemoryStatus, MemoryType, Role
from domain.models import Memory, User
from domain.types import utcnow
from domain.visibility import with_inactive
from persistence.uow import unit_of_work
from tests.factories import make_user
from tests.statements import captured, plan_nodes

DELETED_PER_ATHLETE = 800


@pytest.fixture
def deleted_corpus(postgres: Engine) -> User:
    """Four athletes with 800 deleted and 200 active memories each: 'knee' in 3 of 8 deleted ones (1,200 in all,
    over COUNT_CAP), 'sesamoid' in 8 in all. Returns the admin."""
    athletes = [make_user(postgres, name) for name in ("alex", "sam", "kim", "lee")]
    admin = make_user(postgres, "root", Role.ADMIN)
    now = utcnow()
    rows = []
    for a, athlete in enumerate(athletes):
        for n in range(DELETED_PER_ATHLETE + 200):
            deleted = n < DELETED_PER_ATHLETE
            content = (
                f"Sesamoid pain, case {n}"
                if deleted and n < 2
                else f"Knee pain after long runs, week {n}"
                if n % 8 < 3
                else f"Prefers morning runs, week {n}"
            )
            rows.append(
                {
                    "athlete_id": athlete.id,
                    "type": list(MemoryType)[n % len(MemoryType)],
                    "content": content,
                    "source": MemorySource.USER_MESSAGE,
                    "confidence": MemoryConfidence.MEDIUM,
                    "occurrences": 1,
                    "tags": [],
                    "status": MemoryStatus.DELETED if deleted else MemoryStatus.ACTIVE,
                    "deleted_at": now - timedelta(minutes=n * 4 + a) if deleted else None,
                    "created_at": now - timedelta(days=30),
                    "updated_at": now,
                    "version": 1,
                }
            )
    with postgres.begin() as connection:
        connection.execute(insert(Memory), rows)
    with postgres.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        connection.exec_driver_sql("VACUUM ANALYZE memories")
    return admin


def _expected_ids(postgres: Engine, word: str, page: int, size: int = 25) -> list[int]:
    """The page as the plainest query finds it: deleted memories whose content has the word, newest deletion first."""
    with unit_of_work(postgres, read_only=True) as session:
        return list(
            session.scalars(
                select(Memory.id)
                .where(Memory.status == MemoryStatus.DELETED, Memory.content.ilike(f"%{word}%"))
                .order_by(Memory.deleted_at.desc(), Memory.id.desc())
                .offset((page - 1) * size)
                .limit(size)
                .execution_options(**with_inactive())
            )
        )


def _index_names(postgres: Engine, admin: User, word: str, page: int = 1) -> tuple[list[int], int, set[str], set[str]]:
    """The page's ids and total, and the indexes read by its count and by its rows."""
    with unit_of_work(postgres, read_only=True) as session:
        admin_now = session.get(User, admin.id)
        with captured(postgres) as seen:
            result = list_deleted(session, admin_now, query=DeletedQuery(text=word, page=page))
        connection = session.connection()
        searches = [s for s in seen if "mr_owned_tsquery" in s[0]]
        count, rows = searches
        indexes = [
            {str(node["Index Name"]) for node in plan_nodes(connection, statement) if "Index Name" in node}
            for statement in (count, rows)
        ]
        session.rollback()  # the access event list_deleted records is not this test's business
    return [r.memory_id for r in result.rows], result.total, indexes[0], indexes[1]


@pytest.mark.parametrize("page", [1, 3])
def test_a_common_word_walks_the_deletions_newest_first(postgres: Engine, deleted_corpus: User, page: int) -> None:
    ids, total, count_reads, rows_read = _index_names(postgres, deleted_corpus, "knee", page)
    assert total == COUNT_CAP  # shown as "1,000+"
    assert ids == _expected_ids(postgres, "knee", page)
    assert "ix_memories_owned_tsv" not in rows_read  # not every match read and sorted
    assert "ix_memories_status_deleted_at" not in count_reads
    if page == 1:  # deeper pages: at this test's size the planner may prefer another order of reading
        assert "ix_memories_status_deleted_at" in rows_read


def test_a_rare_word_reads_its_matches_through_the_words_index(postgres: Engine, deleted_corpus: User) -> None:
    ids, total, count_reads, rows_read = _index_names(postgres, deleted_corpus, "sesamoid")
    assert total == 8
    assert ids == _expected_ids(postgres, "sesamoid", 1)
    assert rows_read == {"ix_memories_owned_tsv"}
    assert count_reads == {"ix_memories_owned_tsv"}
