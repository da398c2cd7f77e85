"""Full-text search over one's own memories, with user text as a parameter only."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine

from domain.memories import MemoryQuery, list_memories
from domain.models import User
from domain.schemas import MemoryEdit
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
    assert search(engine, athlete, "morning") == ["Früh laufen ist am schönsten", "Prefers morning runs before work"]
    assert search(engine, athlete, "früh") == ["Früh laufen ist am schönsten"]
    if engine.dialect.name != "sqlite":
        return  # PostgreSQL's english configuration keeps accents (as before)
    assert search(engine, athlete, "fruh") == ["Früh laufen ist am schönsten"]


def test_search_never_returns_another_athletes_memory(engine: Engine, athlete: User, other_athlete: User) -> None:
    """Same words, same tags, neighbouring ids: each athlete finds exactly their own."""
    own = [make_memory(engine, athlete, f"Knee strapping {n}", tags=["body:knee"]).id for n in range(3)]
    theirs = [make_memory(engine, other_athlete, f"Knee strapping {n}", tags=["body:knee"]).id for n in range(3)]
    for words in ("knee", "kne", "knee strapping", "body", "strapping 1"):
        with unit_of_work(engine, read_only=True) as session:
            mine = {m.id for m in list_memories(session, athlete, query=MemoryQuery(text=words)).items}
            others = {m.id for m in list_memories(session, other_athlete, query=MemoryQuery(text=words)).items}
        assert mine and mine <= set(own), words
        assert others and others <= set(theirs), words
