"""The Context page's pure parts: evidence excerpts, word diffs, and the overview's weekly series."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from itertools import pairwise

from domain.overview import learned_per_week, overview, week_start
from persistence.uow import unit_of_work
from tests.ui.test_context_support import athlete, database
from ui.components.diff import Piece, field_changes, word_diff
from ui.components.evidence import Segment, excerpt


def test_excerpt_marks_the_evidence_and_cuts_long_text_at_words() -> None:
    text = "Warm-up was fine. " * 10 + "Left knee pain started around km 15." + " Walked home slowly." * 10
    start = text.index("Left knee")
    segments = excerpt(text, start, start + len("Left knee pain started around km 15"), context=30)
    assert [s for s in segments if s.marked] == [Segment("Left knee pain started around km 15", marked=True)]
    assert segments[0].text.startswith("…") and segments[-1].text.endswith("…")
    assert "".join(s.text for s in segments).count("  ") == 0


def test_excerpt_without_a_valid_span_shows_the_start_unmarked() -> None:
    assert excerpt("Short note <b>", None, None) == [Segment("Short note <b>")]
    assert excerpt("Short note", 5, 99) == [Segment("Short note")]


def test_word_diff_keeps_reading_order() -> None:
    assert word_diff("Prefers morning runs", "Prefers early morning runs") == [
        Piece("Prefers"),
        Piece(" early", "added"),
        Piece(" morning runs"),
    ]
    assert word_diff("Knee pain", "Hip pain") == [Piece("Knee", "removed"), Piece("Hip", "added"), Piece(" pain")]


def test_field_changes_in_words() -> None:
    before = {"type": "preference", "tags": ["time:morning"], "confidence": "medium", "occurrences": 2}
    after = {"type": "context", "tags": ["time:early"], "confidence": "high", "occurrences": 3}
    assert field_changes(before, after) == [
        "Type: Preference → Context",
        "Tags added: time:early",
        "Tags removed: time:morning",
        "Confidence: Medium confidence → High confidence",
        "Seen: 2× → 3×",
    ]
    assert field_changes(None, after) == []


def test_week_start_is_the_monday() -> None:
    assert week_start(datetime(2026, 11, 22, 23, 0, tzinfo=UTC)).isoformat() == "2026-11-16"


def test_overview_counts_and_learned_per_week(app_database: str) -> None:
    with database(app_database) as engine:
        alex = athlete(engine, "alex")
        with unit_of_work(engine, read_only=True) as session:
            data = overview(session, alex)
            weeks = learned_per_week(session, alex, weeks=30)
    assert data.total == 17  # alex's active demo memories; the two deleted ones are not counted
    assert len(data.learned_per_week) == 12
    assert data.learned_per_week[-1].week_start == week_start(datetime.now(UTC))
    assert sum(w.count for w in weeks) == 17  # all created within 30 weeks (the oldest 150 days ago)
    assert all(b.week_start - a.week_start == timedelta(weeks=1) for a, b in pairwise(weeks))
