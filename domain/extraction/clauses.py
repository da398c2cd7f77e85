"""Sentence and clause structure: every rule looks at one clause of one sentence."""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import accumulate

from domain.extraction.folding import Folded
from domain.extraction.lexicon import APOSTROPHE as _A

_SENTENCE_RE = re.compile(r"(?:[^.!?;\n\r\u2028\u2029]|\.(?=\w))+[.!?;]*")
_CLAUSE_SEP_RE = Folded(
    # a comma, but not inside a number ("2,200m"); a colon, but not after a list's heading ("Kids: 2", "Goal: ...");
    # each lookbehind is tried only where its comma or colon stands
    r",(?!(?<=\d,)\d)|:(?<!kids:)(?<!children:)(?<!goal:)(?<!goals:)(?<!target:)(?<!aim:)(?<!race:)\s|\s[-–—]+\s|[()]|\b(?:but"
    r"|though|although|however|whereas|plus)\b"
    r"|\b(?:and|so)\s+(?=(?:i|i" + _A + r"m|i" + _A + r"ve|i" + _A + r"d|my|then|we)\b)|\bthen\b"
    # a second like or dislike: "I love trail runs and hate the track"
    r"|\b(?:and|but)\s+(?=(?:hate|love|loathe|detest|dislike|adore|prefer|enjoy|can" + _A + r"?t\s+stand)\b)"
    # a run-on question tagged to a statement: "my shins kill after every track session is that bad??"
    r"|\s(?=(?:is|was|does|should)\s+(?:that|this|it)\s+(?:bad|normal|ok|okay|fine|a\s+problem|an\s+issue"
    r"|worrying|something)\b)",
)
_QUESTION_START_RE = re.compile(
    r"^\W*(?:(?:so|and|but|or|then)\s+)?(?:should|shall|can|could|would|will|do|does|did|is|are|was|were|am|have"
    r"|has|what|what"
    + _A
    + r"?s|why|how|which|where|when|who|any|anyone|thoughts|wondering|wonder|ok\s+to|okay\s+to)\b",
    re.IGNORECASE,
)
# Questions without a question mark: "Is it normal to ...", "Any tips for ...".
_BARE_QUESTION_RE = Folded(
    # "What I love most is trail runs" states a fact
    r"\W*(?:(?:should|can|could|do|does|is|are|what(?!\s+i\s+(?:\w+\s+){1,3}?(?:is|are)\b)|why|which)\s+(?:i|you"
    r"|we|it|my|this|that|there|an?|the)\b"
    r"|how\s+(?:long|much|many|often|do|does|can|should|to)\b|any\s+(?:tips|advice|ideas?|thoughts)\b"
    r"|(?:i\s+)?(?:am\s+)?wondering\s+(?:if|whether)\b"
    # undecided: "Not sure if I prefer trails or road yet"
    r"|(?:(?:i" + _A + r"?m\s+)?not\s+sure|unsure|(?:i\s+)?(?:don" + _A + r"?t|do\s+not)\s+know"
    r"|can" + _A + r"?t\s+decide)\s+(?:if|whether|what|which)\b)",
)


# A statement dressed as a question: "Did I mention I can't stand treadmills?" states what follows the lead.
_STATEMENT_LEAD_RE = Folded(
    r"(?:(?:did|have)\s+i\s+(?:ever\s+)?(?:mention(?:ed)?|tell\s+you|told\s+you|say|said)(?:\s+(?:that|before))?"
    r"|(?:you\s+know|did\s+you\s+know)(?:\s+that)?"
    # a request about the plan states a preference: "Can we keep the long run on Sundays?", "Could you not put tempo on
    # Mondays?" (what follows the lead is read as "keep the long run on Sundays")
    r"|(?:can|could|would)\s+(?:we|you)\s+(?:please\s+)?(?=(?:keep|put|schedule|avoid|have|swap|switch|not\s+put"
    r"|not\s+schedule|do\s+more|do\s+less|do\s+fewer)\b)"
    # a request to remember: "Can you note that my left knee doesn't like stairs?"
    r"|(?:can|could|would)\s+you\s+(?:please\s+)?(?:note|remember|make\s+a\s+note|keep\s+in\s+mind|bear\s+in\s+mind)"
    r"(?:\s+(?:that|of\s+this))?"
    r"|is\s+it\s+(?:normal|ok|okay|common|weird|bad|a\s+problem)\s+that"
    r"|should\s+i\s+(?:be\s+)?(?:worr(?:y|ied)|concerned)\s+(?:that|about\s+how)"
    # a question that takes its fact as given: "Why do my knees always hurt after long runs?"
    r"|(?:(?:any\s+)?ideas?|do\s+you\s+know|no\s+idea)\s+why"
    r"|why\s+(?:do|does|is|are)(?=\s+my\b))\b\W*",
)


@dataclass(frozen=True)
class Span:
    start: int
    end: int


def span_start(span: Span) -> int:
    return span.start


def span_end(span: Span) -> int:
    return span.end


def trimmed(text: str, start: int, end: int) -> Span | None:
    while start < end and not (text[start].isalnum()):
        start += 1
    while end > start and not (text[end - 1].isalnum() or text[end - 1] in "%)"):
        end -= 1
    return Span(start, end) if start < end else None


def sentences(text: str) -> list[tuple[Span, bool]]:
    """Sentence spans with a flag telling whether the sentence is a question."""
    found: list[tuple[Span, bool]] = []
    for m in _SENTENCE_RE.finditer(text):
        span = trimmed(text, m.start(), m.end())
        if span is not None:
            found.append((span, "?" in m.group()))
    return found


# Words that open a clause without saying anything: "So the big goal is ...", "oh and my job is ...". Every rule that
# reads a clause from its start reads past them (issue 13, round 7: each rule listed its own fillers, or none).
_FILLER_RE = Folded(
    r"(?:(?:so|and|but|also|plus|oh|btw|ok|okay|anyway|anyways|honestly|tbh|ngl|basically|actually|yeah"
    r"|yes|haha|lol|um|erm|hmm|wait[\s,.!-]+no|no[\s,.!-]+wait|wait|sorry)\b[\s,.!-]+)+(?=\w)"
)


def _without_filler(text: str, span: Span) -> Span:
    lead = _FILLER_RE.match(text, span.start, span.end)
    return span if lead is None else Span(lead.end(), span.end)


def clauses(text: str, sentence: Span) -> list[Span]:
    spans: list[Span] = []
    cursor = 0
    for sep in _CLAUSE_SEP_RE.finditer(text[sentence.start : sentence.end]):
        part = trimmed(text, sentence.start + cursor, sentence.start + sep.start())
        if part is not None:
            spans.append(_without_filler(text, part))
        cursor = sep.end()
    part = trimmed(text, sentence.start + cursor, sentence.end)
    if part is not None:
        spans.append(_without_filler(text, part))
    return spans


def statement_clauses(text: str, sentence: Span, is_question: bool) -> list[Span]:
    """Clauses that state something: the interrogative part of a sentence is dropped."""
    lead = _STATEMENT_LEAD_RE.match(text, sentence.start, sentence.end)
    if lead is not None and lead.end() < sentence.end:
        return clauses(text, Span(lead.end(), sentence.end))
    if _BARE_QUESTION_RE.match(text, sentence.start, sentence.end):
        return _reasons(text, clauses(text, sentence))
    found = clauses(text, sentence)
    if not is_question:
        return found
    for i, clause in enumerate(found):
        if _QUESTION_START_RE.match(text[clause.start : clause.end]):
            return found[:i] + _reasons(text, found[i:])
    if len(found) > 1 and _TAG_QUESTION_RE.fullmatch(text, found[-1].start, found[-1].end):
        return found[:-1]  # a statement with a doubt tagged on: "rt heel sore on toe-off, bruised maybe?"
    return _reasons(text, found)


# The last clause of a statement that only doubts it: "..., bruised maybe?", "..., normal?", "..., is that ok?"
_TAG_QUESTION_RE = re.compile(
    r"\b(?:\w+\s+){0,2}?(?:maybe|perhaps|normal|ok|okay|right|yeah|no|or\s+not|or\s+what|weird|bad|worrying|thoughts)",
    re.IGNORECASE,
)


# A reason the athlete gives inside a question states a fact: "Would evening runs be better given I'm not a
# morning person?", "Should I skip the hills since my knee is sore?"
_REASON_RE = re.compile(
    r"\b(?:given|since|because|considering|seeing\s+as|as|when)\s+(?:that\s+)?(?=i\b|i" + _A + r"|my\b)"
    # round 5, a fact the question takes along: "is rowing ok with my knee replacement?", "does the plan account for
    # my hip bursitis?"
    r"|\b(?:with|for)\s+(?=my\s+(?:[\w-]+\s+)?(?:replacement|bursitis|tendin\w+|fasciitis|arthritis|injury|surgery|op"
    r"|operation|condition|asthma|diabetes|knee|hip|back|ankle|achilles|shins?|calf|calves|hamstring|foot|feet)\b)",
    re.IGNORECASE,
)


def _reasons(text: str, question_clauses: list[Span]) -> list[Span]:
    found = []
    for clause in question_clauses:
        lead = _REASON_RE.search(text, clause.start, clause.end)
        if lead is not None and lead.end() < clause.end:
            found.append(Span(lead.end(), clause.end))
    return found


class SpanSet:
    """Tells in logarithmic time whether any of its spans overlaps a given one."""

    def __init__(self, spans: Iterable[Span]) -> None:
        self._spans = sorted(spans, key=span_start)
        self._reach = list(accumulate((s.end for s in self._spans), max))

    def overlaps(self, span: Span) -> bool:
        before = bisect_left(self._spans, span.end, key=span_start)
        return before > 0 and self._reach[before - 1] > span.start
