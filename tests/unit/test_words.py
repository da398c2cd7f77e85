"""Words, not codes (issue 11): tags and sources as an athlete reads them."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from domain.enums import MemorySource
from domain.vocabulary import all_tags
from ui.components.words import source_words, tag_words, tags_words


@pytest.mark.parametrize(
    ("tag", "words"),
    [
        ("body:knee", "Knee"),
        ("intensity:long run", "Long runs"),
        ("time:early morning", "Early morning"),
        ("body:it band", "IT band"),
        ("context:work", "Work"),
        ("context:team sport", "Team sport"),
        ("Club Night", "Club Night"),  # not a kind:value tag: shown as it is
    ],
)
def test_a_tag_in_words(tag: str, words: str) -> None:
    assert tag_words(tag) == words


def test_every_vocabulary_tag_has_words_without_its_code() -> None:
    for tag in all_tags():
        words = tag_words(tag)
        assert ":" not in words and words[:1].isupper(), (tag, words)


def test_tags_in_one_line_without_repeats() -> None:
    assert tags_words(["body:knee", "intensity:long run", "body:knee"]) == "Knee, Long runs"


def test_a_source_in_words() -> None:
    now = datetime(2026, 11, 20, tzinfo=UTC)
    note = datetime(2026, 9, 28, 7, 30, tzinfo=UTC)
    assert source_words(MemorySource.ACTIVITY_NOTE, note, now) == "From your activity note of 28 Sep"
    assert source_words(MemorySource.USER_MESSAGE, note.replace(year=2025), now) == "From your message of 28 Sep 2025"
    assert source_words(MemorySource.USER_MESSAGE, None, now) == "From your message"
    assert source_words(MemorySource.MANUAL, note, now) == "Added by you"
    assert source_words(MemorySource.PATTERN_ANALYSIS, None, now) == "Spotted across your notes"
