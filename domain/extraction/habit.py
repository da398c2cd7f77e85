"""A reaction told with its word of habit apart: "legs dead after yesterday's hills, as always", "As usual after
intervals, I'm completely knackered", "DOMS from Monday's gym still there Thursday. squats always do this".

The rule table reads one clause at a time, and a clause about one day ("yesterday's hills") states no lasting fact;
a word of habit standing in a clause (or a short sentence) of its own says the reaction beside it is what always
happens, a training response.
"""

from __future__ import annotations

import re

from domain.extraction.clauses import Span
from domain.extraction.prefilter import fast_pattern
from domain.extraction.rules import REACTION

# The word of habit, as a clause of its own or opening one: "as always", "as usual", "always the way", "same as the
# last 3 hot runs", "squats always do this", "always happens on bricks".
_HABIT_RE = re.compile(
    r"\b(?:as\s+(?:always|usual|ever|per\s+usual)|like\s+always|per\s+usual|always\s+the\s+(?:way|same|case)"
    r"|same\s+(?:as|every|each)\s+(?:always|usual|ever|last|the\s+last|every|each|before)|(?:this\s+)?always\s+happens"
    r"|(?:always|every\s+time)\s+(?:do(?:es)?\s+(?:this|that|it)\s+to\s+me|do(?:es)?\s+(?:this|that))"
    r"|happens\s+every\s+(?:single\s+)?time)\b"
)
_HABIT_LOW_RE = fast_pattern(_HABIT_RE.pattern)
# What a session did: the rules' reactions, and a pace, a heart rate or a form that gave way.
_AFTER_EFFECT_LOW_RE = fast_pattern(
    r"\b(?:" + REACTION + r"|(?:fell|falls?|falling)\s+apart|drift\w*|blew\s+up|blows\s+up|died|dies|faded"
    r"|(?:legs|quads|calves|body)\s+(?:were\s+|are\s+|felt\s+|feel\s+)?(?:gone|done|shot))"
)
_MAX_CODA_WORDS = 8  # a sentence that only says "same as the last 3 hot runs" or "squats always do this"


def text_has_habit(low: str) -> bool:
    """Whether a lower-cased text holds a word of habit at all (once per text: most have none)."""
    return _HABIT_LOW_RE.search(low) is not None


def habit_span(low: str, sentence: Span, previous: Span | None) -> Span | None:
    """The span of a reaction the sentence calls habitual, in it or, for a short sentence that is only the word of
    habit, in the sentence before it (`previous`, when that sentence stated nothing); None when there is none."""
    habit = _HABIT_LOW_RE.search(low, sentence.start, sentence.end)
    if habit is None:
        return None
    if _AFTER_EFFECT_LOW_RE.search(low, sentence.start, sentence.end) is not None:
        return sentence
    short = len(low[sentence.start : sentence.end].split()) <= _MAX_CODA_WORDS
    if previous is not None and short and _AFTER_EFFECT_LOW_RE.search(low, previous.start, previous.end) is not None:
        return Span(previous.start, sentence.end)
    return None
