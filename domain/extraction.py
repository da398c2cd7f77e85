"""Turn an activity note or chat message into candidate memories (M13 seed §5.1, improved).

The seed matched its regexes against the whole text, so "no knee pain today" became an
injury and one fact matched by two patterns became two memories. Here the text is cut into
sentences and clauses first; every rule then looks at one clause, and a clause is skipped when
it is a question, about someone else, negated, recovered or hypothetical. Each clause yields at
most one candidate per memory type, and equal facts within one text are merged.

Confidence follows the seed's `_assess_confidence`: explicit statements (I prefer, my job,
history of / chronic, explicit "remember that") are high; preferences and training responses
are medium; everything else (a body part with a symptom, family, other sports, recovery rate)
is low.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from itertools import islice
from typing import Protocol

from domain.enums import CONFIDENCE_RANK, MemoryConfidence, MemorySource, MemoryType

MAX_CONTENT_CHARS = 2000
MIN_CONTENT_WORDS = 3

HIGH, MEDIUM, LOW = MemoryConfidence.HIGH, MemoryConfidence.MEDIUM, MemoryConfidence.LOW
INJURY, PREFERENCE = MemoryType.INJURY_HISTORY, MemoryType.PREFERENCE
CONTEXT, RESPONSE = MemoryType.CONTEXT, MemoryType.TRAINING_RESPONSE


@dataclass(frozen=True)
class Candidate:
    """A proposed memory with the span of `text` it was read from."""

    type: MemoryType
    content: str
    confidence: MemoryConfidence
    tags: tuple[str, ...]
    evidence_start: int
    evidence_end: int
    extractor: str


class Extractor(Protocol):
    name: str

    def extract(self, text: str, source: MemorySource, source_reference: str | None = None) -> list[Candidate]: ...


# --- entity lists (seed §4.2), each canonical value with the spellings that mean it ----------

_A = r"['’]"  # straight or curly apostrophe

BODY_PARTS: dict[str, str] = {
    "knee": r"knees?|kneecaps?|patell\w*|acl|mcl|meniscus",
    "ankle": r"ankles?",
    "calf": r"calf|calves|soleus",
    "shin": r"shins?",
    "hip": r"hips?(?:\s+flexors?)?",
    "hamstring": r"hamstrings?|hamm(?:y|ies)",
    "quad": r"quads?|quadriceps",
    "achilles": r"achilles(?:" + _A + r"s?)?",
    "foot": r"foot|feet|arch(?:es)?\s+of\s+(?:my|the)\s+foot|metatarsals?|toes?",
    "heel": r"heels?",
    "back": (
        r"(?<=lower\s)back|(?<=upper\s)back|(?<=my\s)back(?!\s+(?:to|on|in|into|home|half|end|from|up|out|off|at)\b)"
        r"|back(?=\s+(?:pain|ache|aches|aching|spasms?|issues?|problems?|injury|is|was|went|hurts?|hurting"
        r"|tightness|stiffness|feels|felt|flared|seized|locked)\b)"
    ),
    "shoulder": r"shoulders?",
    "it band": r"it[-\s]?bands?|itb|iliotibial(?:\s+band)?",
    "plantar": r"plantar(?:\s+fascia|\s+fasciitis)?",
    "glute": r"glutes?|gluteal|piriformis",
    "groin": r"groin|adductors?",
    "neck": r"neck",
}

TIME_PREFERENCES: dict[str, str] = {
    "morning": r"mornings?|am\s+runs?|sunrise|dawn|first\s+thing",
    "evening": r"evenings?|nights?",
    "afternoon": r"afternoons?",
    "lunch": r"lunch(?:time|\s*break)?|midday",
    "early": r"early(?!\s+(?:in|on|last)\b)",
    "late": r"late(?!\s+(?:in|on|last)\b)",
    "before work": r"before\s+work",
    "after work": r"after\s+work",
}

INTENSITY_TOPICS: dict[str, str] = {
    "easy": r"easy",
    "hard": r"hard(?:\s+(?:days?|sessions?|efforts?|workouts?))?",
    "tempo": r"tempos?(?:\s+runs?)?",
    "intervals": r"intervals?",
    "long run": r"long\s+runs?",
    "recovery": r"recovery\s+runs?",
    "speed work": r"speed\s*work|speed\s+sessions?",
    "hill repeats": r"hill\s+(?:repeats|reps|sprints)",
}

CONTEXT_TOPICS: dict[str, str] = {
    "travel": r"travel\w*|trips?\s+for\s+work",
    "family": r"family|wife|husband|partner|pregnan\w*",
    "kids": r"kids?|children|child|sons?|daughters?|baby|toddlers?|twins|newborn|(?:dad|mum|mom|mother|father)\s+of",
    "commute": r"commut\w*",
    "gym": r"gym|weights|lift(?:s|ing)?|strength(?:\s+training|\s+work)?|crossfit",
    "climbing": r"climb\w*|boulder\w*",
    "cycling": r"cycl\w*|bike|biking|spin(?:\s+class(?:es)?)?",
    "swimming": r"swim\w*",
    "yoga": r"yoga",
    "pilates": r"pilates",
}


def _words(spaced: str) -> frozenset[str]:
    return frozenset(spaced.split())


def _lexicon(entries: dict[str, str]) -> tuple[re.Pattern[str], dict[str, str]]:
    """One alternation with a named group per canonical value, for a single scan."""
    names = {f"g{i}": value for i, value in enumerate(entries)}
    alternation = "|".join(f"(?P<{g}>{entries[v]})" for g, v in names.items())
    return re.compile(rf"\b(?:{alternation})\b", re.IGNORECASE), names


_BODY_RE, _BODY_NAMES = _lexicon(BODY_PARTS)
_TIME_RE, _TIME_NAMES = _lexicon(TIME_PREFERENCES)
_INTENSITY_RE, _INTENSITY_NAMES = _lexicon(INTENSITY_TOPICS)
_CONTEXT_RE, _CONTEXT_NAMES = _lexicon(CONTEXT_TOPICS)


def _scan(pattern: re.Pattern[str], names: dict[str, str], kind: str, text: str) -> list[str]:
    found: list[str] = []
    for m in pattern.finditer(text):
        tag = f"{kind}:{names[m.lastgroup or '']}"
        if tag not in found:
            found.append(tag)
    return found


def _preference_tags(text: str) -> list[str]:
    return _scan(_TIME_RE, _TIME_NAMES, "time", text) + _scan(_INTENSITY_RE, _INTENSITY_NAMES, "intensity", text)


def _context_tags(text: str) -> list[str]:
    return _scan(_CONTEXT_RE, _CONTEXT_NAMES, "context", text)


def _all_tags(text: str) -> list[str]:
    return _scan(_BODY_RE, _BODY_NAMES, "body", text) + _preference_tags(text) + _context_tags(text)


# --- sentence and clause structure ------------------------------------------------------------

_SENTENCE_RE = re.compile(r"(?:[^.!?;\n\r\u2028\u2029]|\.(?=\w))+[.!?;]*")
_CLAUSE_SEP_RE = re.compile(
    r",|:\s|\s[-–—]+\s|[()]|\b(?:but|though|although|however|whereas|plus)\b"
    r"|\b(?:and|so)\s+(?=(?:i|i" + _A + r"m|i" + _A + r"ve|i" + _A + r"d|my|then)\b)|\bthen\b",
    re.IGNORECASE,
)
_QUESTION_START_RE = re.compile(
    r"^\W*(?:should|shall|can|could|would|will|do|does|did|is|are|was|were|am|have|has|what|what"
    + _A
    + r"?s|why|how|which|where|when|who|any|anyone|thoughts|wondering|wonder|ok\s+to|okay\s+to)\b",
    re.IGNORECASE,
)
# Questions without a question mark: "Is it normal to ...", "Any tips for ...".
_BARE_QUESTION_RE = re.compile(
    r"\W*(?:(?:should|can|could|do|does|is|are|what|why|which)\s+(?:i|you|we|it|my|this|that|there|an?|the)\b"
    r"|how\s+(?:long|much|many|often|do|does|can|should|to)\b|any\s+(?:tips|advice|ideas?|thoughts)\b"
    r"|(?:i\s+)?(?:am\s+)?wondering\s+(?:if|whether)\b)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class _Span:
    start: int
    end: int


def _trimmed(text: str, start: int, end: int) -> _Span | None:
    while start < end and not (text[start].isalnum()):
        start += 1
    while end > start and not (text[end - 1].isalnum() or text[end - 1] in "%)"):
        end -= 1
    return _Span(start, end) if start < end else None


def _sentences(text: str) -> list[tuple[_Span, bool]]:
    """Sentence spans with a flag telling whether the sentence is a question."""
    found: list[tuple[_Span, bool]] = []
    for m in _SENTENCE_RE.finditer(text):
        span = _trimmed(text, m.start(), m.end())
        if span is not None:
            found.append((span, "?" in m.group()))
    return found


def _clauses(text: str, sentence: _Span) -> list[_Span]:
    body = text[sentence.start : sentence.end]
    spans: list[_Span] = []
    cursor = 0
    for sep in _CLAUSE_SEP_RE.finditer(body):
        part = _trimmed(text, sentence.start + cursor, sentence.start + sep.start())
        if part is not None:
            spans.append(part)
        cursor = sep.end()
    part = _trimmed(text, sentence.start + cursor, sentence.end)
    if part is not None:
        spans.append(part)
    return spans


def _statement_clauses(text: str, sentence: _Span, is_question: bool) -> list[_Span]:
    """Clauses that state something: the interrogative part of a sentence is dropped."""
    clauses = _clauses(text, sentence)
    if _BARE_QUESTION_RE.match(text, sentence.start, sentence.end):
        return []
    if not is_question:
        return clauses
    for i, clause in enumerate(clauses):
        if _QUESTION_START_RE.match(text[clause.start : clause.end]):
            return clauses[:i]
    return []


# --- who is it about ---------------------------------------------------------------------------

_OTHER_NOUNS = (
    r"friends?|mates?|buddy|buddies|pal|wife|husband|partner|boyfriend|girlfriend|fianc[eé]e?|spouse|sons?|daughters?"
    r"|kids?|child|children|brothers?|sisters?|siblings?|mum|mom|mother|dad|father|parents?|coach|physio|doctor"
    r"|teammates?|colleagues?|neighbou?rs?|cousin|uncle|aunt|grandma|grandpa|baby|club\s*mates?"
)
_PERSON_REF_RE = re.compile(
    r"(?P<other>\b(?:my|our|a|the|his|her|their)\s+(?:\w+\s+)?(?:" + _OTHER_NOUNS + r")\b"
    r"|\b(?:he|she|him|her|his|hers|you|your|yours|they|them|their)\b)"
    r"|(?P<self>\b(?:i|me|my|mine|myself)\b)",
    re.IGNORECASE,
)
_COMMON_CAPITALISED = _words(
    "I It It's This That Today Yesterday Tonight Everything Nothing Run Race Pace Weather Legs Body Left Right Lower"
    " Upper Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February March April May June July"
    " August September October November December Coach Physio Doctor Strava Garmin"
)
_NAME_RE = re.compile(
    r"\b([A-Z][a-z]+)(?:" + _A + r"s\b|\s+(?=(?:has|had|says|said|thinks|told|keeps|got|tweaked|hurt|rolled|pulled"
    r"|strained|sprained|twisted|complained)\b))"
)
_INHERITS_SUBJECT_RE = re.compile(
    r"(?:has|had|have|is|was|got|gets|keeps|says|said|complains|complained)\b", re.IGNORECASE
)


def _is_about_someone_else(text: str, sentence: _Span, clause: _Span, anchor: int) -> bool:
    """True when the nearest person mentioned before `anchor` is not the athlete."""

    def last_ref(start: int, end: int) -> str | None:
        last_self = last_other = -1
        for m in _PERSON_REF_RE.finditer(text, start, end):
            if m.group("other"):
                last_other = m.start()
            else:
                last_self = m.start()
        for m in _NAME_RE.finditer(text, start, end):
            if m.group(1) not in _COMMON_CAPITALISED and m.group(1).lower() not in _BODY_WORDS:
                last_other = max(last_other, m.start())
        if last_self < 0 and last_other < 0:
            return None
        return "other" if last_other > last_self else "self"

    kind = last_ref(clause.start, anchor)
    if kind is None and _INHERITS_SUBJECT_RE.match(text, clause.start, clause.end):
        kind = last_ref(sentence.start, clause.start)
    return kind == "other"


# --- injuries -------------------------------------------------------------------------------

_BODY_WORDS = _words(
    "knee knees ankle ankles calf calves shin shins hip hips hamstring hamstrings quad quads achilles foot feet heel"
    " heels back shoulder shoulders glute glutes groin neck"
)

_SYMPTOM_RE = re.compile(
    r"\b(?:pain\w*|ache[sd]?|aching|achy|sore\w*|tight\w*|tighten\w*|hurt\w*|injur\w*|strain\w*|sprain\w*|tweak\w*"
    r"|niggl\w*|twinge\w*|twingy|stiff\w*|tendin\w*|tendon\w*|fasciitis|splints|swollen|swelling|inflam\w*"
    r"|issues?|problems?|cramp\w*|pulled|torn|tear|tore|fractur\w*|bruised|flare[sd]?|flaring|acting\s+up"
    r"|playing\s+up|grumbl\w*|complaining|throbb\w*|click\w*|gave\s+out|giving\s+out|locked\s+up|seized|surgery"
    r"|rolled|twisted|dodgy|cranky|barking|screaming|trashed|wrecked|killing\s+me|bugging\s+me|bothering\s+me"
    r"|bothers\s+me|not\s+(?:\w+\s+)?(?:right|great|happy|good)|wonky|tender|spasms?|weak)\b",
    re.IGNORECASE,
)
_NEGATOR_RE = re.compile(r"^(?:no|not|zero|without|never|none|nothing|hardly|barely|\w+n" + _A + r"?t)$", re.IGNORECASE)
_NEGATION_STOP = _words("because as since when until after so and but then while")
_WORD_RE = re.compile(r"[\w'’]+")
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


def _negated(text: str, clause: _Span, symptom: re.Match[str]) -> bool:
    before = _WORD_RE.findall(text, max(clause.start, symptom.start() - 60), symptom.start())
    for word in reversed(before[-4:]):
        if word.lower() in _NEGATION_STOP:
            return False
        if _NEGATOR_RE.match(word):
            return True
    after = text[symptom.end() : symptom.end() + 6].lower()
    return after.startswith(("-free", " free"))


def _near(text: str, a: int, b: int) -> bool:
    lo, hi = (a, b) if a < b else (b, a)
    return hi - lo <= _MAX_BODY_SYMPTOM_CHARS and len(_WORD_RE.findall(text, lo, hi)) <= _MAX_BODY_SYMPTOM_WORDS


@dataclass(frozen=True)
class _Injury:
    span: _Span
    tags: tuple[str, ...]
    confidence: MemoryConfidence


def _body_mentions(text: str, clause: _Span) -> list[re.Match[str]]:
    mentions = []
    for m in _BODY_RE.finditer(text, clause.start, clause.end):
        if _POSITIVE_STATE_RE.match(text, m.end(), clause.end):
            continue
        mentions.append(m)
        if len(mentions) == _MAX_MENTIONS:
            break
    return mentions


def _live_symptoms(text: str, clause: _Span) -> list[re.Match[str]]:
    body = text[clause.start : clause.end]
    if _RECOVERED_RE.search(body) or _HYPOTHETICAL_RE.search(body):
        return []
    live = (s for s in _SYMPTOM_RE.finditer(text, clause.start, clause.end) if not _negated(text, clause, s))
    return list(islice(live, _MAX_MENTIONS))


_Carry = tuple[_Span, list[re.Match[str]]]


def _injuries(text: str, sentence: _Span, clauses: Sequence[_Span], carry: _Carry | None) -> list[_Injury]:
    """Injury facts of one sentence; `carry` is a clause of the sentence before naming a body part only."""
    found: list[_Injury] = []
    pending = carry
    for clause in clauses:
        bodies = _body_mentions(text, clause)
        symptoms = _live_symptoms(text, clause)
        span = clause
        if symptoms and not bodies and pending is not None:
            span, bodies = _Span(pending[0].start, clause.end), pending[1]
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
            if chronic and generic and not _is_about_someone_else(text, sentence, clause, symptoms[0].start()):
                found.append(_Injury(span, (), HIGH))
            continue
        if _is_about_someone_else(text, sentence, _Span(min(span.start, clause.start), clause.end), near[0].start()):
            continue
        tags = tuple(dict.fromkeys(f"body:{_BODY_NAMES[b.lastgroup or '']}" for b in near))
        found.append(_Injury(span, tags, HIGH if chronic else LOW))
    return found


# --- the other memory types: one regex per seed pattern, widened -----------------------------------

_ADV = (
    r"(?:(?:really|absolutely|genuinely|actually|definitely|honestly|just|still|also|much|generally|usually|normally"
    r"|always|mostly|typically|totally|often|sometimes|only|kinda|kind\s+of|do|tend\s+to|seem\s+to|can\s+only)\s+)"
)
_TIME = r"(?:" + "|".join(TIME_PREFERENCES.values()) + r")"
_I_AM = r"\bi(?:" + _A + r"m|\s+am)\s+"
_RUN_OBJECT = re.compile(
    r"\b(?:run\w*|tempo\w*|intervals?|easy|hills?|hill\s+repeats|trails?|track|treadmill|races?|racing|parkrun"
    r"|speed\s*work|fartleks?|workouts?|training|sessions?|strides|threshold|miles|mileage|marathons?|half|5k|10k"
    r"|mornings?|evenings?|early|alone|company|road|roads|rain|heat|humid\w*|cold|hard|recovery|reps)\b",
    re.IGNORECASE,
)
_OCCUPATIONS = (
    r"nurse|teacher|doctor|gp|surgeon|physio(?:therapist)?|paramedic|firefighter|fireman|police\s*(?:man|woman|officer)?"
    r"|officer|engineer|developer|programmer|designer|architect|lawyer|solicitor|barrister|accountant|chef|cook"
    r"|waiter|waitress|barista|farmer|builder|carpenter|electrician|plumber|mechanic|driver|pilot|soldier|student"
    r"|consultant|manager|cleaner|carer|caregiver|pharmacist|dentist|vet|scientist|researcher|journalist|writer"
    r"|lecturer|professor|midwife|postman|postwoman|courier|cashier|receptionist|analyst|banker|trader|musician"
    r"|artist|photographer|hairdresser|personal\s+trainer|social\s+worker|surveyor|labourer|civil\s+servant"
    r"|shift\s+worker|warehouse\s+worker|retail\s+worker|care\s+worker|health\s*care\s+worker|tradesman"
)
_SPORTS = (
    r"yoga|pilates|crossfit|(?:the\s+)?gym|weights|strength(?:\s+training|\s+work)?|climbing|bouldering|cycling"
    r"|swimming|spin(?:\s+class(?:es)?)?|football|soccer|tennis|squash|padel|rugby|hockey|netball|basketball"
    r"|martial\s+arts|boxing|triathlons?|rowing|skiing|five-a-side|5-a-side"
)
_FAMILY_NOUN = r"(?:kids?|children|child|sons?|daughters?|baby|babies|newborn|toddlers?|twins|boys|girls|little\s+ones)"
_COUNT = r"(?:\d+|one|two|three|four|five|six|a|an)"
_STIMULUS = (
    r"(?:intervals?|tempos?(?:\s+runs?)?|long\s+runs?|hills?|hill\s+repeats|speed\s*work|track\s+sessions?|races?"
    r"|racing|back[-\s]to[-\s]back\s+\w+|high\s+mileage|mileage|hard\s+(?:sessions?|days?|efforts?)|workouts?"
    r"|heat|humidity|strides|doubles|early\s+runs?|morning\s+runs?|evening\s+runs?)"
)
_FEELING = (
    r"(?:tired|sore|wrecked|flat|sluggish|dizzy|nauseous|sick|drained|exhausted|shattered|knackered|dead|strong|great"
    r"|better|faster|hungry|stiff|out)"
)


@dataclass(frozen=True)
class _Rule:
    name: str
    type: MemoryType
    confidence: MemoryConfidence
    pattern: re.Pattern[str]
    needs_run_object: bool = False
    tags: tuple[str, ...] = ()


def _rule(
    name: str,
    type_: MemoryType,
    confidence: MemoryConfidence,
    pattern: str,
    *,
    needs_run_object: bool = False,
    tags: tuple[str, ...] = (),
) -> _Rule:
    return _Rule(name, type_, confidence, re.compile(pattern, re.IGNORECASE), needs_run_object, tags)


_RULES: tuple[_Rule, ...] = (
    # preferences
    _rule(
        "explicit_prefer",
        PREFERENCE,
        HIGH,
        r"\bi(?:" + _A + r"d|\s+would)?\s+" + _ADV + r"{0,2}(?:prefer|rather)\b(?=\s*\w)|\bmy\s+preference\s+is\b",
    ),
    _rule(
        "time_preference",
        PREFERENCE,
        MEDIUM,
        r"\b" + _TIME + r"(?:\s+\w+){0,3}?\s+(?:works?\s+(?:best|better)|(?:is|are)\s+(?:always\s+|just\s+|definitely"
        r"\s+|much\s+)?(?:best|better|ideal|my\s+favou?rite)|suits?\s+me)\b",
    ),
    _rule(
        "time_person",
        PREFERENCE,
        MEDIUM,
        _I_AM + r"(?:\w+\s+){0,2}?(?:an?|more\s+of\s+an?)\s+(?:morning|evening|night|early|lunchtime)\s+"
        r"(?:person|runner|bird|riser)\b|\b(?:early\s+bird|night\s+owl)\b",
    ),
    _rule(
        "time_habit",
        PREFERENCE,
        MEDIUM,
        r"\bi\s+(?:" + _ADV + r"{1,3}(?:run|train|go\s+out|head\s+out|get\s+out|do\s+my\s+runs?)|(?:run|train|race"
        r"|feel)\s+(?:much\s+)?(?:best|better))\b(?:\s+\w+){0,4}?\s+(?:in\s+the\s+|at\s+|on\s+my\s+|during\s+)?"
        + _TIME
        + r"\b",
    ),
    _rule(
        "positive_preference",
        PREFERENCE,
        MEDIUM,
        r"\bi\s+" + _ADV + r"{0,2}(?:like|love|enjoy|adore)\s+(?!it\b|this\b|that\b|you\b|them\b)"
        r"|\b(?:is|are)\s+my\s+(?:absolute\s+)?favou?rite\b|" + _I_AM + r"an?\s+(?:big\s+|huge\s+)?fan\s+of\b",
        needs_run_object=True,
    ),
    _rule(
        "negative_preference",
        PREFERENCE,
        MEDIUM,
        r"\bi\s+"
        + _ADV
        + r"{0,2}(?:hate|dislike|loathe|detest|can"
        + _A
        + r"?t\s+stand|cannot\s+stand|do(?:n"
        + _A
        + r"?t|\s+not)\s+(?:really\s+)?(?:like|enjoy|love))\b|\bnot\s+(?:a\s+)?(?:big\s+|huge\s+)?fan\s+of\b"
        r"|\b(?:bores?\s+me|(?:is|are)\s+(?:so\s+|really\s+)?(?:boring|the\s+worst|soul[-\s]destroying))\b",
        needs_run_object=True,
    ),
    # context
    _rule(
        "job_context",
        CONTEXT,
        HIGH,
        r"\bi\s+work\s+(?:as|at|in|for)\s+(?!(?:the\s+)?(?:mornings?|evenings?|afternoons?|weekends?|heat|rain|dark"
        r"|cold)\b)\w+|\bmy\s+(?:day\s+)?job\s+(?:is|as|involves|requires|means|has)\b|"
        + _I_AM
        + r"(?:an?\s+)?(?:\w+\s+){0,2}?(?:"
        + _OCCUPATIONS
        + r")s?\b|"
        + _I_AM
        + r"(?:a\s+)?(?:full[-\s]time\s+|part[-\s]time\s+)?(?:student|retired|self[-\s]employed|freelancer)\b"
        r"|\bi\s+teach\b",
        tags=("context:job",),
    ),
    _rule(
        "work_schedule",
        CONTEXT,
        HIGH,
        r"\bi\s+(?:work|do)\s+(?:[\w-]+\s+){0,2}?(?:shifts?|nights|long\s+hours|weekends|from\s+home|remotely"
        r"|full[-\s]time|part[-\s]time|nine\s+to\s+five|9[-\s]to[-\s]5|overtime)\b|"
        + _I_AM
        + r"on\s+(?:\w+\s+)?(?:shifts?|nights|call)\b",
        tags=("context:work",),
    ),
    _rule(
        "family_context",
        CONTEXT,
        LOW,
        r"\b(?:i|we)(?:\s+have|"
        + _A
        + r"ve)(?:\s+got)?\s+(?:\w+\s+){0,2}?"
        + _COUNT
        + r"?\s*(?:young\s+|little\s+|small\s+)?"
        + _FAMILY_NOUN
        + r"\b"
        r"|\b(?:mum|mom|mother|dad|father|parent)\s+(?:of|to)\s+(?:\d+|one|two|three|four|five|twins)\b|"
        + _I_AM
        + r"an?\s+(?:single\s+|new\s+|working\s+|busy\s+|first[-\s]time\s+)?(?:mum|mom|dad|parent|father"
        r"|mother)\b|\bwe\s+(?:just\s+)?had\s+a\s+baby\b|" + _I_AM + r"pregnant\b",
        tags=("context:family",),
    ),
    _rule(
        "other_sport",
        CONTEXT,
        LOW,
        r"\bi\s+"
        + _ADV
        + r"{0,2}(?:do|train|practi[cs]e|play|go\s+to|go)\s+(?:some\s+|a\s+bit\s+of\s+)?(?:"
        + _SPORTS
        + r")\b|\bi\s+"
        + _ADV
        + r"{0,2}(?:climb|boulder|cycle|bike|swim|row|lift|ski|surf)\b"
        r"(?!\s+(?:today|yesterday|this|last|instead)\b)|" + _I_AM + r"(?:also\s+)?an?\s+(?:keen\s+|big\s+"
        r"|regular\s+)?(?:climber|cyclist|swimmer|triathlete|rower|boulderer|yogi)\b",
    ),
    _rule(
        "travel_context",
        CONTEXT,
        LOW,
        r"\bi\s+" + _ADV + r"{0,2}(?:travel|fly)\b(?:\s+\w+){0,4}?\s+(?:a\s+lot|often|frequently|for\s+work|every"
        r"|regularly|constantly|weekly|most\s+weeks|all\s+the\s+time)\b",
        tags=("context:travel",),
    ),
    _rule(
        "commute_context",
        CONTEXT,
        LOW,
        r"\bi\s+" + _ADV + r"{0,2}(?:run|cycle|bike|walk|ride)\s+(?:to|into|home\s+from)\s+work\b"
        r"|\brun[-\s]?commut\w*|\bmy\s+commute\b",
        tags=("context:commute",),
    ),
    # training responses
    _rule(
        "recovery_rate",
        RESPONSE,
        LOW,
        r"\bi\s+" + _ADV + r"{0,2}(?:recover|bounce\s+back)\s+(?:\w+\s+)?(?:quickly|slowly|fast|well|badly|poorly"
        r"|slow|quick)\b|\b(?:takes?|took)\s+me\s+(?:\w+\s+){0,3}?(?:days?|ages|a\s+while|longer|forever|weeks?)"
        r"\s+to\s+(?:recover|bounce\s+back)\b|\bmy\s+recovery\s+(?:is|has\s+always\s+been|tends\s+to\s+be)\s+"
        r"(?:\w+\s+)?(?:slow|quick|fast|good|poor)\b|\bi\s+" + _ADV + r"{0,2}need\s+(?:[\w-]+\s+){0,4}?"
        r"(?:days?|weeks?|sleep|rest|recovery|time)\b(?:\s+[\w-]+){0,5}?\s+(?:after|between|following|to\s+recover"
        r"|before\s+i\s+feel)\b",
    ),
    _rule(
        "training_response",
        RESPONSE,
        MEDIUM,
        r"\b" + _STIMULUS + r"\b(?:\s+\w+){0,3}?\s+(?:make|makes|leave|leaves|wipe|wipes|knock|knocks|destroy"
        r"|destroys|wreck|wrecks|kill|kills|drain|drains|smash|smashes)\s+me\b|\bi\s+" + _ADV + r"{0,2}(?:get|feel"
        r"|tend\s+to\s+(?:get|feel|be))\s+(?:\w+\s+)?" + _FEELING + r"\s+(?:after|during|from|on|with|in|the\s+day"
        r"\s+after)\b|" + _I_AM + r"(?:always|usually|often|generally)\s+(?:\w+\s+)?" + _FEELING + r"\s+(?:after"
        r"|for|from)\b|\bi\s+" + _ADV + r"{0,2}(?:respond|react|adapt)\s+(?:\w+\s+)?(?:well|badly|poorly|quickly"
        r"|slowly|better|worse)\s+to\b|\bi\s+" + _ADV + r"{0,2}(?:struggle|suffer|wilt|melt|die)\s+(?:\w+\s+)?"
        r"(?:in|with|on)\s+(?:the\s+)?(?:heat|humidity|hills|cold|altitude|sun|hot\s+weather)\b|\b(?:heat"
        r"|humidity|hot\s+weather)\s+(?:\w+\s+)?(?:kills|destroys|wrecks|slows)\s+me\b|\bi\s+"
        + _ADV
        + r"{0,2}(?:run|race|perform)\s+(?:much\s+)?(?:better|worse|best)\s+(?:on|in|with|after|when|off)\b",
    ),
)

_TRANSIENT_RE = re.compile(
    r"\b(?:today|tomorrow|tonight|yesterday|this\s+(?:morning|afternoon|evening|week|weekend|time|run|month)"
    r"|next\s+(?:week|time|month|year|run)|last\s+(?:night|week|run))\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class _Fact:
    type: MemoryType
    span: _Span
    tags: tuple[str, ...]
    confidence: MemoryConfidence


def _rule_tags(rule: _Rule, evidence: str) -> list[str]:
    tags = list(rule.tags)
    if rule.type is PREFERENCE:
        tags += _preference_tags(evidence)
    elif rule.type is RESPONSE:
        tags += _scan(_INTENSITY_RE, _INTENSITY_NAMES, "intensity", evidence)
    elif rule.type is CONTEXT:
        tags += [t for t in _context_tags(evidence) if t != "context:family" or rule.name == "family_context"]
        if "context:kids" in tags and "context:family" not in tags:
            tags.append("context:family")
    return list(dict.fromkeys(tags))


def _rule_facts(text: str, sentence: _Span, clause: _Span) -> list[_Fact]:
    body = text[clause.start : clause.end]
    transient = _TRANSIENT_RE.search(body) is not None
    merged: dict[MemoryType, _Fact] = {}
    for rule in _RULES:
        m = rule.pattern.search(body)
        if m is None or (transient and rule.type is not INJURY):
            continue
        if rule.needs_run_object and not _RUN_OBJECT.search(body, m.end() if m.group().lower().startswith("i") else 0):
            continue
        if _is_about_someone_else(text, sentence, clause, clause.start + m.start()):
            continue
        tags = _rule_tags(rule, body)
        previous = merged.get(rule.type)
        if previous is not None:
            tags = list(dict.fromkeys([*previous.tags, *tags]))
            confidence = max(previous.confidence, rule.confidence, key=CONFIDENCE_RANK.__getitem__)
        else:
            confidence = rule.confidence
        merged[rule.type] = _Fact(rule.type, clause, tuple(tags), confidence)
    if PREFERENCE in merged:
        merged.pop(RESPONSE, None)
    return list(merged.values())


# --- explicit requests ----------------------------------------------------------------------------

_EXPLICIT_RE = re.compile(
    r"(?:\W|(?:please|pls|also|and|oh|btw|just|hey|coach)\b)*(?:remember|note|keep\s+in\s+mind|don"
    + _A
    + r"?t\s+forget|do\s+not\s+forget|for\s+the\s+record|for\s+future\s+reference|make\s+a\s+note)\b(?:\s+(?:that|this)"
    r"\b)?\W*(?!to\b)(?=\w)",
    re.IGNORECASE,
)


# --- content tidying -------------------------------------------------------------------------------

_LEADING_FILLER_RE = re.compile(
    r"^(?:(?:and|but|so|also|then|plus|oh|ah|ugh|well|anyway|anyways|btw|fyi|ps|honestly|tbh|basically|actually"
    r"|yeah|yes|ok|okay|hey|hi|just\s+so\s+you\s+know|just\s+a\s+quick\s+note|quick\s+note)\b[\s,:;!.-]*)+",
    re.IGNORECASE,
)
_TRAILING_FILLER_RE = re.compile(r"(?:[\s,;:.!?\-–—]+|\s+(?:though|tbh|lol|haha|imo|anyways?)\b)+$", re.IGNORECASE)
_SIDE_OR_BODY = r"(?:(?:left|right|lower|upper)\s+)?(?:" + "|".join(BODY_PARTS.values()) + r")\b"
_LEADING_MY_BODY_RE = re.compile(r"^my\s+(?=" + _SIDE_OR_BODY + r")", re.IGNORECASE)
_LEADING_SUBJECT_RE = re.compile(
    r"^(?P<s>i" + _A + r"m|i\s+am|i" + _A + r"ve|i" + _A + r"d|i" + _A + r"ll|my|i)\b\s*", re.IGNORECASE
)
_MID_REPLACEMENTS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(p, re.IGNORECASE), r)
    for p, r in (
        (r"\bi" + _A + r"m\b", "they're"),
        (r"\bi\s+am\b", "they are"),
        (r"\bi\s+was\b", "they were"),
        (r"\bi" + _A + r"ve\b", "they've"),
        (r"\bi" + _A + r"d\b", "they'd"),
        (r"\bi" + _A + r"ll\b", "they'll"),
        (r"(?<![\w.'’])i(?![\w.'’])", "they"),
        (r"\bmyself\b", "themselves"),
        (r"\bmine\b", "theirs"),
        (r"\bme\b", "them"),
        (r"\bmy\s+(?=" + _SIDE_OR_BODY + r")", ""),
        (r"\bmy\b", "their"),
    )
)
_ADVERBS = _words(
    "really absolutely genuinely actually definitely honestly just still also much generally usually normally always"
    " mostly typically totally often sometimes never rarely only kinda"
)
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
_UNCHANGED = _words(
    "can could will would should might must may shall cannot can't won't wouldn't couldn't shouldn't did didn't was"
    " wasn't had hadn't hurt felt got ran tore took went came made left kept put set cut hit fell broke"
    " wore spent"
)
_CONTROL_RE = re.compile(r"\s+")


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
            if subject in ("i'm", "i am"):
                content = "is " + rest
            elif subject == "i've":
                content = "has " + rest
            elif subject == "i'd":
                content = "would " + rest
            elif subject == "i'll":
                content = "will " + rest
            elif subject == "my":
                content = "their " + rest
            else:
                words = rest.split(" ")
                i = 0
                while i < len(words) - 1 and words[i].lower() in _ADVERBS:
                    i += 1
                if words and words[i]:
                    words[i] = _third_person_verb(words[i])
                content = " ".join(words)
    for pattern, replacement in _MID_REPLACEMENTS:
        content = pattern.sub(replacement, content)
    return content


def _clean(raw: str) -> str:
    text = "".join(" " if unicodedata.category(ch)[0] in "CZ" else ch for ch in raw)
    return _CONTROL_RE.sub(" ", text).strip()


def _tidy(raw: str) -> str:
    content = _clean(raw)
    content = _LEADING_FILLER_RE.sub("", content)
    content = _TRAILING_FILLER_RE.sub("", content)
    content = _third_person(content).strip()
    if not content:
        return ""
    content = content[0].upper() + content[1:]
    if len(content) > MAX_CONTENT_CHARS:
        content = content[:MAX_CONTENT_CHARS].rsplit(" ", 1)[0] or content[:MAX_CONTENT_CHARS]
    return content[:MAX_CONTENT_CHARS]


def _word_count(content: str) -> int:
    return len(content.split())


def _content(text: str, span: _Span, clauses: Sequence[_Span], type_: MemoryType) -> tuple[str, _Span]:
    """Tidy the evidence; a fragment under three words grows into its neighbouring clauses."""
    content = _tidy(text[span.start : span.end])
    if _word_count(content) < MIN_CONTENT_WORDS and clauses:
        first = next((i for i, c in enumerate(clauses) if c.end > span.start), 0)
        last = max((i for i, c in enumerate(clauses) if c.start < span.end), default=first)
        while _word_count(content) < MIN_CONTENT_WORDS and (first > 0 or last < len(clauses) - 1):
            if last < len(clauses) - 1:
                last += 1
            else:
                first -= 1
            span = _Span(min(span.start, clauses[first].start), max(span.end, clauses[last].end))
            content = _tidy(text[span.start : span.end])
    if content and _word_count(content) < MIN_CONTENT_WORDS:
        content = _short_statement(text[span.start : span.end], content, type_)
    return content, span


_FIRST_PERSON_START_RE = re.compile(r"(?:i\b|i" + _A + r"|my\b)", re.IGNORECASE)
_ADJ_AFTER_BODY_RE = re.compile(
    r"((?:left|right|lower|upper)\s+)?(\w+)\s+(sore|tight|stiff|swollen|achy|tender|painful|niggly)", re.IGNORECASE
)


def _short_statement(raw: str, content: str, type_: MemoryType) -> str:
    """At least three words: "I swim" becomes "Says they swim", "Knee sore" becomes "Reported sore knee"."""
    cleaned = _TRAILING_FILLER_RE.sub("", _LEADING_FILLER_RE.sub("", _clean(raw)))
    if _FIRST_PERSON_START_RE.match(cleaned):
        words = cleaned.split(" ", 1)
        subject = "Their" if words[0].lower() == "my" else "They" + words[0][1:].replace("’", "'").lower()
        rest = words[1] if len(words) > 1 else ""
        for pattern, replacement in _MID_REPLACEMENTS[:-2]:
            rest = pattern.sub(replacement, rest)
        statement = f"{subject} {rest}".strip()
        if _word_count(statement) < MIN_CONTENT_WORDS:
            statement = f"Says {statement[0].lower()}{statement[1:]}"
        return statement[:MAX_CONTENT_CHARS]
    flipped = _ADJ_AFTER_BODY_RE.fullmatch(content)
    if flipped and flipped.group(2).lower() in _BODY_WORDS:
        content = f"{flipped.group(3)} {flipped.group(1) or ''}{flipped.group(2)}".lower()
    prefix = "Reported" if type_ in (INJURY, RESPONSE) else "Mentioned"
    return f"{prefix} {content[0].lower()}{content[1:]}"[:MAX_CONTENT_CHARS]


# --- the extractor ---------------------------------------------------------------------------------

_TRIGGER_RE = re.compile(
    r"\b(?:i|my|we|remember|note|keep|forget|record|takes?|took|heat|humidity|fan|favou?rite|bores?|boring|worst|"
    + "|".join(BODY_PARTS.values())
    + r"|"
    + _TIME
    + r"|"
    + _STIMULUS
    + r")\b|"
    + _I_AM
    + r"|\bi"
    + _A
    + r"\w",
    re.IGNORECASE,
)


class RuleExtractor:
    """The seed's extraction patterns, clause-aware."""

    name: str = "rules"

    def extract(self, text: str, source: MemorySource, source_reference: str | None = None) -> list[Candidate]:
        if not text or not text.strip():
            return []
        found: list[Candidate] = []
        carry: _Carry | None = None
        for sentence, is_question in _sentences(text):
            if carry is None and not _TRIGGER_RE.search(text, sentence.start, sentence.end):
                continue
            clauses = _statement_clauses(text, sentence, is_question)
            explicit = _EXPLICIT_RE.match(text, sentence.start, sentence.end) if clauses else None
            if explicit is not None:
                clauses = [c for c in clauses if c.end > explicit.end()]
                clauses = [_Span(max(c.start, explicit.end()), c.end) for c in clauses]
            facts = [_Fact(INJURY, i.span, i.tags, i.confidence) for i in _injuries(text, sentence, clauses, carry)]
            for clause in clauses:
                for fact in _rule_facts(text, sentence, clause):
                    if fact.type is RESPONSE and any(
                        f.type is INJURY and f.span.start < clause.end and f.span.end > clause.start for f in facts
                    ):
                        continue
                    facts.append(fact)
            carry = self._carry(text, clauses, facts) if not is_question else None
            if explicit is not None:
                facts = [replace(f, confidence=HIGH) for f in facts] or self._explicit_context(text, clauses)
            for fact in facts:
                content, span = _content(text, fact.span, clauses, fact.type)
                if content:
                    found.append(
                        Candidate(
                            fact.type,
                            content,
                            fact.confidence,
                            tuple(sorted(fact.tags)),
                            span.start,
                            span.end,
                            self.name,
                        )
                    )
        return merge_duplicates(found)

    @staticmethod
    def _carry(text: str, clauses: Sequence[_Span], facts: Sequence[_Fact]) -> _Carry | None:
        """A body part mentioned without a symptom at the end of a sentence, for "Knee. Sore again."."""
        if not clauses or any(f.type is INJURY for f in facts):
            return None
        bodies = _body_mentions(text, clauses[-1])
        return (clauses[-1], bodies) if bodies else None

    @staticmethod
    def _explicit_context(text: str, clauses: Sequence[_Span]) -> list[_Fact]:
        if not clauses:
            return []
        span = _Span(clauses[0].start, clauses[-1].end)
        return [_Fact(CONTEXT, span, tuple(_all_tags(text[span.start : span.end])), HIGH)]


def _normalized(content: str) -> str:
    return re.sub(r"[^\w\s]", "", content.lower()).strip()


def merge_duplicates(candidates: Iterable[Candidate]) -> list[Candidate]:
    """One candidate per fact: same type and same tags (or same content when untagged)."""
    kept: dict[tuple[MemoryType, tuple[str, ...], str], Candidate] = {}
    for c in candidates:
        key = (c.type, c.tags, "" if c.tags else _normalized(c.content))
        previous = kept.get(key)
        if previous is None:
            kept[key] = c
        elif CONFIDENCE_RANK[c.confidence] > CONFIDENCE_RANK[previous.confidence]:
            kept[key] = replace(previous, confidence=c.confidence)
    return list(kept.values())


_DEFAULT_EXTRACTORS: tuple[Extractor, ...] = (RuleExtractor(),)


def default_extractors() -> list[Extractor]:
    return list(_DEFAULT_EXTRACTORS)


def extract_memories(text: str, source: MemorySource, source_reference: str | None = None) -> list[Candidate]:
    """Candidates from every default extractor, one per fact."""
    try:
        found = [c for e in _DEFAULT_EXTRACTORS for c in e.extract(text, source, source_reference)]
    except RecursionError:  # pragma: no cover - defensive: extraction must never break ingestion
        return []
    return merge_duplicates(found)
