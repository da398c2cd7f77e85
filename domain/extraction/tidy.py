"""Evidence into content: filler stripped, first person turned into a third-person statement.

"I prefer morning runs" becomes "Prefers morning runs"; a fragment under three words grows into
its neighbouring clauses, and failing that becomes a short statement ("Reported sore knee").
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence

from domain.content import MAX_CONTENT as MAX_CONTENT_CHARS
from domain.enums import MemoryType
from domain.extraction.clauses import Span, span_end, span_start
from domain.extraction.folding import Folded
from domain.extraction.lexicon import ADVERBS, ANY_BODY_PART, BODY_WORDS, words
from domain.extraction.lexicon import APOSTROPHE as _A

MIN_CONTENT_WORDS = 3
_MAX_GROWTH = 8  # neighbouring clauses a fragment may take in; bounds the work on pathological input

_LEADING_FILLER_RE = re.compile(
    r"^(?:(?:and|but|so|also|then|plus|oh|ah|ugh|well|anyway|anyways|btw|fyi|ps|honestly|tbh|basically|actually"
    r"|yeah|yes|ok|okay|hey|hi|wait[\s,.!-]+no|no[\s,.!-]+wait|wait|sorry|just\s+so\s+you\s+know|just\s+a\s+quick\s+note|quick\s+note)\b[\s,:;!.-]*)+",
    re.IGNORECASE,
)
_TRAILING_PUNCTUATION = frozenset(",;:.!?-–—")
_TRAILING_WORD_RE = re.compile(r"\s(?:though|tbh|lol|haha|imo|anyways?)\Z", re.IGNORECASE)
_TRAILING_WORD_WINDOW = len(" anyways")


def strip_trailing_filler(text: str) -> str:
    """Drop trailing spaces, punctuation and filler words: "knee sore, tbh!" becomes "knee sore".

    Scanning back from the end keeps this linear. A regex anchored with `$` is tried at every
    position, and the one this replaces nested its repetitions, which made a run of dashes
    before a letter take exponential time.
    """
    end = len(text)
    while True:
        while end and (text[end - 1] in _TRAILING_PUNCTUATION or text[end - 1].isspace()):
            end -= 1
        word = _TRAILING_WORD_RE.search(text, max(0, end - _TRAILING_WORD_WINDOW), end)
        if word is None:
            return text[:end]
        end = word.start()


def _strip_filler(text: str) -> str:
    return strip_trailing_filler(_LEADING_FILLER_RE.sub("", text))


_ADVERB_TEXT = ADVERBS + " never rarely quite"
_ADVERB_WORDS = "|".join(_ADVERB_TEXT.split())
_SIDE_OR_BODY = r"(?:(?:left|right|lower|upper)\s+)?(?:" + ANY_BODY_PART + r")\b"
_LEADING_MY_BODY_RE = re.compile(r"^my\s+(?=" + _SIDE_OR_BODY + r")", re.IGNORECASE)
_LEADING_SUBJECT_RE = re.compile(
    r"^(?P<s>i" + _A + r"m|i\s+am|i" + _A + r"ve|i" + _A + r"d|i" + _A + r"ll|my|i)\b\s*", re.IGNORECASE
)
_Replacement = str | Callable[[re.Match[str]], str]


# After a mid-sentence "I": words that are not its verb ("I and my wife", "I or my coach", "Hills, I just").
_NOT_A_VERB = words("and or nor but plus " + _ADVERB_TEXT)
_BESIDE_SUBJECT = _ADVERB_WORDS + "|too|myself|personally"  # "I too am", "I myself go": the verb follows


def _athlete_does(m: re.Match[str]) -> str:
    """A mid-sentence "I like" is "the athlete likes": the subject named, its verb in the third person."""
    word = m.group(2)
    verb = word if word.lower() in _NOT_A_VERB else _third_person_verb(word)
    return f"the athlete {m.group(1)}{verb}"


def _word_before(m: re.Match[str]) -> str:
    """The word before a match, lower-cased ("" at the start)."""
    before = m.string[max(0, m.start() - 12) : m.start()].split()
    return before[-1].lower().replace("’", "'") if before else ""


# "mine" the athlete's own ("mornings are mine"), not the pit ("twelve hours down the mine", "a coal mine").
_PIT_BEFORE = words("the a coal gold salt tin iron old copper")


def _mine(m: re.Match[str]) -> str:
    return m.group() if _word_before(m) in _PIT_BEFORE else "the athlete's"


# The people a dialect "me" is the athlete's own: "me mam", "me da", "me missus", "me bairns".
_KIN = (
    r"(?:mam|mammy|mum|mom|ma|da|dad|daddy|nan|nanna|nana|gran|granny|grandad|missus|missis|fella|husband|wife"
    r"|partner|kids|bairns?|weans?|brother|sister|sis|bro|auld\s+(?:man|fella|one|wan)|old\s+(?:man|lady|dear))\b"
)
# Before a body part "me" is "my" only where no verb can take it as its object: "me knee's gone", "wi' me back"
# (not "hills give me knee pain").
_BEFORE_MY_BODY = words("wi wi' with in on to of and at from for by about up under")


def _me_body(m: re.Match[str]) -> str:
    before = _word_before(m)
    return "" if m.start() == 0 or before in _BEFORE_MY_BODY else m.group()


# Never "they" or "them" for the athlete (issue 13): "the athlete", or the subject dropped.
_MID_REPLACEMENTS: tuple[tuple[re.Pattern[str], _Replacement], ...] = tuple(
    (re.compile(p, re.IGNORECASE), r)
    for p, r in (
        (r"\bi" + _A + r"m\b", "the athlete is"),
        (r"\bi\s+am\b", "the athlete is"),
        (r"\bi\s+was\b", "the athlete was"),
        (r"\bi" + _A + r"ve\b", "the athlete has"),
        (r"\bi" + _A + r"d\b", "the athlete would"),
        (r"\bi" + _A + r"ll\b", "the athlete will"),
        (r"(?<![\w.'’])i\s+((?:(?:" + _BESIDE_SUBJECT + r")\s+)*)([\w'’]+)", _athlete_does),
        (r"(?<![\w.'’])i(?![\w.'’])", "the athlete"),
        (r"\bmyself\b", ""),  # "pushes myself too hard": "pushes too hard" (the spaces closed up after)
        (r"\bmine\b(?!\s+(?:shafts?|sites?|workers?|face)\b)", _mine),
        # dialect "me" for "my": "Me mam is poorly" is the athlete's mam; "wi' me knee" is the knee
        (r"\bme\s+(?=" + _KIN + r")", "the athlete's "),
        (r"\bme\s+(?=" + _SIDE_OR_BODY + r")", _me_body),
        (r"\bme\b", "the athlete"),
        (r"\bmy\s+(?=" + _SIDE_OR_BODY + r")", ""),
        (r"\bmy\b", "the athlete's"),
    )
)
# Every match of a _MID_REPLACEMENTS pattern holds one of these words: one search tells whether any can match.
_FIRST_PERSON_ANYWHERE_RE = Folded(r"\bi(?!\w)|\bm(?:e|y|ine|yself)\b")
_ADVERBS = words(_ADVERB_TEXT)
_IRREGULAR = {
    "have": "has",
    "do": "does",
    "go": "goes",
    "am": "is",
    "are": "is",
    "be": "is",
    "don't": "doesn't",
    "don’t": "doesn’t",
    "dont": "doesn't",
    "haven't": "hasn't",
    "haven’t": "hasn’t",
}
_UNCHANGED = words(
    "can could will would should might must may shall cannot can't won't wouldn't couldn't shouldn't did didn't was"
    " wasn't had hadn't hurt felt got ran tore took went came made left kept put set cut hit fell broke"
    " wore spent said thought knew saw told found bought brought lost won swam rode began heard"
)
_SUBJECT_REPLACEMENTS = {
    "i'm": "is",
    "i am": "is",
    "i've": "has",
    "i'd": "would",
    "i'll": "will",
    "my": "the athlete's",
}
_CONTROL_RE = re.compile(r"\s+")


# Verbs that end in -ly; any other word of five letters or more ending so, before another word, is an
# adverb ("I finally got", "I genuinely enjoy"), not the verb to put in the third person.
_LY_VERBS = words("apply reply rely supply comply imply multiply rally tally bully sully fly ally")


def _is_adverb(lower: str) -> bool:
    return lower in _ADVERBS or (len(lower) >= 5 and lower.endswith("ly") and lower not in _LY_VERBS)


def _third_person_verb(word: str) -> str:
    lower = word.lower()
    if lower in _IRREGULAR:
        return _IRREGULAR[lower]
    past = lower.endswith("ed") and not lower.endswith("eed")
    if lower in _UNCHANGED or past or not word.isalpha() or not word.isascii():
        return word
    if lower.endswith(("s", "sh", "ch", "x", "z", "o")):
        return word + "es"
    if len(lower) > 1 and lower.endswith("y") and lower[-2] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"


def _third_person(content: str) -> str:
    m = _LEADING_MY_BODY_RE.match(content)
    if m:
        content = content[m.end() :]
    else:
        m = _LEADING_SUBJECT_RE.match(content)
        if m:
            subject = m.group("s").lower().replace("’", "'")
            rest = content[m.end() :]
            if subject in _SUBJECT_REPLACEMENTS:
                content = f"{_SUBJECT_REPLACEMENTS[subject]} {rest}"
            else:
                parts = rest.split(" ")
                i = 0
                while i < len(parts) - 1 and _is_adverb(parts[i].lower()):
                    i += 1
                if parts[i]:
                    parts[i] = _third_person_verb(parts[i])
                content = " ".join(parts)
    if _FIRST_PERSON_ANYWHERE_RE.search(content) is not None:  # most contents hold no "I", "me" or "my" by now
        for pattern, replacement in _MID_REPLACEMENTS:
            content = pattern.sub(replacement, content)
    return _CONTROL_RE.sub(" ", content)


_THEY_RE = re.compile(
    r"(?:they" + _A + r"re|they\s+are)\s+|(?P<aux>they(?:" + _A + r"ve|" + _A + r"d|" + _A + r"ll)\s+)|(they)\s+(?=\w)",
    re.IGNORECASE,
)
_THEY_AUX = {"'ve": "has", "'d": "would", "'ll": "will"}


_LEADING_THEIR_BODY_RE = re.compile(r"(?:his|her|their)\s+(?=" + _SIDE_OR_BODY + r")", re.IGNORECASE)
# "Their job's in construction": the athlete's job.
_LEADING_THEIR_RE = re.compile(r"(?:his|her|their)\s+(?=\w)", re.IGNORECASE)


# "He's had surgery" (has), "She's 14" (is), "He hates hills": a leading he/she is the athlete.
_HAS_PARTICIPLES = r"(?:had|been|got|gone|done|tried|started|stopped|broken|torn)\b"  # "He's tired" is "is"
_HE_SHE_RE = re.compile(
    r"(?:he|she)(?:(" + _A + r"s\s+(?=" + _HAS_PARTICIPLES + r"))|(" + _A + r"s\s+|\s+is\s+)|\s+(?=\w))",
    re.IGNORECASE,
)


def about_the_athlete(content: str) -> str:
    """A note written about the athlete: "They hate the rain" becomes "Hates the rain", "Her knee hurts"
    becomes "Knee hurts", "He's had surgery" becomes "Has had surgery"."""
    he = _HE_SHE_RE.match(content)
    if he is not None:
        rest = content[he.end() :]
        if he.group(1) is not None:
            rest = f"has {rest}"
        elif he.group(2) is not None:
            rest = f"is {rest}"
        if rest:
            return rest[0].upper() + rest[1:]
    body = _LEADING_THEIR_BODY_RE.match(content)
    if body is not None:
        rest = content[body.end() :]
        return rest[0].upper() + rest[1:]
    their = _LEADING_THEIR_RE.match(content)
    if their is not None:
        return f"The athlete's {content[their.end() :]}"
    m = _THEY_RE.match(content)
    if m is None:
        return content
    rest = content[m.end() :]
    if m.group("aux") is not None:
        aux = m.group("aux").strip().lower().replace("’", "'")[4:]
        rest = f"{_THEY_AUX[aux]} {rest}"
    elif m.group(2) is None:
        rest = f"is {rest}"
    else:
        first, _, tail = rest.partition(" ")
        rest = f"{_third_person_verb(first)} {tail}".strip()
    return rest[0].upper() + rest[1:] if rest else content


# ASCII's control characters (category C) as spaces; its only separator (category Z) is the space itself.
_ASCII_CONTROLS = str.maketrans({i: " " for i in (*range(32), 127)})


def _clean(raw: str) -> str:
    if raw.isascii():  # the same as the loop below, without a look-up per character
        text = raw.translate(_ASCII_CONTROLS)
    else:
        text = "".join(" " if unicodedata.category(ch)[0] in "CZ" else ch for ch in raw)
    return _CONTROL_RE.sub(" ", text).strip()


# A sentence inside a statement starts with a capital: "... fewer tempos? The athlete enjoys those way more".
_NEXT_SENTENCE_RE = re.compile(r"([.?!]\s+)the athlete\b")


def _tidy(raw: str) -> str:
    content = _clean(raw)
    content = _third_person(_strip_filler(content)).strip()
    if not content:
        return ""
    content = content[0].upper() + content[1:]
    if "the athlete" in content:
        content = _NEXT_SENTENCE_RE.sub(r"\1The athlete", content)
    if len(content) > MAX_CONTENT_CHARS:
        content = content[:MAX_CONTENT_CHARS].rsplit(" ", 1)[0] or content[:MAX_CONTENT_CHARS]
    return content[:MAX_CONTENT_CHARS]


def _word_count(content: str) -> int:
    return len(content.split())


def content(text: str, span: Span, clauses: Sequence[Span], type_: MemoryType) -> tuple[str, Span]:
    """Tidy the evidence; a fragment under three words grows into its neighbouring clauses."""
    tidied = _tidy(text[span.start : span.end])
    if _word_count(tidied) < MIN_CONTENT_WORDS and clauses:
        first = bisect_right(clauses, span.start, key=span_end)
        first = 0 if first == len(clauses) else first
        last = bisect_left(clauses, span.end, key=span_start) - 1
        last = first if last < 0 else last
        for _ in range(_MAX_GROWTH):
            if _word_count(tidied) >= MIN_CONTENT_WORDS or (first == 0 and last == len(clauses) - 1):
                break
            if last < len(clauses) - 1:
                last += 1
            else:
                first -= 1
            span = Span(min(span.start, clauses[first].start), max(span.end, clauses[last].end))
            tidied = _tidy(text[span.start : span.end])
    if tidied and _word_count(tidied) < MIN_CONTENT_WORDS:
        tidied = _short_statement(text[span.start : span.end], tidied, type_)
    if tidied.count("(") > tidied.count(")"):  # a clause cut inside brackets: "Currently pregnant (20 weeks"
        tidied = tidied[: MAX_CONTENT_CHARS - 1] + ")"
    return tidied, span


_FIRST_PERSON_START_RE = re.compile(r"(?:i\b|i" + _A + r"|my\b)", re.IGNORECASE)
_ADJ_AFTER_BODY_RE = re.compile(
    r"((?:left|right|lower|upper)\s+)?(\w+)\s+(sore|tight|stiff|swollen|achy|tender|painful|niggly)", re.IGNORECASE
)


# The athlete's "I" in a short statement: "I'm vegan" is "The athlete is vegan".
_SHORT_SUBJECTS = {
    "my": "The athlete's",
    "i'm": "The athlete is",
    "im": "The athlete is",
    "i've": "The athlete has",
    "i'd": "The athlete would",
    "i'll": "The athlete will",
}


def _short_statement(raw: str, content: str, type_: MemoryType) -> str:
    """At least three words: "I swim" becomes "The athlete swims", "Knee sore" becomes "Reported sore knee"."""
    cleaned = _strip_filler(_clean(raw))
    if _FIRST_PERSON_START_RE.match(cleaned):
        first, *others = cleaned.split(" ", 1)
        said = first.replace("’", "'").lower()
        subject = _SHORT_SUBJECTS.get(said)
        rest = others[0] if others else ""
        statement = rest if subject is not None else cleaned  # "I swim": the replacements below name the athlete
        for pattern, replacement in _MID_REPLACEMENTS[:-2]:
            statement = pattern.sub(replacement, statement)
        statement = f"{subject or ''} {statement}".strip()
        statement = statement[0].upper() + statement[1:]
        if _word_count(statement) < MIN_CONTENT_WORDS:
            statement = f"Says {statement[0].lower()}{statement[1:]}"
        return statement[:MAX_CONTENT_CHARS]
    flipped = _ADJ_AFTER_BODY_RE.fullmatch(content)
    if flipped and flipped.group(2).lower() in BODY_WORDS:
        content = f"{flipped.group(3)} {flipped.group(1) or ''}{flipped.group(2)}".lower()
    prefix = "Reported" if type_ in (MemoryType.INJURY_HISTORY, MemoryType.TRAINING_RESPONSE) else "Mentioned"
    # an abbreviation keeps its capitals: "ITB again" is "Reported ITB again", not "Reported iTB again"
    first = content[0] if content[1:2].isupper() else content[0].lower()
    return f"{prefix} {first}{content[1:]}"[:MAX_CONTENT_CHARS]
