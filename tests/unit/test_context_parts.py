"""The Context page's pure parts: evidence excerpts, word diffs, and the overview's week start."""

from __future__ import annotations

from datetime import UTC, datetime

from domain.overview import week_start
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
        "Tags added: Early",
        "Tags removed: Mornings",
        "Confidence: Medium confidence → Confirmed by you",
        "Seen: 2× → 3×",
    ]
    assert field_changes(None, after) == []


def test_week_start_is_the_monday() -> None:
    assert week_start(datetime(2026, 11, 22, 23, 0, tzinfo=UTC)).isoformat() == "2026-11-16"
