"""The dedup preview, decided in memory before anything is written: seen before, replaces, or new."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from domain.dedup import MemoryIndex, normalize
from domain.enums import MemoryConfidence, MemorySource, MemoryType
from domain.models import Memory

NOW = datetime(2026, 11, 22, 8, 0, tzinfo=UTC)


def memory(
    content: str,
    memory_type: MemoryType = MemoryType.PREFERENCE,
    tags: tuple[str, ...] = (),
    *,
    occurrences: int = 1,
    days_ago: int = 0,
) -> Memory:
    """A transient memory: never added to a session."""
    return Memory(
        athlete_id=1,
        type=memory_type,
        content=content,
        source=MemorySource.MANUAL,
        confidence=MemoryConfidence.MEDIUM,
        occurrences=occurrences,
        tags=list(tags),
        updated_at=NOW - timedelta(days=days_ago),
    )


def test_normalize_ignores_case_punctuation_and_spacing() -> None:
    assert normalize("  Prefers   MORNING runs! ") == "prefers morning runs"
    assert normalize("Left-knee pain,\nafter long runs.") == "leftknee pain after long runs"
    assert normalize("Prefers morning runs") != normalize("Prefers evening runs")


def test_the_same_content_is_seen_before_and_counts_again() -> None:
    existing = memory("Prefers morning runs", occurrences=2)
    preview = MemoryIndex([existing]).preview("prefers morning runs.", MemoryType.PREFERENCE, [])
    assert (preview.outcome, preview.memory, preview.occurrences_after) == ("seen_before", existing, 3)


def test_seen_before_ignores_type_and_tags() -> None:
    existing = memory("Prefers morning runs", MemoryType.PREFERENCE, ("time:morning",))
    preview = MemoryIndex([existing]).preview("Prefers morning runs", MemoryType.CONTEXT, ["time:evening"])
    assert preview.outcome == "seen_before"


def test_same_type_and_an_overlapping_tag_replaces() -> None:
    existing = memory("Occasional knee soreness", MemoryType.INJURY_HISTORY, ("body:knee",), occurrences=1)
    preview = MemoryIndex([existing]).preview(
        "Left knee pain after long runs", MemoryType.INJURY_HISTORY, ["body:knee", "activity:long_run"]
    )
    assert (preview.outcome, preview.memory, preview.occurrences_after) == ("replaces", existing, 2)


def test_an_overlapping_tag_of_another_type_does_not_replace() -> None:
    existing = memory("Knee feels strong on hills", MemoryType.TRAINING_RESPONSE, ("body:knee",))
    preview = MemoryIndex([existing]).preview("Left knee pain", MemoryType.INJURY_HISTORY, ["body:knee"])
    assert (preview.outcome, preview.memory, preview.occurrences_after) == ("new", None, 1)


def test_same_type_without_a_shared_tag_is_new() -> None:
    existing = memory("Left knee pain", MemoryType.INJURY_HISTORY, ("body:knee",))
    assert MemoryIndex([existing]).preview("Sore hip", MemoryType.INJURY_HISTORY, ["body:hip"]).outcome == "new"
    assert MemoryIndex([existing]).preview("Sore somewhere", MemoryType.INJURY_HISTORY, []).outcome == "new"


def test_seen_before_wins_over_replaces() -> None:
    tagged = memory("Knee pain on hills", MemoryType.INJURY_HISTORY, ("body:knee",), days_ago=0)
    same = memory("Left knee pain", MemoryType.INJURY_HISTORY, (), days_ago=10)
    preview = MemoryIndex([tagged, same]).preview("Left knee pain", MemoryType.INJURY_HISTORY, ["body:knee"])
    assert (preview.outcome, preview.memory) == ("seen_before", same)


def test_the_most_recently_updated_candidate_is_chosen() -> None:
    older = memory("Knee soreness", MemoryType.INJURY_HISTORY, ("body:knee",), days_ago=30)
    newer = memory("Knee pain after hills", MemoryType.INJURY_HISTORY, ("body:knee",), days_ago=1)
    index = MemoryIndex([older, newer])
    assert index.preview("Left knee pain", MemoryType.INJURY_HISTORY, ["body:knee"]).memory is newer

    twin_old = memory("Prefers trails", occurrences=5, days_ago=20)
    twin_new = memory("prefers trails!", occurrences=2, days_ago=2)
    preview = MemoryIndex([twin_old, twin_new]).preview("Prefers trails", MemoryType.PREFERENCE, [])
    assert (preview.memory, preview.occurrences_after) == (twin_new, 3)


def test_an_empty_index_proposes_new() -> None:
    preview = MemoryIndex([]).preview("Swims on Fridays", MemoryType.CONTEXT, ["context:swimming"])
    assert (preview.outcome, preview.memory, preview.occurrences_after) == ("new", None, 1)


def test_only_a_tag_of_the_types_main_kind_replaces() -> None:
    wrecked = memory("Long runs leave me wrecked", MemoryType.TRAINING_RESPONSE, ("intensity:long run",))
    hungry = MemoryIndex([wrecked]).preview(
        "Long runs make me ravenous", MemoryType.TRAINING_RESPONSE, ["intensity:long run"]
    )
    assert hungry.outcome == "new"
    calves = memory("Calves tight after hills", MemoryType.TRAINING_RESPONSE, ("body:calf", "intensity:hills"))
    sore = MemoryIndex([calves]).preview("Calves sore after intervals", MemoryType.TRAINING_RESPONSE, ["body:calf"])
    assert (sore.outcome, sore.memory) == ("replaces", calves)


def test_a_preference_replaces_on_time_or_intensity_not_on_context() -> None:
    mornings = memory("Prefers mornings", MemoryType.PREFERENCE, ("time:morning", "context:kids"))
    index = MemoryIndex([mornings])
    assert index.preview("Likes evening runs", MemoryType.PREFERENCE, ["time:evening", "context:kids"]).outcome == "new"
    assert index.preview("Runs before sunrise", MemoryType.PREFERENCE, ["time:morning"]).outcome == "replaces"


def test_a_context_replaces_on_its_kind_not_on_a_time() -> None:
    shifts = memory("Works night shifts", MemoryType.CONTEXT, ("context:work", "time:weekend"))
    index = MemoryIndex([shifts])
    assert (
        index.preview("Swims on Saturdays", MemoryType.CONTEXT, ["context:swimming", "time:weekend"]).outcome == "new"
    )
    assert index.preview("Started a new job", MemoryType.CONTEXT, ["context:work"]).outcome == "replaces"


def test_an_insight_still_compares_every_tag() -> None:
    knee = memory("Recurring knee pain", MemoryType.INSIGHT, ("pattern:recurring", "body:knee"))
    assert MemoryIndex([knee]).preview("Knee again", MemoryType.INSIGHT, ["body:knee"]).outcome == "replaces"
