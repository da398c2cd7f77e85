"""The look-ahead that speeds up the rules' patterns (domain/extraction/prefilter.py) never changes a match."""

from __future__ import annotations

import re

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from domain import vocabulary
from domain.extraction import facts, injuries, lexicon, rules
from domain.extraction.extractor import _TRIGGER_LOW_RE, _TRIGGER_RE
from domain.extraction.prefilter import fast_pattern, split_anchored
from tests.extraction_eval import DEV_PATH
from tests.hostile import hostile_inputs

PAIRS = {
    "trigger": (_TRIGGER_RE.pattern, _TRIGGER_LOW_RE),
    "run object": (rules.RUN_OBJECT_RE.pattern, facts._RUN_OBJECT_LOW_RE),
    "symptom": (injuries._SYMPTOM_RE.pattern, injuries._SYMPTOM_LOW_RE),
    "recovered": (injuries._RECOVERED_RE.pattern, injuries._RECOVERED_LOW_RE),
    "hypothetical": (injuries._HYPOTHETICAL_RE.pattern, injuries._HYPOTHETICAL_LOW_RE),
    **{
        f"lexicon {kind}": (vocabulary.LEXICONS[kind].lower_pattern.pattern, lexicon._LEXICONS[kind].lower_pattern)
        for kind in vocabulary.LEXICONS
    },
}


def _texts() -> list[str]:
    with DEV_PATH.open(encoding="utf-8") as f:
        dev = [str(case["text"]) for case in yaml.safe_load(f)]
    hostile = [h.text for h in hostile_inputs() if isinstance(h.text, str)]
    return [t.lower() for t in dev + hostile]


TEXTS = _texts()


def _spans(pattern: re.Pattern[str], text: str) -> list[tuple[int, int]]:
    return [m.span() for m in pattern.finditer(text)]


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_the_fast_pattern_finds_what_the_plain_one_finds(name: str) -> None:
    plain, fast = re.compile(PAIRS[name][0]), PAIRS[name][1]
    differ = [t[:80] for t in TEXTS if _spans(plain, t) != _spans(fast, t)]
    assert not differ, differ[:3]


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_a_search_within_bounds_agrees(name: str) -> None:
    plain, fast = re.compile(PAIRS[name][0]), PAIRS[name][1]
    for text in TEXTS[:300]:
        for start in (0, 1, len(text) // 2):
            a, b = plain.search(text, start), fast.search(text, start)
            assert (a and a.span()) == (b and b.span()), (name, text[:80], start)


@pytest.mark.parametrize("rule", rules.RULES, ids=lambda r: r.name)
def test_a_rule_finds_where_its_plain_pattern_finds(rule: rules.Rule) -> None:
    """A rule's alternatives anchored at the start are tried apart (split_anchored); it matches where the whole
    pattern matches, from the same position."""
    plain = re.compile(rule.pattern.pattern)
    for text in TEXTS:
        a, b = plain.search(text), facts._search(rule, text)
        assert (a is None) == (b is None), (rule.name, text[:80])
        assert a is None or b is None or a.start() == b.start(), (rule.name, text[:80])


def test_an_opening_group_with_a_caret_is_spread() -> None:
    anywhere, start = split_anchored(r"\bx\b|(?:\bi\s+|^)work\b|^bare\b")
    assert start is not None
    assert anywhere.search("so i work here") and not anywhere.search("work here")
    assert start.match("work here") and start.match("bare")
    assert not start.match("x") and not start.match("so i work here")


def test_most_rules_get_a_look_ahead() -> None:
    sped = [r.name for r in rules.RULES if r.lower_pattern is not None and r.lower_pattern.pattern.startswith("(?")]
    assert len(sped) >= len(rules.RULES) // 2


# Anchored at the clause start as a whole: fast already. Any other rule without a look-ahead has an alternative that
# can start almost anywhere (issue 13: "\b\w+\s+off\s+rota" cost job_context its look-ahead, and ~5% throughput).
_ANCHORED_RULES = {"bare_time_habit", "bare_preference", "request_preference", "compared_preference"}


def test_only_the_rules_anchored_at_the_start_go_without_a_look_ahead() -> None:
    plain = {r.name for r in rules.RULES if r.lower_pattern is None or not r.lower_pattern.pattern.startswith("(?")}
    assert plain == _ANCHORED_RULES


@pytest.mark.parametrize(
    ("pattern", "bounded"),
    [
        (r"\b(?:knee|ankle)\b", True),
        (r"(?:^|\bi\s+)run\b", True),  # "^" matches only where the look-ahead allows it too
        (r"^(?:always|never)\s+run", False),  # anchored as a whole: fast already
        (r"\w+\s+pain", False),  # almost any character can start it
        (r"(?:knee)?", False),  # can match empty
        (r"[^a]bc", False),
        (r"\d+\s*km", True),
    ],
)
def test_which_patterns_get_a_look_ahead(pattern: str, bounded: bool) -> None:
    fast = fast_pattern(pattern)
    assert fast.pattern.startswith(("(?=", "(?:^|(?=")) is bounded


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="knee ankle i run work 0123456789 \n'’-", max_size=60))
def test_generated_text_agrees(text: str) -> None:
    for plain_text, fast in PAIRS.values():
        plain = re.compile(plain_text)
        assert _spans(plain, text) == _spans(fast, text)
    for rule in rules.RULES:
        a, b = re.compile(rule.pattern.pattern).search(text), facts._search(rule, text)
        assert (a and a.start()) == (b and b.start())


def test_the_fast_lexicons_give_the_vocabularys_tags() -> None:
    for text in TEXTS:
        for kind, lex in vocabulary.LEXICONS.items():
            assert lexicon._LEXICONS[kind].tags(text) == lex.tags(text), (kind, text[:80])


@pytest.mark.parametrize(
    ("pattern", "bounded"),
    [
        (r"\bfoo|\b(?:bar|baz)", True),
        (r"(?:\bi\s+|\bwe\s+)run", True),
        (r"\bfoo|bar", False),
        (r"(?:a\s+)?\bfoo", False),
        (r"(?:\b)?foo", False),
    ],
)
def test_the_look_ahead_tries_only_word_boundaries_when_every_alternative_starts_at_one(
    pattern: str, bounded: bool
) -> None:
    fast = fast_pattern(pattern)
    assert fast.pattern.startswith(r"(?=\b") is bounded
    for text in ("foo bar", "xfoo", "a foo", "i run", "xbar baz", "we run", "afoo"):
        assert _spans(re.compile(pattern), text) == _spans(fast, text), (pattern, text)


@pytest.mark.parametrize(
    ("pattern", "head"),
    [
        (r"\bfoo|\b(?:bar|baz)", r"(?=\b(?:ba|fo))"),  # the first two characters of every match
        (r"(?:\bi\s+|\bwe\s+)run", r"(?=\b(?:i\s|we))"),
        (r"\b(?:a|bc)x", r"(?=\b(?:ax|bc))"),  # a short first part: its follower is the second character
        (r"\b(?:ab?)", r"(?=\b[a])"),  # a match may be one character long: only the first is known
        (r"\bk\w+", r"(?=\b[k])"),  # \w after it: nearly any character, so only the first
    ],
)
def test_the_look_ahead_holds_two_characters_where_every_match_has_them(pattern: str, head: str) -> None:
    fast = fast_pattern(pattern)
    assert fast.pattern.startswith(head)
    for text in ("foo bar", "ax bcx", "i run", "we run", "a ab kx", "xbaz", "k"):
        assert _spans(re.compile(pattern), text) == _spans(fast, text), (pattern, text)


@pytest.mark.parametrize("group", [g for g in facts._GROUPS if len(g.rules) > 1], ids=lambda g: g.rules[0].name)
def test_a_group_of_rules_finds_the_first_match_any_of_its_rules_finds(group: facts._Group) -> None:
    """Rules searched as one pattern (facts._GROUPS): the union matches where the earliest of its rules matches, with
    that rule's own match, so a fact is read exactly as the rules one by one read it."""
    for text in TEXTS:
        union = facts._first(group.search, group.match_start, text)
        own = [m for m in (facts._search(rule, text) for rule in group.rules) if m is not None]
        assert (union is None) == (not own), (group.rules[0].name, text[:80])
        if union is not None:
            assert union.start() == min(m.start() for m in own), text[:80]
            assert union.span() in {m.span() for m in own}, text[:80]
