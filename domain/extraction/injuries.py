"""Injury facts: a body part near a live symptom, or a chronic injury named without one."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import islice

from domain.enums import MemoryConfidence
from domain.extraction.clauses import Span
from domain.extraction.lexicon import BODY, WORD_RE
from domain.extraction.subject import People, negated

_SYMPTOM_RE = re.compile(
    r"\b(?:pain\w*|ache[sd]?|aching|achy|sore\w*|tight\w*|tighten\w*|hurt\w*|injur\w*|strain\w*|sprain\w*|tweak\w*"
    r"|niggl\w*|twinge\w*|twingy|stiff\w*|tendin\w*|tendon\w*|fasciitis|splints|swollen|swelling|inflam\w*"
    r"|issues?|problems?|cramp\w*|pulled|torn|tear|tore|fractur\w*|bruised|flare[sd]?|flaring|acting\s+up"
    r"|playing\s+up|grumbl\w*|complaining|throbb\w*|click\w*|gave\s+out|giving\s+out|locked\s+up|seized|surgery"
    r"|rolled|twisted|dodgy|cranky|barking|screaming|trashed|wrecked|killing\s+me|bugging\s+me|bothering\s+me"
    r"|bothers\s+me|not\s+(?:\w+\s+)?(?:right|great|happy|good)|wonky|tender|spasms?|weak)\b",
    re.IGNORECASE,
)
_RECOVERED_RE = re.compile(
    r"\b(?:heal(?:ed|ing\s+well)|recovered|gone|went\s+away|disappeared|vanished|resolved|cleared\s+up|no\s+longer"
    r"|anymore|back\s+to\s+normal|all\s+good|[\w]+[-\s]free)\b",
    re.IGNORECASE,
)
_HYPOTHETICAL_RE = re.compile(
    r"\b(?:if|in\s+case|avoid\w*|prevent\w*|worried|worry\w*|afraid|scared|hope|hoping|hopefully|unless|might"
    r"|to\s+keep|careful)\b",
    re.IGNORECASE,
)
_POSITIVE_STATE_RE = re.compile(
    r"\W*(?:(?!not\b)\w+\W+){0,3}?(?:fine|good|great|ok|okay|strong|solid|better|perfect|normal|amazing|fresh"
    r"|happy|100%)\b",
    re.IGNORECASE,
)
_CHRONIC_RE = re.compile(
    r"\b(?:history\s+of|recurring|recurrent|chronic|old|keeps?\s+coming\s+back|kept\s+coming\s+back|on\s+and\s+off"
    r"|on-and-off|comes\s+and\s+goes|always|every\s+time|whenever|prone\s+to|for\s+years)\b",
    re.IGNORECASE,
)
_GENERIC_INJURY_RE = re.compile(r"\b(?:injur\w*|pain|issues?)\b", re.IGNORECASE)
_MAX_BODY_SYMPTOM_WORDS = 8
_MAX_BODY_SYMPTOM_CHARS = 120
_MAX_MENTIONS = 20  # per clause; bounds the work on pathological input


@dataclass(frozen=True)
class Injury:
    span: Span
    tags: tuple[str, ...]
    confidence: MemoryConfidence


Carry = tuple[Span, list[re.Match[str]]]


def _near(text: str, a: int, b: int) -> bool:
    lo, hi = (a, b) if a < b else (b, a)
    return hi - lo <= _MAX_BODY_SYMPTOM_CHARS and len(WORD_RE.findall(text, lo, hi)) <= _MAX_BODY_SYMPTOM_WORDS


def body_mentions(text: str, clause: Span) -> list[re.Match[str]]:
    mentions = []
    for m in BODY.pattern.finditer(text, clause.start, clause.end):
        if _POSITIVE_STATE_RE.match(text, m.end(), clause.end):
            continue
        mentions.append(m)
        if len(mentions) == _MAX_MENTIONS:
            break
    return mentions


def _live_symptoms(text: str, clause: Span) -> list[re.Match[str]]:
    body = text[clause.start : clause.end]
    if _RECOVERED_RE.search(body) or _HYPOTHETICAL_RE.search(body):
        return []
    live = (s for s in _SYMPTOM_RE.finditer(text, clause.start, clause.end) if not negated(text, clause, s))
    return list(islice(live, _MAX_MENTIONS))


def injuries(people: People, sentence: Span, clauses: Sequence[Span], carry: Carry | None) -> list[Injury]:
    """Injury facts of one sentence; `carry` is a clause of the sentence before naming a body part only."""
    text = people.text
    found: list[Injury] = []
    pending = carry
    for clause in clauses:
        bodies = body_mentions(text, clause)
        symptoms = _live_symptoms(text, clause)
        span = clause
        if symptoms and not bodies and pending is not None:
            span, bodies = Span(pending[0].start, clause.end), pending[1]
            symptoms = [s for s in symptoms if not _GENERIC_INJURY_RE.fullmatch(s.group())] or symptoms
        if bodies and not symptoms:
            pending = (clause, bodies)
        elif symptoms:
            pending = None
        if not symptoms:
            continue
        near = [b for b in bodies if span != clause or any(_near(text, b.start(), s.start()) for s in symptoms)]
        chronic = bool(_CHRONIC_RE.search(text, span.start, span.end))
        if not near:
            generic = any(_GENERIC_INJURY_RE.fullmatch(s.group()) for s in symptoms)
            if chronic and generic and not people.about_someone_else(sentence, clause, symptoms[0].start()):
                found.append(Injury(span, (), MemoryConfidence.HIGH))
            continue
        if people.about_someone_else(sentence, Span(min(span.start, clause.start), clause.end), near[0].start()):
            continue
        tags = tuple(dict.fromkeys(BODY.tag(b) for b in near))
        found.append(Injury(span, tags, MemoryConfidence.HIGH if chronic else MemoryConfidence.LOW))
    return found
