"""What the rule table finds in one clause: at most one fact per memory type."""

from __future__ import annotations

import re
from dataclasses import dataclass

from domain.enums import CONFIDENCE_RANK, MemoryConfidence, MemoryType
from domain.extraction.clauses import Span
from domain.extraction.lexicon import CONTEXT_TOPIC, INTENSITY, preference_tags
from domain.extraction.rules import CONTEXT, PREFERENCE, RESPONSE, RULES, RUN_OBJECT_RE, Rule
from domain.extraction.subject import People

_TRANSIENT_RE = re.compile(
    r"\b(?:today|tomorrow|tonight|yesterday|this\s+(?:morning|afternoon|evening|week|weekend|time|run|month)"
    r"|next\s+(?:week|time|month|year|run)|last\s+(?:night|week|run))\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Fact:
    type: MemoryType
    span: Span
    tags: tuple[str, ...]
    confidence: MemoryConfidence


def _rule_tags(rule: Rule, evidence: str) -> list[str]:
    tags = list(rule.tags)
    if rule.type is PREFERENCE:
        tags += preference_tags(evidence)
    elif rule.type is RESPONSE:
        tags += INTENSITY.tags(evidence)
    elif rule.type is CONTEXT:
        tags += [t for t in CONTEXT_TOPIC.tags(evidence) if t != "context:family" or rule.name == "family_context"]
        if "context:kids" in tags and "context:family" not in tags:
            tags.append("context:family")
    return list(dict.fromkeys(tags))


def rule_facts(people: People, sentence: Span, clause: Span) -> list[Fact]:
    """Facts of one clause; a clause about a single day ("this morning", "yesterday") states no lasting fact."""
    body = people.text[clause.start : clause.end]
    if _TRANSIENT_RE.search(body) is not None:
        return []
    merged: dict[MemoryType, Fact] = {}
    for rule in RULES:
        m = rule.pattern.search(body)
        if m is None:
            continue
        object_from = m.end() if m.group().lower().startswith("i") else 0
        if rule.needs_run_object and not RUN_OBJECT_RE.search(body, object_from):
            continue
        if people.about_someone_else(sentence, clause, clause.start + m.start()):
            continue
        tags = _rule_tags(rule, body)
        previous = merged.get(rule.type)
        if previous is not None:
            tags = list(dict.fromkeys([*previous.tags, *tags]))
            confidence = max(previous.confidence, rule.confidence, key=CONFIDENCE_RANK.__getitem__)
        else:
            confidence = rule.confidence
        merged[rule.type] = Fact(rule.type, clause, tuple(tags), confidence)
    if PREFERENCE in merged:
        merged.pop(RESPONSE, None)
    return list(merged.values())
