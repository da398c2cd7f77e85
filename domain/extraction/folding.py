"""Case-insensitive patterns searched without IGNORECASE where that finds the same: on the text lower-cased.

With IGNORECASE Python's regex engine folds the case of every character it compares (a call into the Unicode tables
each time) and cannot use a pattern's first characters to skip ahead. For a pattern whose letters are lower-case ASCII
(or have no case), matching with IGNORECASE is matching without it on the lower-cased text, provided the text holds
none of the four characters the engine folds to ASCII letters otherwise than `str.lower` does (dotted and dotless I,
long s, the Kelvin sign) and lower-casing keeps every offset. `Folded` searches that way when the text allows (the
fast pattern of domain.extraction.prefilter), else with the pattern compiled as written: the same matches, spans and
groups either way, but for the case of what a match holds. tests/unit/test_extraction_folding.py compares them.
"""

from __future__ import annotations

import importlib
import re
import sys
from collections.abc import Iterator
from typing import Any

from domain.extraction.prefilter import fast_pattern

_parser: Any = importlib.import_module("re._parser")
_c: Any = importlib.import_module("re._constants")

# What IGNORECASE folds to an ASCII letter where str.lower does not: İ (i), ı (i), ſ (s), K (k).
_UNFOLDABLE_RE = re.compile("[\u0130\u0131\u017f\u212a]")
# The texts folded lately: one text (and its lower-cased copy) is searched many times in a row. A str keeps its hash,
# so a lookup of a text seen is one comparison of identity.
_folds: dict[str, str | None] = {}
_MAX_FOLDS = 64


_UNSEEN = ""  # no fold is "" but the empty text's, which costs nothing to fold again


def fold(text: str) -> str | None:
    """`text` lower-cased, offsets kept, for the patterns of `Folded`; None where their matches could differ."""
    low = _folds.get(text, _UNSEEN)
    if low is not _UNSEEN:
        return low
    low = text.lower()
    if not text.isascii() and (len(low) != len(text) or _UNFOLDABLE_RE.search(text) is not None):
        low = None
    if len(_folds) >= _MAX_FOLDS:
        _folds.clear()
    _folds[text] = low
    return low


def caseless(pattern: str) -> bool:
    """Whether every character `pattern` names is lower-case ASCII or has no case (so IGNORECASE changes only how
    the text's characters compare with them)."""
    try:
        return _caseless(_parser.parse(pattern))
    except (re.error, RecursionError):
        return False


def _char_ok(code: int) -> bool:
    ch = chr(code)
    if code < 0x80:
        return not ch.isupper()
    return ch.lower() == ch and ch.upper() == ch


def _caseless(items: Any) -> bool:
    for op, av in items:
        if op in (_c.LITERAL, _c.NOT_LITERAL):
            if not _char_ok(av):
                return False
        elif op is _c.IN:
            for member_op, member_av in av:
                if member_op is _c.LITERAL and not _char_ok(member_av):
                    return False
                if member_op is _c.RANGE and not all(_char_ok(c) for c in range(member_av[0], member_av[1] + 1)):
                    return False
                if member_op not in (_c.LITERAL, _c.RANGE, _c.CATEGORY, _c.NEGATE):
                    return False
        elif op is _c.BRANCH:
            if not all(_caseless(alternative) for alternative in av[1]):
                return False
        elif op is _c.SUBPATTERN:
            if av[1] or av[2] or not _caseless(av[3]):  # a flag set inside the pattern: left as written
                return False
        elif op in (_c.ASSERT, _c.ASSERT_NOT):
            if not _caseless(av[1]):
                return False
        elif op in (_c.MAX_REPEAT, _c.MIN_REPEAT) or op is getattr(_c, "POSSESSIVE_REPEAT", None):
            if not _caseless(av[2]):
                return False
        elif op is getattr(_c, "ATOMIC_GROUP", None):
            if not _caseless(av):
                return False
        elif op not in (_c.AT, _c.ANY, _c.CATEGORY):
            return False  # a group reference, or something new: left as written
    return True


class Folded:
    """A pattern meant case-insensitively: `search`, `match` and `finditer` as re.Pattern's, on the text as written."""

    __slots__ = ("_any_case", "_lower", "compiled", "pattern")

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        self._any_case = re.compile(pattern, re.IGNORECASE)
        self._lower = fast_pattern(pattern) if caseless(pattern) else None
        # both ways of searching, the pattern as written first
        self.compiled: tuple[re.Pattern[str], ...] = (self._any_case,) + (() if self._lower is None else (self._lower,))

    # each method looks the fold up itself: one call per search, as with a compiled pattern
    def search(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        low = _folds.get(text, _UNSEEN)
        if low is _UNSEEN:
            low = fold(text)
        if low is None or self._lower is None:
            return self._any_case.search(text, pos, endpos)
        return self._lower.search(low, pos, endpos)

    def match(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        low = _folds.get(text, _UNSEEN)
        if low is _UNSEEN:
            low = fold(text)
        if low is None or self._lower is None:
            return self._any_case.match(text, pos, endpos)
        return self._lower.match(low, pos, endpos)

    def finditer(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> Iterator[re.Match[str]]:
        low = _folds.get(text, _UNSEEN)
        if low is _UNSEEN:
            low = fold(text)
        if low is None or self._lower is None:
            return self._any_case.finditer(text, pos, endpos)
        return self._lower.finditer(low, pos, endpos)
