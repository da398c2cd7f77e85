"""Who a clause is about, and whether a symptom is negated."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator
from itertools import accumulate, chain

from domain.extraction.clauses import Span
from domain.extraction.folding import Folded
from domain.extraction.lexicon import APOSTROPHE as _A
from domain.extraction.lexicon import BODY_WORDS, WORD_RE, words

_OTHER_NOUNS = (
    r"friends?|mates?|buddy|buddies|pal|wife|husband|partner|boyfriend|girlfriend|fianc[eé]e?|spouse|sons?|daughters?"
    r"|kids?|child|children|brothers?|sisters?|siblings?|mum|mom|mother|dad|father|parents?|coach|physio|doctor"
    r"|teammates?|colleagues?|neighbou?rs?|cousin|uncle|aunt|grandma|grandpa|baby|club\s*mates?"
)
_PERSON_REF_RE = Folded(
    r"(?P<other>\b(?:my|our|a|the|his|her|their)\s+(?:\w+\s+)?(?:" + _OTHER_NOUNS + r")\b"
    r"|\b(?:you|your|yours)\b|(?P<pronoun>\b(?:he|she|him|her|his|hers|they|them|their)\b))"
    r"|(?P<self>\b(?:i|me|my|mine|myself)\b)",
)
# A note that never says I/me/my but says he/she/they is a coach or parent writing about the athlete.
_FIRST_PERSON_RE = Folded(r"\b(?:i|me|my|mine|myself|we|our|us)\b|\bi" + _A)
_THIRD_PERSON_RE = Folded(r"\b(?:he|she|they|them|his|her|their)\b")
_COMMON_CAPITALISED = words(
    "I It It's This That Today Yesterday Tonight Everything Nothing Run Race Pace Weather Legs Body Left Right Lower"
    " Upper Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February March April May June July"
    " August September October November December Coach Physio Doctor Strava Garmin"
    # a condition named after a sport: "Swimmer's shoulder", "Runner's knee"
    " Swimmer Runner Jumper Golfer Climber Tennis"
    # contractions typed without the apostrophe: "Ive got a dodgy knee"
    " Ive Im Id Ill Dont Cant Wont Didnt Doesnt Isnt Wasnt"
)
_NAME_RE = re.compile(
    # "Morton's neuroma" names a condition, not a person.
    r"\b([A-Z][a-z]+)(?:" + _A + r"s\b(?!\s+(?:neuroma|disease|syndrome|deformity|fracture|bursitis)\b)"
    r"|\s+(?=(?P<verb>has|had|says|said|thinks|told|keeps|got|tweaked|hurt|rolled"
    r"|pulled|strained|sprained|twisted|complained)\b))"
)
_INHERITS_SUBJECT_RE = Folded(
    r"(?:has|had|have|is|was|got|gets|keeps|says|said|complains|complained)\b",
)

# "\w+n't", or the same without its apostrophe; not any word ending in "nt" ("went", "sent").
_NEGATOR_RE = re.compile(
    r"^(?:no|not|zero|without|never|none|nothing|hardly|barely|\w+n" + _A + r"t|(?:do|does|did|ca|wo|is|was|are|were"
    r"|have|has|had|should|could|would|ai|must|need)nt)$",
    re.IGNORECASE,
)
_NEGATION_STOP = words("because as since when until after so and but then while")


Mention = tuple[int, int, bool]  # start, how far its match reads (lookahead included), whether someone else


def _person_refs(text: str, start: int, end: int) -> Iterator[Mention]:
    for m in _PERSON_REF_RE.finditer(text, start, end):
        yield m.start(), m.end(), m.group("other") is not None


def _person_refs_athlete_third(text: str, start: int, end: int) -> Iterator[Mention]:
    """As `_person_refs`, where he/she/they are the athlete."""
    for m in _PERSON_REF_RE.finditer(text, start, end):
        yield m.start(), m.end(), m.group("other") is not None and m.group("pronoun") is None


def lowered(text: str) -> str:
    """The text in lower case with every offset kept, for patterns compiled without IGNORECASE (several
    times faster); the rare character whose lower case is longer ("İ") is kept as it is."""
    low = text.lower()
    if len(low) == len(text):
        return low
    return "".join(ch if len(ch.lower()) != 1 else ch.lower() for ch in text)


# A coach relaying what the athlete said: "He told me his achilles flares ...", "She says she hates ...".
REPORTING_LEAD_RE = Folded(
    r"(?:(?:per\s+our\s+(?:call|chat|conversation)|spoke\s+to\s+\w+|update\s+from\s+\w+|athlete\s+(?:says|said"
    r"|reports))\W+)?"
    r"(?:(?:he|she|they)\s+(?:says|say|said|told\s+me|tells\s+me|mentioned|mentions|reports|reported|explained"
    r"|let\s+me\s+know)(?:\s+that)?|mentioned|athlete\s+(?:says|said|reports|reported))\b"
    r"|(?:per\s+our\s+(?:call|chat|conversation)|spoke\s+to\s+\w+)\W+(?=(?:he|she|they)\b)",
)


def written_about_athlete(text: str) -> bool:
    """True for a note in the third person about the athlete: "Intervals always leave them wrecked", or a
    coach relaying what the athlete said ("He told me his achilles flares ...")."""
    lead = REPORTING_LEAD_RE.match(text, len(text) - len(text.lstrip()))
    rest = lead.end() if lead is not None else 0
    return _FIRST_PERSON_RE.search(text, rest) is None and _THIRD_PERSON_RE.search(text) is not None


# A parent writing for their child, the athlete: "(Writing for my son, 14) He's had ...", "my daughter is 16,
# plays hockey, keeps getting back pain", "re my son: he's 12". The text opens with the child (or says it is
# written for them); the child, he/she and his/her are then the athlete (the outside writers' convention,
# tests/data/extraction_cases.yaml, header). "My son's team" or "I coach my son" leave the writer the athlete.
_CHILD = r"(?:son|daughter|boy|girl|lad|kid)\b"
_CHILD_ATHLETE_RE = re.compile(
    r"(?:(?:writing|asking|messaging|here)\s+(?:for|about|on\s+behalf\s+of)\s+|re:?\s+|about\s+|coach,?\s+)?"
    r"my\s+(?:\d+[-\s]?(?:yo|year[-\s]old)\s+)?" + _CHILD + r"(?!" + _A + r"s\b)",
    re.IGNORECASE,
)
_FIRST_WORD_RE = re.compile(r"\w")
_CHILD_RE = re.compile(r"\b(?:my|our)\s+" + _CHILD, re.IGNORECASE)
# In a statement about the child, the child is "the athlete" ("my son would rather do hill sprints").
CHILD_SAID_RE = re.compile(r"\b(?:my|their|our)\s+" + _CHILD, re.IGNORECASE)


def written_for_child(text: str) -> bool:
    """True for a parent's note about their child, who is the athlete (`_CHILD_ATHLETE_RE`)."""
    first = _FIRST_WORD_RE.search(text)
    return first is not None and _CHILD_ATHLETE_RE.match(text, first.start()) is not None


def _person_refs_child(text: str, start: int, end: int) -> Iterator[Mention]:
    """As `_person_refs`, where the child, he/she and his/her are the athlete."""
    for m in _PERSON_REF_RE.finditer(text, start, end):
        other = m.group("other") is not None and m.group("pronoun") is None
        if other and _CHILD_RE.fullmatch(m.group()) is not None:
            other = False
        yield m.start(), m.end(), other


def _names(text: str, start: int, end: int) -> Iterator[Mention]:
    for m in _NAME_RE.finditer(text, start, end):
        if m.group(1) not in _COMMON_CAPITALISED and m.group(1).lower() not in BODY_WORDS:
            yield m.start(), m.end("verb") if m.group("verb") is not None else m.end(), True


Scan = Callable[[str, int, int], Iterator[Mention]]
_SCANS: tuple[Scan, ...] = (_person_refs, _names)
_SCANS_ATHLETE_THIRD: tuple[Scan, ...] = (_person_refs_athlete_third, _names)
_SCANS_CHILD: tuple[Scan, ...] = (_person_refs_child, _names)


def _nearest(last_self: int, last_other: int) -> str | None:
    """Who is mentioned last, given where the last mention of each kind starts: "other", "self" or None."""
    if last_self < 0 and last_other < 0:
        return None
    return "other" if last_other > last_self else "self"


def _last_of_each(mentions: Iterable[Mention]) -> tuple[int, int]:
    last_self = last_other = -1
    for start, _, other in mentions:
        if other:
            last_other = max(last_other, start)
        else:
            last_self = max(last_self, start)
    return last_self, last_other


def _with_mention(last: tuple[int, int], mention: Mention) -> tuple[int, int]:
    start, _, other = mention
    return (last[0], start) if other else (start, last[1])


class _Scanned:
    """One scan's mentions in a sentence, in text order, with the last of each kind up to each one."""

    def __init__(self, scan: Scan, text: str, sentence: Span) -> None:
        self.scan, self.text = scan, text
        self.mentions = list(scan(text, sentence.start, sentence.end))
        self.reaches = [reach for _, reach, _ in self.mentions]
        self.last = list(accumulate(self.mentions, _with_mention, initial=(-1, -1)))

    def last_before(self, end: int) -> tuple[int, int]:
        """What a scan from the sentence start up to `end` would find last, of each kind."""
        inside = bisect_right(self.reaches, end)
        last_self, last_other = self.last[inside]
        if inside < len(self.mentions) and self.mentions[inside][0] < end:
            # This mention reads across `end`: a scan stopping at `end` reads that stretch differently.
            more_self, more_other = _last_of_each(self.scan(self.text, self.mentions[inside][0], end))
            last_self, last_other = max(last_self, more_self), max(last_other, more_other)
        return last_self, last_other


class People:
    """Who a clause is about: the nearest person mentioned before the fact, in the clause or, for a
    clause that starts with a verb ("..., has knee pain"), earlier in the sentence.

    The sentence's mentions are found once: scanning it again for every clause made a long
    sentence of many clauses quadratic.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.lower = lowered(text)
        self.for_child = written_for_child(text)
        if self.for_child:  # the rules read the child as "he", the athlete in the third person (offsets kept)
            self.lower = _CHILD_RE.sub(lambda m: "he".ljust(len(m.group())), self.lower)
        self.third_person = self.for_child or written_about_athlete(text)
        self._scans = _SCANS_CHILD if self.for_child else _SCANS_ATHLETE_THIRD if self.third_person else _SCANS
        self._sentence: Span | None = None
        self._scanned: list[_Scanned] = []

    def _earlier_in_sentence(self, sentence: Span, end: int) -> str | None:
        if end <= sentence.start:
            return None
        if sentence != self._sentence:
            self._sentence, self._scanned = sentence, [_Scanned(scan, self.text, sentence) for scan in self._scans]
        lasts = [scanned.last_before(end) for scanned in self._scanned]
        return _nearest(max(s for s, _ in lasts), max(o for _, o in lasts))

    def about_someone_else(self, sentence: Span, clause: Span, anchor: int) -> bool:
        """True when the nearest person mentioned before `anchor` is not the athlete."""
        in_clause = chain.from_iterable(scan(self.text, clause.start, anchor) for scan in self._scans)
        kind = _nearest(*_last_of_each(in_clause))
        if kind is None and _INHERITS_SUBJECT_RE.match(self.text, clause.start, clause.end):
            kind = self._earlier_in_sentence(sentence, clause.start)
        return kind == "other"


def negated(text: str, clause: Span, symptom: re.Match[str]) -> bool:
    before = WORD_RE.findall(text, max(clause.start, symptom.start() - 60), symptom.start())
    for word in reversed(before[-6:]):
        if word.lower() in _NEGATION_STOP:
            return False
        if _NEGATOR_RE.match(word):
            return True
    after = text[symptom.end() : symptom.end() + 6].lower()
    return after.startswith(("-free", " free"))
