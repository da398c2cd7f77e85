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

from domain.extraction.alternation import optimized

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
    head = _head(pattern)
    body = optimized(pattern)
    return re.compile(body if head is None else head + f"(?:{body})")


def _head(pattern: str) -> str | None:
    try:
        parsed = _parser.parse(pattern)
        chars, anchored, empty, bounded = _first(parsed)
    except (_Unbounded, RecursionError):
        return None
    if empty or not chars or (parsed and parsed[0] == (_c.AT, _c.AT_BEGINNING)):
        return None  # a pattern anchored as a whole is fast already
    pair = None if anchored else _pair_head(parsed)
    head = ("\\b" if bounded else "") + (pair or f"[{''.join(sorted(chars))}]")
    return f"(?:^|(?={head}))" if anchored else f"(?={head})"


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
    anywhere, anchored = split_alternatives(pattern)
    if not anchored or not anywhere:
        return fast_pattern(pattern), None
    return fast_pattern("|".join(anywhere)), re.compile(optimized("|".join(anchored)))


def split_alternatives(pattern: str) -> tuple[list[str], list[str]]:
    """The top-level alternatives of `pattern` that may match anywhere, and those anchored at the start ("^...")."""
    alternatives = [expanded for a in top_alternatives(pattern) for expanded in _opening_group_spread(a)]
    return [a for a in alternatives if not a.startswith("^")], [a for a in alternatives if a.startswith("^")]


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


# --- required literals: which rules a clause can match at all ----------------------------------------------------
#
# Most rules cannot match most clauses, yet each is searched on each clause. Every match of a pattern contains at least
# one of a few literal strings read from the parsed pattern ("like", "love", "enjoy" for "\bi\s+(?:like|love|enjoy)\b";
# "job" or "shift" or ... for a rule of many alternatives). One scan of a clause for all the rules' literals at once
# (`LiteralGate`) tells which rules can match it; the others are not searched. The literals are exact for a pattern
# compiled without flags on lower-cased text, as the rules' lower-case patterns are, read with each run of white space
# as one space (`spaced`: "\\bi\\s+like" needs "i like", tabs and newlines between the words included); the set read
# for a pattern is never narrower than what its matches hold (tests/unit/test_extraction_round4.py compares on every
# clause of the labelled sets and on generated text), and a pattern with an alternative that needs no literal gets no
# gate.

_EXACT_MAX = 48  # strings an exact set may hold before it is read as a requirement only
_LITERAL_WEIGHT = {1: 1.0, 2: 0.3, 3: 0.1, 4: 0.03}  # how likely a clause holds a literal of this length (rough)


class _Info:
    """What a part of a pattern matches: `exact`, every string it can match (when few), or else `need`, strings one
    of which every match contains (None: nothing known)."""

    __slots__ = ("exact", "need")

    def __init__(self, exact: frozenset[str] | None = None, need: frozenset[str] | None = None) -> None:
        self.exact, self.need = exact, need


_EMPTY = _Info(exact=frozenset({""}))
_SPACE = frozenset({" "})
_UNKNOWN = _Info()


def _weight(literal: str) -> float:
    if len(literal) == 1 and not literal.isalnum() and not literal.isspace():
        return 0.02  # ">", "&", "%": rare in a clause
    return _LITERAL_WEIGHT.get(len(literal), 0.01)


def _minimal(strings: frozenset[str]) -> frozenset[str]:
    """`strings` without those that contain another of them: holding "runs" means holding "run"."""
    return frozenset(s for s in strings if not any(o != s and o in s for o in strings))


def _cost(need: frozenset[str]) -> float:
    """How likely a clause holds one of `need`, were the literals independent."""
    miss = 1.0
    for literal in need:
        miss *= 1.0 - min(_weight(literal), 0.99)
    return 1.0 - miss


def _best(candidates: list[frozenset[str]]) -> frozenset[str] | None:
    usable = [_minimal(c) for c in candidates if c and "" not in c]
    return min(usable, key=_cost) if usable else None


def _as_need(info: _Info) -> frozenset[str] | None:
    if info.exact is not None:
        return None if "" in info.exact else info.exact
    return info.need


def _info_seq(items: Any) -> _Info:
    candidates: list[frozenset[str]] = []
    current: frozenset[str] = frozenset({""})
    whole = True  # every item so far exact, and `current` all of it
    for op, av in items:
        item = _info_item(op, av)
        if item.exact is not None and len(current) * len(item.exact) <= _EXACT_MAX:
            current = frozenset(_joined(a, b) for a in current for b in item.exact)
            continue
        whole = False
        candidates.append(current)
        if item.exact is not None:
            current = item.exact
        else:
            if item.need is not None:
                candidates.append(item.need)
            current = frozenset({""})
    if whole:
        return _Info(exact=current)
    candidates.append(current)
    return _Info(need=_best(candidates))


def _joined(a: str, b: str) -> str:
    """`a` followed by `b`, as the gate sees it: a run of white space is one space."""
    return a + b[1:] if a.endswith(" ") and b.startswith(" ") else a + b


def _char(code: int) -> str:
    ch = chr(code)
    return " " if ch.isspace() else ch


def _info_item(op: Any, av: Any) -> _Info:
    if op is _c.LITERAL:
        return _Info(exact=frozenset({_char(av)}))
    if op is _c.IN:
        chars: set[str] = set()
        for item_op, item_av in av:
            if item_op is _c.LITERAL:
                chars.add(_char(item_av))
            elif item_op is _c.RANGE and item_av[1] - item_av[0] < 16:
                chars.update(_char(i) for i in range(item_av[0], item_av[1] + 1))
            elif item_op is _c.CATEGORY and item_av is _c.CATEGORY_SPACE:
                chars.add(" ")
            else:
                return _UNKNOWN
        return _Info(exact=frozenset(chars))
    if op in (_c.AT, _c.ASSERT, _c.ASSERT_NOT):
        return _EMPTY  # zero-width: the characters on either side stand next to each other in the match
    if op is _c.SUBPATTERN:
        return _info_seq(av[-1])
    if op is getattr(_c, "ATOMIC_GROUP", None):
        return _info_seq(av)
    if op is _c.BRANCH:
        alternatives = [_info_seq(a) for a in av[1]]
        if all(a.exact is not None for a in alternatives):
            union = frozenset().union(*(a.exact for a in alternatives if a.exact is not None))
            if len(union) <= _EXACT_MAX:
                return _Info(exact=union)
        needs = [_as_need(a) for a in alternatives]
        if any(n is None for n in needs):
            return _UNKNOWN
        return _Info(need=frozenset().union(*(n for n in needs if n is not None)))
    if op in _REPEATS:
        low, high, body = av[0], av[1], _info_seq(av[2])
        if body.exact == _SPACE:  # white space, one character or many, is one space to the gate
            return _Info(exact=_SPACE | ({""} if low == 0 else set()))
        if low == 0:  # may match nothing: no need; exact only when it is at most one copy of an exact body
            return _Info(exact=body.exact | {""}) if high == 1 and body.exact is not None else _UNKNOWN
        if low == high == 1:
            return body
        return _Info(need=_as_need(body))
    return _UNKNOWN  # ANY, NOT_LITERAL, a category, a group reference


def required_literals(pattern: str) -> frozenset[str] | None:
    """Strings one of which every match of `pattern` (compiled without flags) contains, or None when some match
    needs none (or the pattern cannot be read)."""
    try:
        info = _info_seq(_parser.parse(pattern))
    except (RecursionError, re.error):  # an unreadable pattern simply gets no gate
        return None
    need = _as_need(info)
    return _minimal(need) if need else None


def _trie_pattern(literals: list[str]) -> str:
    """One alternation of `literals` as a trie: at a position it matches the longest of them that starts there."""
    root: dict[str, Any] = {}
    for literal in literals:
        node = root
        for ch in literal:
            node = node.setdefault(ch, {})
        node[""] = {}

    def build(node: dict[str, Any]) -> str:
        ends = "" in node
        branches = [re.escape(ch) + build(child) for ch, child in sorted(node.items()) if ch]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        if ends:
            return "(?:" + body + ")?"
        return body

    return build(root)


class LiteralGate:
    """The keys whose patterns can match a text, from one scan of it for all their required literals.

    `gate(patterns)` takes {key: pattern source}; `keys(text)` returns a bit mask of the keys whose literals the text
    holds, or of every key that has no literals (bit i for the i-th key)."""

    def __init__(self, patterns: dict[str, str]) -> None:
        self.bit = {key: 1 << i for i, key in enumerate(patterns)}
        self.always = 0
        owners: dict[str, int] = {}
        for key, source in patterns.items():
            need = required_literals(source)
            if need is None:
                self.always |= self.bit[key]
                continue
            for literal in need:
                owners[literal] = owners.get(literal, 0) | self.bit[key]
        literals = sorted(owners)
        # the scan reports the longest literal at a position: it carries the keys of its prefixes too
        self._keys = {literal: self._prefix_keys(literal, owners) for literal in literals}
        self._scan = re.compile("(?=(" + _trie_pattern(literals) + "))") if literals else None

    @staticmethod
    def _prefix_keys(literal: str, owners: dict[str, int]) -> int:
        keys = 0
        for end in range(1, len(literal) + 1):
            keys |= owners.get(literal[:end], 0)
        return keys

    def keys(self, text: str) -> int:
        found = self.always
        if self._scan is not None:
            table = self._keys
            for literal in set(self._scan.findall(spaced(text))):
                found |= table[literal]
        return found


def spaced(text: str) -> str:
    """`text` as the gate reads it: each run of white space one space (the literals are read so: `\\s+` is " ")."""
    one = " ".join(text.split())
    if text[:1].isspace():
        one = " " + one
    if text[-1:].isspace() and one != " ":
        one += " "
    return one
