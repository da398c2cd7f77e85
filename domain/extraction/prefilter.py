"""A faster search for a rule's pattern: a look-ahead for the characters a match can start with.

Python's regex engine tries a pattern at every position of the text; a pattern that opens with `\\b` or
has an alternative anchored with `^` cannot use the engine's own first-character check, so every
alternative is tried everywhere. `(?=[...])` in front, with the characters any match must start with,
rejects most positions in one step. The set is read from the parsed pattern and is exact or wider, never
narrower, so the faster pattern finds exactly what the plain one finds (tests/unit/test_extraction_prefilter.py
compares them); a pattern whose first character cannot be bounded (`\\w`, `.`, a class negated) is used
as it is.
"""

from __future__ import annotations

import importlib
import re
from typing import Any

_parser: Any = importlib.import_module("re._parser")
_c: Any = importlib.import_module("re._constants")
_MAX_RANGE = 128
_CATEGORIES = {_c.CATEGORY_DIGIT: r"\d", _c.CATEGORY_SPACE: r"\s"}
_REPEATS = tuple(getattr(_c, name) for name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT") if hasattr(_c, name))


class _Unbounded(Exception):
    """The first character of a match cannot be bounded."""


def _class_chars(items: Any) -> set[str]:
    chars: set[str] = set()
    for op, av in items:
        if op is _c.LITERAL:
            chars.add(re.escape(chr(av)))
        elif op is _c.RANGE and av[1] - av[0] <= _MAX_RANGE:
            chars.update(re.escape(chr(i)) for i in range(av[0], av[1] + 1))
        elif op is _c.CATEGORY and av in _CATEGORIES:
            chars.add(_CATEGORIES[av])
        else:  # NEGATE, \w (nearly every character), a wide range
            raise _Unbounded
    return chars


def _first(items: Any) -> tuple[set[str], bool, bool, bool]:
    r"""What a match of the sequence `items` can start with (class members: escaped characters, \d, \s),
    whether part of it can only match at the start of the text, whether it can match empty, and whether every
    way to those characters passes a `\b` at the start of the match (then only word boundaries need trying)."""
    chars: set[str] = set()
    anchored = False
    bounded = True
    boundary = False  # a \b stands at the start of the match on the paths that reach the next item
    for op, av in items:
        if op is _c.AT and av in (_c.AT_BEGINNING, _c.AT_BEGINNING_STRING):
            return chars, True, False, bounded  # what follows matches at position 0 only, which is always tried
        if op is _c.AT and av is _c.AT_BOUNDARY:
            boundary = True
            continue
        if op in (_c.AT, _c.ASSERT, _c.ASSERT_NOT):  # zero-width: the next item starts the match
            continue
        if op is _c.LITERAL:
            return chars | {re.escape(chr(av))}, anchored, False, bounded and boundary
        if op is _c.IN:
            return chars | _class_chars(av), anchored, False, bounded and boundary
        if op is _c.SUBPATTERN:
            sub, sub_anchored, empty, sub_bounded = _first(av[-1])
        elif op is _c.BRANCH:
            sub, sub_anchored, empty, sub_bounded = set(), False, False, True
            for alternative in av[1]:
                more, alt_anchored, alt_empty, alt_bounded = _first(alternative)
                sub |= more
                sub_anchored = sub_anchored or alt_anchored
                empty = empty or alt_empty
                sub_bounded = sub_bounded and alt_bounded
        elif op in _REPEATS:
            sub, sub_anchored, empty, sub_bounded = _first(av[2])
            empty = empty or av[0] == 0
        else:  # ANY, NOT_LITERAL, GROUPREF, ...
            raise _Unbounded
        chars |= sub
        anchored = anchored or sub_anchored
        bounded = bounded and (boundary or sub_bounded)
        if not empty:
            return chars, anchored, False, bounded
    return chars, anchored, True, bounded


Atom = str  # one character of a match as a regex: an escaped character, \\d, \\s or a small class "[...]"
_ZERO_WIDTH = (_c.ASSERT, _c.ASSERT_NOT)
_MAX_PAIRS = 400  # more first pairs than this: one character's look-ahead does as well


def _class_atom(items: Any) -> Atom:
    chars = _class_chars(items)
    return next(iter(chars)) if len(chars) == 1 else f"[{''.join(sorted(chars))}]"


def _concat(heads: set[tuple[Atom, ...]], tails: set[tuple[Atom, ...]]) -> set[tuple[Atom, ...]]:
    """The first two atoms of a match of one part followed by another (a head shorter than two: it can end there)."""
    joined = {h for h in heads if len(h) >= 2}
    for h in heads:
        if len(h) < 2:
            joined |= {(h + t)[:2] for t in tails}
    if len(joined) > _MAX_PAIRS:
        raise _Unbounded
    return joined


def _pairs(items: Any) -> set[tuple[Atom, ...]]:
    """The first two atoms (or fewer, where a match can end sooner) of every match of the sequence `items`;
    zero-width items (\\b, look-arounds) are passed over, which can only widen the set."""
    found: set[tuple[Atom, ...]] = {()}
    for op, av in items:
        if op is _c.AT:
            if av in (_c.AT_BEGINNING, _c.AT_BEGINNING_STRING, _c.AT_END, _c.AT_END_STRING):
                raise _Unbounded  # the anchors keep their own handling (one character's look-ahead)
            continue
        if op in _ZERO_WIDTH:
            continue
        part: set[tuple[Atom, ...]]
        if op is _c.LITERAL:
            part = {(re.escape(chr(av)),)}
        elif op is _c.IN:
            part = {(_class_atom(av),)}
        elif op is _c.SUBPATTERN:
            part = _pairs(av[-1])
        elif op is _c.BRANCH:
            part = set().union(*(_pairs(alternative) for alternative in av[1]))
        elif op in _REPEATS:
            low, high, body = av[0], av[1], _pairs(av[2])
            part = {()}
            for _ in range(low):
                part = _concat(part, body)
            grown = part
            for _ in range(2 if high == _c.MAXREPEAT else min(high - low, 2)):  # two more copies fill any pair
                grown = _concat(grown, body)
                part = part | grown
                if len(part) > _MAX_PAIRS:
                    raise _Unbounded
        else:  # ANY, NOT_LITERAL, GROUPREF, ...
            raise _Unbounded
        found = _concat(found, part)
        if all(len(f) >= 2 for f in found):
            return found
    return found


def _pair_head(parsed: Any) -> str | None:
    """A look-ahead body for the first two characters of every match ("(?:a[bc]|d\\s)"), or None if one
    character cannot be followed that far (a match as short as one character, an unbounded class)."""
    try:
        pairs = _pairs(parsed)
    except (_Unbounded, RecursionError):
        return None
    if not pairs or any(len(p) < 2 for p in pairs):
        return None
    seconds: dict[Atom, set[Atom]] = {}
    for first, second in pairs:
        seconds.setdefault(first, set()).add(second)
    branches = []
    for first in sorted(seconds):
        after = sorted(seconds[first])
        single = all(len(a) == 1 or (len(a) == 2 and a[0] == "\\") for a in after)
        follow = f"[{''.join(after)}]" if single and len(after) > 1 else f"(?:{'|'.join(after)})"
        branches.append(first + (after[0] if len(after) == 1 else follow))
    return f"(?:{'|'.join(branches)})"


def fast_pattern(pattern: str) -> re.Pattern[str]:
    """`pattern` compiled without flags, for lower-cased text, behind a look-ahead for its first two
    characters, or its first one where two cannot be bounded (or the start of the text, for an alternative
    anchored there)."""
    try:
        parsed = _parser.parse(pattern)
        chars, anchored, empty, bounded = _first(parsed)
    except (_Unbounded, RecursionError):
        return re.compile(pattern)
    if empty or not chars or (parsed and parsed[0] == (_c.AT, _c.AT_BEGINNING)):
        return re.compile(pattern)  # a pattern anchored as a whole is fast already
    pair = None if anchored else _pair_head(parsed)
    head = ("\\b" if bounded else "") + (pair or f"[{''.join(sorted(chars))}]")
    return re.compile(f"(?:^|(?={head}))(?:{pattern})" if anchored else f"(?={head})(?:{pattern})")


def top_alternatives(pattern: str) -> list[str]:
    """The alternatives of `pattern` at its top level: "a|(b|c)|d" gives "a", "(b|c)", "d"."""
    found: list[str] = []
    depth, start, i, in_class = 0, 0, 0, False
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            i += 2
            continue
        if in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
            if pattern[i + 1 : i + 2] == "]" or pattern[i + 1 : i + 3] == "^]":  # "[]...]" or "[^]...]"
                i += 2 if pattern[i + 1] == "]" else 3
                continue
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "|" and depth == 0:
            found.append(pattern[start:i])
            start = i + 1
        i += 1
    found.append(pattern[start:])
    return found


def split_anchored(pattern: str) -> tuple[re.Pattern[str], re.Pattern[str] | None]:
    """`pattern` as a fast search (`fast_pattern`) for its alternatives that may match anywhere, and a plain
    pattern for those anchored at the start ("^..."), to be tried with .match. A "^" among the alternatives of
    one pattern makes every search of it several times slower."""
    alternatives = [expanded for a in top_alternatives(pattern) for expanded in _opening_group_spread(a)]
    anchored = [a for a in alternatives if a.startswith("^")]
    anywhere = [a for a in alternatives if not a.startswith("^")]
    if not anchored or not anywhere:
        return fast_pattern(pattern), None
    return fast_pattern("|".join(anywhere)), re.compile("|".join(anchored))


def _opening_group_spread(alternative: str) -> list[str]:
    r"""An alternative that opens with a group where "^" is one choice, spread into one alternative per choice
    ("(?:\bi\s+|^)work" into "\bi\s+work" and "^work"), so that the anchored one can be tried apart."""
    if not alternative.startswith("(?:"):
        return [alternative]
    end = _group_end(alternative)
    rest = alternative[end + 1 :]
    choices = top_alternatives(alternative[3:end])
    if not any(c.startswith("^") for c in choices) or rest[:1] in ("?", "*", "+", "{"):
        return [alternative]  # no "^" among the choices, or the group is optional or repeated
    return [choice + rest for choice in choices]


def _group_end(pattern: str) -> int:
    """The index of the ")" closing the group that `pattern` opens with."""
    depth, i, in_class = 0, 0, False
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            i += 2
            continue
        if in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    raise ValueError(f"unbalanced group in {pattern!r}")
