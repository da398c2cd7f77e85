"""The rules' alternations regrouped (domain.extraction.alternation) find what the patterns as written find: the same
spans, from the same alternative, on every labelled text and hostile input."""

from __future__ import annotations

import re

import pytest

from domain import vocabulary
from domain.extraction import rules
from domain.extraction.alternation import optimized
from domain.extraction.prefilter import split_alternatives
from tests.extraction_eval import DEV_PATH, load_cases
from tests.hostile import hostile_inputs

TEXTS = [c.text.lower() for c in load_cases(DEV_PATH)] + [h.text for h in hostile_inputs() if isinstance(h.text, str)]
PATTERNS = {r.name: r.pattern.pattern for r in rules.RULES} | {
    f"lexicon {lex.kind}": lex.lower_pattern.pattern for lex in (vocabulary.BODY, vocabulary.TIME, vocabulary.CONTEXT)
}


def _spans(pattern: re.Pattern[str], text: str) -> list[tuple[int, int]]:
    return [m.span() for m in pattern.finditer(text)]


@pytest.mark.parametrize("name", sorted(PATTERNS))
def test_a_regrouped_rule_matches_what_it_matched(name: str) -> None:
    anywhere, _ = split_alternatives(PATTERNS[name])
    source = "|".join(anywhere) or PATTERNS[name]
    plain, regrouped = re.compile(source), re.compile(optimized(source))
    for text in TEXTS:
        assert _spans(regrouped, text) == _spans(plain, text), (name, text[:60])


@pytest.mark.parametrize(
    ("pattern", "text", "span"),
    [
        (r"a|ab", "ab", (0, 1)),  # the first alternative that matches wins, as written
        (r"ab|a", "ab", (0, 2)),
        (r"\bknee|\bkneecap|calf", "my kneecap", (3, 7)),
        (r"\bkneecap|\bknee|calf", "my kneecap", (3, 10)),
        (r"x\w+|xy|\bxyz", "xyz", (0, 3)),
        (r"\bon\s+call|\bon\s+my\s+feet|(?:on|at)\s+work", "at work", (0, 7)),
    ],
)
def test_the_first_alternative_that_matches_still_wins(pattern: str, text: str, span: tuple[int, int]) -> None:
    m = re.compile(optimized(pattern)).search(text)
    assert m is not None and m.span() == span


def test_a_case_blind_alternation_keeps_its_order() -> None:
    pattern = r"\bK\w*|\bkelvin|\bKe"
    regrouped = re.compile(optimized(pattern, re.IGNORECASE), re.IGNORECASE)
    for text in ("kelvin", "Kelvin", "\u212aelvin", "KE"):
        assert regrouped.search(text).span() == re.search(pattern, text, re.IGNORECASE).span()  # type: ignore[union-attr]


def test_a_pattern_with_capturing_groups_is_left_as_written() -> None:
    assert optimized(r"(a)b|(a)c") == r"(a)b|(a)c"
