"""Alternations rewritten so Python's regex engine tries fewer of them: the same matches, found with less work.

The engine tries the alternatives of `a|b|c` one after another at every position it reaches. It skips an alternative
in a few instructions when the alternative opens with a literal character that is not the one at hand, but an
alternative that opens with `\\b` or a group is entered every time, and a rule of sixty alternatives is sixty tries.
`optimized` regroups each alternation:

- alternatives that open with the same character (after an optional `\\b`) are joined and their common opening is
  written once, so "\\bknee|\\bkneecap|\\bcalf" becomes "\\b(?:knee(?:|cap)|calf)" — a trie of the alternatives;
- consecutive alternatives that open with `\\b` share one `\\b` in front of a group.

The order of alternatives that could match at the same position is kept, so the first alternative that matches is
still the one that matches: an alternative moves ahead of others only past alternatives that cannot start with its
first character. A pattern with capturing groups is left as it is (moving alternatives would renumber its groups).
tests/unit/test_extraction_alternation.py compares every rewritten pattern with its original on the labelled texts and
on generated ones.
"""

from __future__ import annotations

import importlib
import re
from typing import Any

_parser: Any = importlib.import_module("re._parser")
_c: Any = importlib.import_module("re._constants")

Item = tuple[Any, Any]  # (opcode, argument) as re._parser gives them; a BRANCH holds lists of items
_REPEATS = {_c.MAX_REPEAT: "", _c.MIN_REPEAT: "?", getattr(_c, "POSSESSIVE_REPEAT", None): "+"}
_AT = {
    _c.AT_BEGINNING: "^",
    _c.AT_BEGINNING_STRING: r"\A",
    _c.AT_BOUNDARY: r"\b",
    _c.AT_NON_BOUNDARY: r"\B",
    _c.AT_END: "$",
    _c.AT_END_STRING: r"\Z",
}
_CATEGORY = {
    _c.CATEGORY_DIGIT: r"\d",
    _c.CATEGORY_NOT_DIGIT: r"\D",
    _c.CATEGORY_SPACE: r"\s",
    _c.CATEGORY_NOT_SPACE: r"\S",
    _c.CATEGORY_WORD: r"\w",
    _c.CATEGORY_NOT_WORD: r"\W",
}
_BOUNDARY: Item = (_c.AT, _c.AT_BOUNDARY)
_FLAG_LETTERS: tuple[tuple[int, str], ...] = (
    (re.ASCII, "a"),
    (re.IGNORECASE, "i"),
    (re.MULTILINE, "m"),
    (re.DOTALL, "s"),
    (re.UNICODE, "u"),
)


def optimized(pattern: str, flags: int = 0) -> str:
    """`pattern` with its alternations regrouped; the same pattern when it has capturing groups, or its flags or
    syntax are of a kind this module does not write back."""
    if flags & (re.VERBOSE | re.LOCALE):
        return pattern
    try:
        parsed = _parser.parse(pattern, flags)
        if parsed.state.groups > 1 or parsed.state.flags & ~(flags | re.UNICODE):
            return pattern  # capturing groups, or flags set inside the pattern
        return _emit(_seq(list(parsed)))
    except (_Unwritable, RecursionError):
        return pattern


class _Unwritable(Exception):
    """A construct this module does not write back."""


def _seq(items: list[Item]) -> list[Item]:
    return [_item(op, av) for op, av in items]


def _item(op: Any, av: Any) -> Item:
    if op is _c.BRANCH:
        return _branch([_seq(list(alternative)) for alternative in av[1]])
    if op is _c.SUBPATTERN:
        group, add, remove, body = av
        return (op, (group, add, remove, _seq(list(body))))
    if op in _REPEATS:
        return (op, (av[0], av[1], _seq(list(av[2]))))
    if op in (_c.ASSERT, _c.ASSERT_NOT):
        return (op, (av[0], _seq(list(av[1]))))
    if op is getattr(_c, "ATOMIC_GROUP", None):
        return (op, _seq(list(av)))
    if op in (_c.GROUPREF, _c.GROUPREF_EXISTS):
        raise _Unwritable  # no capturing groups get this far
    return (op, av)


def _branch(alternatives: list[list[Item]]) -> Item:
    """The alternatives in buckets by first character, each bucket's common opening written once."""
    buckets: list[tuple[tuple[bool, int] | None, frozenset[int] | None, list[list[Item]]]] = []
    for alternative in alternatives:
        key = _key(alternative)
        first = frozenset({key[1]}) if key is not None else first_chars(alternative)
        placed = False
        if key is not None:
            for bucket_key, bucket_first, members in reversed(buckets):
                if bucket_key == key:
                    members.append(alternative)
                    placed = True
                    break
                if bucket_first is None or key[1] in bucket_first:
                    break  # it could match where this one does: the order between them stays
        if not placed:
            buckets.append((key, first, [alternative]))
    written = [members[0] if len(members) == 1 else _factored(members) for _, _, members in buckets]
    return (_c.BRANCH, (None, _shared_boundary(written)))


def _key(alternative: list[Item]) -> tuple[bool, int] | None:
    """(whether it opens with \\b, its first character) for an alternative that opens with a literal."""
    boundary = bool(alternative) and alternative[0] == _BOUNDARY
    rest = alternative[1:] if boundary else alternative
    if rest and rest[0][0] is _c.LITERAL:
        return boundary, rest[0][1]
    return None


def _factored(members: list[list[Item]]) -> list[Item]:
    """Alternatives of one bucket as their common opening and an alternation of the rest (itself regrouped)."""
    texts = [[_emit_item(item) for item in m] for m in members]
    common = 0
    while all(len(t) > common for t in texts) and len({t[common] for t in texts}) == 1:
        common += 1
    return [*members[0][:common], _branch([m[common:] for m in members])]


def _shared_boundary(alternatives: list[list[Item]]) -> list[list[Item]]:
    """Consecutive alternatives that open with \\b as one \\b and a group of them."""
    found: list[list[Item]] = []
    run: list[list[Item]] = []
    for alternative in [*alternatives, None]:
        if alternative and alternative[0] == _BOUNDARY:
            run.append(alternative[1:])
            continue
        if len(run) == 1:
            found.append([_BOUNDARY, *run[0]])
        elif run:
            found.append([_BOUNDARY, (_c.BRANCH, (None, run))])
        run = []
        if alternative is not None:
            found.append(alternative)
    return found


def first_chars(items: list[Item]) -> frozenset[int] | None:
    """The characters a match of `items` can start with, or None when unknown (or it can match nothing)."""
    for op, av in items:
        if op in (_c.AT, _c.ASSERT, _c.ASSERT_NOT):
            continue
        if op is _c.LITERAL:
            return frozenset({av})
        if op is _c.IN:
            return _class_chars(av)
        if op is _c.SUBPATTERN:
            return None if av[1] & re.IGNORECASE else first_chars(av[3])
        if op is _c.BRANCH:
            found: set[int] = set()
            for alternative in av[1]:
                more = first_chars(alternative)
                if more is None:
                    return None
                found |= more
            return frozenset(found)
        if op in _REPEATS and av[0] >= 1:
            return first_chars(av[2])
        return None
    return None


def _class_chars(members: Any) -> frozenset[int] | None:
    found: set[int] = set()
    for op, av in members:
        if op is _c.LITERAL:
            found.add(av)
        elif op is _c.RANGE and av[1] - av[0] <= 256:
            found.update(range(av[0], av[1] + 1))
        else:
            return None
    return frozenset(found)


# --- writing a parsed pattern back --------------------------------------------------------------------------------


def _emit(items: list[Item]) -> str:
    return "".join(_emit_item(item) for item in items)


def _emit_item(item: Item) -> str:
    op, av = item
    if op is _c.LITERAL:
        return _char(av)
    if op is _c.NOT_LITERAL:
        return "[^" + _class_char(av) + "]"
    if op is _c.ANY:
        return "."
    if op is _c.IN:
        return _emit_class(av)
    if op is _c.AT:
        if av not in _AT:
            raise _Unwritable
        return _AT[av]
    if op is _c.BRANCH:
        return "(?:" + "|".join(_emit(alternative) for alternative in av[1]) + ")"
    if op is _c.SUBPATTERN:
        group, add, remove, body = av
        if group is not None:
            raise _Unwritable
        flags = _flag_letters(add) + ("-" + _flag_letters(remove) if remove else "")
        return "(?" + flags + ":" + _emit(body) + ")"
    if op in _REPEATS:
        low, high, body = av
        bound = "" if high is _c.MAXREPEAT else str(high)
        return "(?:" + _emit(body) + "){" + f"{low},{bound}" + "}" + _REPEATS[op]
    if op in (_c.ASSERT, _c.ASSERT_NOT):
        direction, body = av
        mark = ("=" if op is _c.ASSERT else "!") if direction == 1 else ("<=" if op is _c.ASSERT else "<!")
        return "(?" + mark + _emit(body) + ")"
    if op is getattr(_c, "ATOMIC_GROUP", None):
        return "(?>" + _emit(av) + ")"
    raise _Unwritable


def _flag_letters(flags: int) -> str:
    return "".join(letter for flag, letter in _FLAG_LETTERS if flags & flag)


def _char(code: int) -> str:
    if code < 0x80 and chr(code).isalnum():
        return chr(code)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def _class_char(code: int) -> str:
    return _char(code)


def _emit_class(members: Any) -> str:
    parts = []
    for op, av in members:
        if op is _c.NEGATE:
            parts.append("^")
        elif op is _c.LITERAL:
            parts.append(_class_char(av))
        elif op is _c.RANGE:
            parts.append(_class_char(av[0]) + "-" + _class_char(av[1]))
        elif op is _c.CATEGORY and av in _CATEGORY:
            parts.append(_CATEGORY[av])
        else:
            raise _Unwritable
    return "[" + "".join(parts) + "]"
