"""Full-text search over one's own memories, with user text as a parameter only."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine, text

from domain.memories import MemoryQuery, list_memories
from domain.models import User
from domain.schemas import MemoryEdit
from domain.search import owner_mark
from persistence.uow import unit_of_work
from tests.factories import make_memory


def search(engine: Engine, user: User, text: str) -> list[str]:
    with unit_of_work(engine, read_only=True) as session:
        return sorted(m.content for m in list_memories(session, user, query=MemoryQuery(text=text)).items)


@pytest.fixture
def stored(engine: Engine, athlete: User, other_athlete: User) -> None:
    make_memory(engine, athlete, "Left knee pain after long runs")
    make_memory(engine, athlete, "Prefers morning runs before work")
    make_memory(engine, athlete, "Works as a nurse on rotating shifts")
    make_memory(engine, other_athlete, "Knee surgery in 2019")


@pytest.mark.usefixtures("stored")
def test_words_and_prefixes_match_only_own_memories(engine: Engine, athlete: User) -> None:
    assert search(engine, athlete, "knee") == ["Left knee pain after long runs"]
    assert search(engine, athlete, "run") == ["Left knee pain after long runs", "Prefers morning runs before work"]
    assert search(engine, athlete, "morn wor") == ["Prefers morning runs before work"]
    assert search(engine, athlete, "swimming") == []


@pytest.mark.usefixtures("stored")
@pytest.mark.parametrize("hostile", ['knee" OR "', "knee'; DROP TABLE memories; --", "NEAR(knee pain)", "knee*:"])
def test_query_syntax_in_user_text_is_just_text(engine: Engine, athlete: User, hostile: str) -> None:
    assert set(search(engine, athlete, hostile)) <= {"Left knee pain after long runs"}
    assert len(search(engine, athlete, "")) == 3, "the table is intact"
    assert search(engine, athlete, "NEAR(knee pain)") == [], "every word must match; NEAR is a word"


@pytest.mark.usefixtures("stored")
@pytest.mark.parametrize("wordless", ["*", "%_", "  ", "()"])
def test_text_without_words_filters_nothing(engine: Engine, athlete: User, wordless: str) -> None:
    assert len(search(engine, athlete, wordless)) == 3


def test_search_follows_edits(engine: Engine, athlete: User) -> None:
    from domain.memories import edit_memory

    memory = make_memory(engine, athlete, "Prefers morning runs")
    with unit_of_work(engine) as session:
        edit_memory(
            session,
            athlete,
            memory_id=memory.id,
            expected_version=1,
            changes=MemoryEdit(content="Prefers evening runs"),
        )
    assert search(engine, athlete, "morning") == []
    assert search(engine, athlete, "evening") == ["Prefers evening runs"]


@pytest.mark.usefixtures("stored")
def test_stemming_accents_and_tags_still_match(engine: Engine, athlete: User) -> None:
    make_memory(engine, athlete, "Früh laufen ist am schönsten", tags=["time:morning"])
    assert search(engine, athlete, "rotating") == ["Works as a nurse on rotating shifts"]
    assert search(engine, athlete, "running") == ["Left knee pain after long runs", "Prefers morning runs before work"]
    if engine.dialect.name != "sqlite":
        return  # PostgreSQL's tsvector index covers content only, without accent folding (as before)
    assert search(engine, athlete, "fruh") == ["Früh laufen ist am schönsten"]
    assert search(engine, athlete, "morning") == ["Früh laufen ist am schönsten", "Prefers morning runs before work"]


def test_an_athletes_search_reads_only_their_part_of_the_index(
    engine: Engine, athlete: User, other_athlete: User
) -> None:
    """The cost follows the athlete's own matches: another athlete's thousand knees are not visited."""
    if engine.dialect.name != "sqlite":
        pytest.skip("the owner-marked index is SQLite's; PostgreSQL filters its tsvector index by athlete")

    make_memory(engine, athlete, "Knee pain on descents")
    for index in range(300):
        make_memory(engine, other_athlete, f"Knee niggle number {index}")
    assert search(engine, athlete, "knee") == ["Knee pain on descents"]
    with unit_of_work(engine, read_only=True) as session:
        own = session.execute(
            text("SELECT count(*) FROM memories_fts WHERE memories_fts MATCH :q"),
            {"q": f'owned : "{owner_mark(athlete.id)}knee"*'},
        ).scalar_one()
        everyone = session.execute(
            text("SELECT count(*) FROM memories_fts WHERE memories_fts MATCH :q"), {"q": '"knee"*'}
        ).scalar_one()
    assert (own, everyone) == (1, 301)
