"""Case-insensitive patterns searched on the lower-cased text (domain/extraction/folding.py) find what the pattern
compiled with IGNORECASE finds on the text as written: the same matches at the same places."""

from __future__ import annotations

import importlib
import pkgutil
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import domain.extraction
from domain.extraction.folding import Folded, caseless, fold
from tests.experiments.extraction_texts import labelled_texts


def _folded_patterns() -> dict[str, Folded]:
    found: dict[str, Folded] = {}
    for module_info in pkgutil.iter_modules(domain.extraction.__path__):
        module = importlib.import_module(f"domain.extraction.{module_info.name}")
        for name, value in vars(module).items():
            if isinstance(value, Folded):
                found.setdefault(f"{module_info.name}.{name}", value)
    return found


FOLDED = _folded_patterns()
TEXTS = labelled_texts(held_out=False)
# Characters IGNORECASE folds otherwise than str.lower does, and some it folds alike
ODD = ["\u0130", "\u0131", "\u017f", "\u212a", "\u00c9", "\u00e9", "’", "ß", "ẞ", "Σ", "ς"]


def _spans(pattern: re.Pattern[str] | Folded, text: str) -> list[tuple[tuple[int, int], ...]]:
    return [tuple(m.span(g) for g in range(len(m.groups()) + 1)) for m in pattern.finditer(text)]


def test_the_hot_patterns_are_folded() -> None:
    assert len(FOLDED) >= 10
    # searched the fast way where the text allows; the person references name "fiancé", a letter with a case
    assert {name for name, f in FOLDED.items() if len(f.compiled) == 1} == {"subject._PERSON_REF_RE"}


@pytest.mark.parametrize("name", sorted(FOLDED))
def test_a_folded_pattern_finds_what_ignorecase_finds_in_the_labelled_texts(name: str) -> None:
    folded = FOLDED[name]
    plain = re.compile(folded.pattern, re.IGNORECASE)
    for text in TEXTS:
        assert _spans(folded, text) == _spans(plain, text), text[:80]
        for start in range(0, len(text), 17):
            expected = plain.search(text, start, len(text) - 3)
            got = folded.search(text, start, len(text) - 3)
            assert (got and got.span()) == (expected and expected.span())
            expected = plain.match(text, start)
            got = folded.match(text, start)
            assert (got and got.span()) == (expected and expected.span())


_PIECES = [
    "I", "i", "I'M", "My", "MY KNEE", "Since", "SESSION", "leaves", "Always", "but", ", ", " - ", " ", "\n", "'", "’",
    "He says", "Today", "this MORNING", "Remember", "Did I mention", "for days", "K", "s", "is", *ODD,
]  # fmt: skip


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(_PIECES), max_size=16))
def test_a_folded_pattern_agrees_on_built_text(parts: list[str]) -> None:
    text = "".join(parts)
    for folded in FOLDED.values():
        assert _spans(folded, text) == _spans(re.compile(folded.pattern, re.IGNORECASE), text), text


def test_a_text_holding_a_character_folded_otherwise_is_searched_as_written() -> None:
    for ch in ("\u0130", "\u0131", "\u017f", "\u212a"):
        assert fold(f"my {ch} knee") is None
    assert fold("My Knee’s fine") == "my knee’s fine"
    assert fold("ÉTÉ") == "été"


def test_a_pattern_with_capitals_or_cased_letters_is_not_folded() -> None:
    assert caseless(r"\b(?:i|my)\s+knee[-\s]?\d+’")
    assert not caseless(r"\bI\b")
    assert not caseless(r"[A-Z]\w+")
    assert not caseless(r"caf\u00e9")  # é has a case
    assert len(Folded(r"\bI\b").compiled) == 1
