"""What the rule table finds in one clause: at most one fact per memory type."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from domain.enums import CONFIDENCE_RANK, MemoryConfidence, MemoryType
from domain.extraction.clauses import Span
from domain.extraction.folding import Folded
from domain.extraction.lexicon import BODY, CONTEXT_TOPIC, INTENSITY, THIS_DAY, TIME, preference_tags
from domain.extraction.prefilter import LiteralGate, fast_pattern
from domain.extraction.rules import AGE_RULE, CONTEXT, PREFERENCE, RESPONSE, RULES, RUN_OBJECT_RE, Rule, group_rule
from domain.extraction.subject import People

_TRANSIENT_RE = Folded(
    r"\b(?:" + THIS_DAY + r"|yesterday|this\s+(?:time|run)|next\s+(?:week|time|year|run)|last\s+(?:night|week|run))\b",
)


@dataclass(frozen=True)
class Fact:
    type: MemoryType
    span: Span
    tags: tuple[str, ...]
    confidence: MemoryConfidence
    # a background fact (the athlete's age) is a memory only when its sentence states nothing else: "I'm 47 and
    # started running two years ago" (tests/data/extraction_cases.yaml, header)
    background: bool = False


_RUN_OBJECT_LOW_RE = fast_pattern(RUN_OBJECT_RE.pattern)  # for the lower-cased clause: several times faster
_FAMILY = ("context:family",)
_FAMILY_RULES = frozenset({"family_context", "life_context"})


# The other sports a preference or a training response can be about: "much happier in the pool" is a
# swimming preference, "cramp on the run after a hard bike" a response to cycling.
_ACTIVITY_TAGS = frozenset(
    f"context:{kind}"
    for kind in ("gym", "climbing", "cycling", "swimming", "rowing", "yoga", "pilates", "triathlon", "team sport")
)
RESPONSE_CONTEXT_TAGS = _ACTIVITY_TAGS | {"context:sleep"}


def _context_times(evidence: str) -> list[str]:
    """When a context applies ("on call every other weekend", "masters swim at 6am"); "nights" in a
    work pattern ("nurse on nights") says when they work, not a time they like to train."""
    low = evidence.lower()
    found = (m for m in TIME.lower_pattern.finditer(low) if not m.group().startswith("night"))
    return list(dict.fromkeys(TIME.tag(m) for m in found))


_SAYS_WORK_RE = re.compile(r"\bwork\w*|\bpart[-\s]?time\b|\bjobs?\b", re.IGNORECASE)  # "a student working part time"


def _rule_tags(rule: Rule, evidence: str) -> list[str]:
    tags = [*rule.tags, *(tag for part, tag in rule.kinds if part.search(evidence))]
    if rule.type is PREFERENCE:
        tags += preference_tags(evidence)
        tags += [t for t in CONTEXT_TOPIC.tags(evidence) if t in _ACTIVITY_TAGS]
    elif rule.type is RESPONSE:
        tags += BODY.tags(evidence) + INTENSITY.tags(evidence)
        tags += [t for t in CONTEXT_TOPIC.tags(evidence) if t in RESPONSE_CONTEXT_TAGS]
    elif rule.type is CONTEXT:
        topics = CONTEXT_TOPIC.tags(evidence)
        if "context:study" in topics and "context:work" not in topics and not _SAYS_WORK_RE.search(evidence):
            tags = [t for t in tags if t != "context:work"]  # "I'm a student": study, not a job
        tags += [t for t in topics if t != "context:family" or rule.name in _FAMILY_RULES]
        if "context:kids" in tags and "context:family" not in tags:
            tags.append("context:family")
        tags += _context_times(evidence)
    return list(dict.fromkeys(tags))


def _search(rule: Rule, low: str) -> re.Match[str] | None:
    """The first match of `rule` in `low`, a lower-cased clause: its anchored alternatives apart (prefilter)."""
    m = (rule.lower_pattern or rule.pattern).search(low)
    if rule.start_pattern is not None and (m is None or m.start() > 0):
        return rule.start_pattern.match(low) or m
    return m


Search = Callable[[str], "re.Match[str] | None"]


@dataclass(frozen=True)
class _Group:
    """Rules that read the same fact the same way (one type and confidence, no tags of their own), searched as one
    pattern: the union of their alternatives finds the first match any of them finds. Only when that match is turned
    down (someone else's, no run object after it) is each rule searched on its own, as before."""

    rules: tuple[Rule, ...]
    search: Search
    match_start: Search | None
    needs_run_object: bool
    bit: int = 0  # its key in _GATE: searched only on a clause that holds one of its literals


def _searches(rule: Rule) -> tuple[Search, Search | None]:
    return (rule.lower_pattern or rule.pattern).search, rule.start_pattern and rule.start_pattern.match


def _groups(rules: tuple[Rule, ...]) -> tuple[_Group, ...]:
    together: dict[tuple[object, ...], list[Rule]] = {}
    for rule in rules:
        alike = rule.type in (PREFERENCE, RESPONSE) and not rule.tags and not rule.kinds
        key = (rule.type, rule.confidence, rule.needs_run_object) if alike else (rule.name,)
        together.setdefault(key, []).append(rule)
    groups: list[_Group] = []
    for members in together.values():
        first = members[0]
        union = first if len(members) == 1 else group_rule(members)
        groups.append(_Group(tuple(members), *_searches(union), first.needs_run_object, 1 << len(groups)))
    return tuple(groups)


_GROUPS = _groups(RULES)
# One scan of a clause for the literals some match of each group must hold (prefilter.LiteralGate): most groups cannot
# match most clauses and are not searched. Keyed by the group's bit, in _GROUPS' order.
_GATE = LiteralGate({str(g.bit): "|".join(r.pattern.pattern for r in g.rules) for g in _GROUPS})
_GOAL_GROUPS = tuple(g for g in _GROUPS if g.rules[0].tags == ("context:goal",))
_HEDGE_RE = re.compile(r"\b(?:maybe|might|perhaps|possibly|probably|considering|thinking\s+(?:about|of)|not\s+sure)\b")


def rule_facts(people: People, sentence: Span, clause: Span) -> list[Fact]:
    """Facts of one clause; a clause about a single day ("this morning", "yesterday") states no lasting fact, but for
    an event ahead: "Sprint tri this weekend", "the Comrades is the goal next year"."""
    groups = _GROUPS
    if _TRANSIENT_RE.search(people.lower, clause.start, clause.end) is not None:
        # a plan still in doubt is no goal yet: "might try a trail race next year", "maybe I'll enter one next year"
        groups = () if _HEDGE_RE.search(people.lower, clause.start, clause.end) else _GOAL_GROUPS
    # lower case reads the same tags; a child read as "he" gives none
    low = body = people.lower[clause.start : clause.end]
    hits: list[tuple[Rule, re.Match[str]]] = []
    # Without a run object anywhere in the clause no rule that needs one can hold (about half the clauses):
    # those rules are not searched at all.
    any_object = _RUN_OBJECT_LOW_RE.search(low) is not None
    possible = _GATE.keys(low)
    for group in groups:  # `_search`, inline: it runs for every rule on every clause
        if not possible & group.bit or (group.needs_run_object and not any_object):
            continue
        m = _first(group.search, group.match_start, low)
        if m is None:
            continue
        if _holds(people, sentence, clause, low, m, group.needs_run_object):
            after = group.rules[0].not_after
            if after is None or after.search(low, 0, m.start()) is None:
                hits.append((group.rules[0], m))
            continue
        if len(group.rules) == 1:
            continue
        for rule in group.rules:  # the group's first match was turned down: a later one of a single rule may hold
            m = _first(*_searches(rule), low)
            if m is not None and _holds(people, sentence, clause, low, m, rule.needs_run_object):
                hits.append((rule, m))
                break
    kinds = {rule.tags for rule, _ in hits if rule.type is CONTEXT and rule.tags}
    if len(kinds) > 1 and _FAMILY in kinds:  # "single mum and a nurse": two contexts, each with the words it read
        return _context_facts(people, clause, hits) + [f for f in _merged(clause, hits, body) if f.type is not CONTEXT]
    return _merged(clause, hits, body)


def _first(search: Search, match_start: Search | None, low: str) -> re.Match[str] | None:
    m = search(low)
    if match_start is not None and (m is None or m.start() > 0):
        m = match_start(low) or m
    return m


def _holds(people: People, sentence: Span, clause: Span, low: str, m: re.Match[str], needs_object: bool) -> bool:
    """Whether a rule's match reads a fact of the athlete: a run object after its "I" where the rule needs one, and
    nobody else named nearer before it."""
    said = m.group()
    subject = said[:1].lower() == "i" and not said[1:2].isalpha()  # the match opens with the athlete's "I"
    object_from = m.start() + 1 if subject else 0
    if needs_object and not _RUN_OBJECT_LOW_RE.search(low, object_from):
        return False
    # its own "I" is the nearest person: "since the baby I'd rather get it done at 6am"
    return not people.about_someone_else(sentence, clause, clause.start + m.start() + (1 if subject else 0))


def _context_facts(people: People, clause: Span, hits: list[tuple[Rule, re.Match[str]]]) -> list[Fact]:
    """One context per kind of context rule in a clause, each read from its own match."""
    found: dict[tuple[str, ...], Fact] = {}
    for rule, m in hits:
        if rule.type is not CONTEXT:
            continue
        key = rule.tags or next(iter(found), ())
        span = Span(clause.start + m.start(), clause.start + m.end())
        tags = _rule_tags(rule, people.text[span.start : span.end])
        previous = found.get(key)
        if previous is not None:
            span = Span(min(previous.span.start, span.start), max(previous.span.end, span.end))
            tags = list(dict.fromkeys([*previous.tags, *tags]))
        confidence = (
            rule.confidence
            if previous is None
            else max(previous.confidence, rule.confidence, key=CONFIDENCE_RANK.__getitem__)
        )
        background = rule.name == AGE_RULE and (previous is None or previous.background)
        found[key] = Fact(CONTEXT, span, tuple(tags), confidence, background)
    return list(found.values())


def _merged(clause: Span, hits: list[tuple[Rule, re.Match[str]]], body: str) -> list[Fact]:
    """At most one fact per memory type in a clause, with the tags of every rule that read it."""
    merged: dict[MemoryType, Fact] = {}
    for rule, _ in hits:
        tags = _rule_tags(rule, body)
        previous = merged.get(rule.type)
        background = rule.name == AGE_RULE
        if previous is not None:
            tags = list(dict.fromkeys([*previous.tags, *tags]))
            confidence = max(previous.confidence, rule.confidence, key=CONFIDENCE_RANK.__getitem__)
            background = background and previous.background
        else:
            confidence = rule.confidence
        merged[rule.type] = Fact(rule.type, clause, tuple(tags), confidence, background)
    if PREFERENCE in merged:
        merged.pop(RESPONSE, None)
    return list(merged.values())
