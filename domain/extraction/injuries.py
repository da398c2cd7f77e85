"""Injury facts: a body part near a live symptom, or a chronic injury named without one."""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import islice

from domain.enums import MemoryConfidence
from domain.extraction.clauses import Span
from domain.extraction.folding import Folded
from domain.extraction.lexicon import APOSTROPHE as _A
from domain.extraction.lexicon import BODY, WORD_RE
from domain.extraction.prefilter import fast_pattern
from domain.extraction.subject import People, negated

_SYMPTOM_RE = re.compile(
    r"\b(?:pain\w*|ache[sd]?|aching|achy|sore\w*|tight\w*|tighten\w*|hurt\w*|injur\w*|strain\w*|sprain\w*|tweak\w*"
    r"|niggl\w*|twinge\w*|twingy|stiff\w*|tendin\w*|tendon\w*|fasciitis|splints|swollen|swell\w*|inflam\w*"
    r"|impinge\w*|sublux\w*|instability|unstable|wobbly|pinged|twanged|went\s+over\s+on|hernia\w*|concussion\w*"
    r"|issues?|problems?|cramp\w*|pulled|herniat\w*|bulg\w*|prolaps\w*|slipped|complain\w*|torn|tear|tore|fractur\w*|bruised|flare[sd]?|flaring|acting\s+up"
    r"|playing\s+up|plays?\s+up|grumbl\w*|complaining|throbb\w*|click\w*|gave\s+out|giving\s+out|locked\s+up|seized|surgery"
    r"|in\s+a\s+(?:cast|boot|brace|sling|splint)|rehabb\w*|rehabilitat\w*|(?<=is\s)shot|(?<=are\s)shot|rolled|(?<!foam\s)rolling|rolls|twisted|dodgy|cranky|barking|screaming|trashed|wrecked|killing\s+me|bugging\s+me|bothering\s+me"
    r"|bothers\s+me|not\s+(?:\w+\s+)?(?:right|great|happy|good)|wonky|tender|spasms?|weak|operat(?:ed|ion)|scoped"
    r"|reconstruct\w*|broke|broken|dislocat\w*|ruptur\w*|creak\w*|agony|agonising|excruciating|sciatica|went\s+again"
    r"|popped|stress\s+reaction|bursitis|shin\s+splints|dodgy|achey|knackered|iffy|grumpy|angry|flare[-\s]?ups?"
    r"|surgeries|op|neuroma|metatarsalgia|(?<!\d)(?:[1-9]|10)\s*/\s*10|(?:pin|plate|screws?|rod)(?=\s+in\b)|diagnos\w*|disease|syndrome|osgood[-\s]schlatter|(?:osteo)?arthriti\w*|weakness|numb\w*|tingl\w*|pins\s+and\s+needles|went\s+dead"
    r"|lock(?:s|ing)?\s+up|gave\s+way|giv(?:es|ing)\s+way|grabbed|recon|replacement|arthroscop\w*|doms"
    # issue 13, outside writers 3 and 4: conditions of the foot named as such, "a bunion", "flat feet", "hallux
    # rigidus", "a black toenail"
    r"|bunions?|hallux|flat\s+(?:feet|foot|foots)|black\s+toe\s*nails?"
    r"|pinch(?:es|ed|ing|y)?|aggravat\w*|jammed|snapped|separated|hyperextend\w*|pops|popping|snapping|fused"
    # issue 13, round 7: care given to a part of the body says it was hurt, whatever the hurt is called: "get my calf
    # looked at", "the cortisone injection in my heel", "a bone scan on the shin"
    r"|injections?|cortisone|scans?|mri|x[-\s]?rays?|ultrasound|looked\s+at"
    # a complaint back again, said without its name: "knee again after the stairs", "hip flexor still there", "the
    # achilles is back", "glute thing again", "shoulder still isn't right"
    r"|again|still\s+there|(?<=\bis\s)back|(?<=" + _A + r"s\s)back|thing"
    r"|(?:is|are)n" + _A + r"?t\s+(?:quite\s+|really\s+)?right"
    r"|went(?=\s+(?:at|during|halfway|mid|pop|twang|bang)\b|\s*(?:[.,;!]|$))"
    r"|bad(?=\s+(?:left\s+|right\s+|lower\s+|upper\s+)?(?:knees?|ankles?|back|hips?|shoulders?|achilles|hamstrings?"
    r"|calf|calves|foot|feet|shins?|neck|wrists?|elbows?|heels?|quads?|groin)\b)"
    r"|kill(?=\s+(?:after|when|during|on|from|for)\b)"
    # a condition named after a sport: "tennis elbow", "runner's knee", "swimmer's shoulder"
    r"|(?:tennis|golfer(?:" + _A + r"?s)?|runner(?:" + _A + r"?s)?|jumper(?:" + _A + r"?s)?|swimmer(?:" + _A + r"?s)?"
    r"|climber(?:" + _A + r"?s)?|frozen|turf)(?=\s+(?:elbows?|knees?|shoulders?|toes?|fingers?)\b))\b",
    re.IGNORECASE,
)
_RECOVERED_RE = re.compile(
    r"\b(?:heal(?:ed|ing\s+well)|(?<!never\s)(?<!not\s)(?<!n't\s)(?<!n’t\s)(?<!yet\s)recovered|gone|went\s+away|disappeared|vanished|resolved|cleared\s+up|no\s+longer"
    r"|anymore|back\s+to\s+normal|all\s+good|[\w]+[-\s]free|fine\s+(?:now|after(?:wards)?)|one[-\s]off"
    r"|ha(?:ve|s)n" + _A + r"?t\s+(?:had|felt)\s+(?:it|them|one|any|that)|(?:didn|doesn)" + _A + r"?t\s+hurt)\b",
    re.IGNORECASE,
)
_HYPOTHETICAL_RE = re.compile(
    r"\b(?:if|in\s+case|avoid\w*|prevent\w*|worried|worry\w*|afraid|scared|hope|hoping|hopefully|unless|might"
    r"|to\s+keep|careful)\b",
    re.IGNORECASE,
)
_POSITIVE_STATE_RE = Folded(
    r"\W*(?:(?!not\b)\w+\W+){0,3}?(?:fine|good|great|ok|okay|strong|solid|better|perfect|normal|amazing|fresh"
    r"|happy|100%)\b",
)
_CHRONIC_RE = Folded(
    r"\b(?:history\s+of|prone|recurring|recurrent|chronic|old|keeps?\s+coming\s+back|kept\s+coming\s+back|on\s+and\s+off"
    r"|on-and-off|comes\s+and\s+goes|always|every\s+time|whenever|prone\s+to|for\s+years)\b",
)
# Soreness a kind of session brings on ("Long descents leave my calves sore for days") is a training
# response: a session kind, a word of cause or habit, a word of soreness, and no word of real injury.
_SESSION_RE = Folded(
    r"\b(?:intervals?|tempos?|long\s+(?:runs?|ones|rides?)|hills?|hilly|hill\s+(?:repeats|reps|sprints)|descents?"
    r"|downhills?|downhill\s+running|races?|racing|marathons?|halfs?|speed\s*work|speed\s+sessions?|track"
    r"|strides|sprints?|back[-\s]to[-\s]back|mileage|workouts?|sessions?|leg\s+days?|strength|gym|weights|squats"
    r"|lunges|plyos?|plyometrics|fartleks?|threshold|trails?|road\s+runs?|big\s+weeks?|doubles|parkruns?|reps|concrete"
    r"|tarmac|pavements?|cambered\s+roads?|treadmills?|kick\s+sets?|rides?|bike|bricks?|ultras?|aero(?:\s+position)?"
    r"|swims?|spikes|flats|racing\s+shoes|carbon\s+shoes|erg\w*|climbing|bouldering|match(?:es)?|games|class(?:es)?"
    r"|circuits|drills|pull\s+buoy|paddles|hangboard\w*|fingerboard\w*|campus\s+board\w*)\b",
)
_CAUSE_RE = Folded(
    r"\b(?:leaves?|left\s+me|makes?|gives?|always|every\s+(?:single\s+)?time|each\s+time|whenever|for\s+days"
    r"|(?:the\s+)?(?:day|days|morning)\s+after|next\s+day|usually|tends?\s+to|after\s+(?:every|each|any|all|anything)"
    r"|stays?|(?:on|in|during)\s+(?:every|each|any|all)|usual|as\s+always|like\s+always|(?:like|as\s+on)\s+every|for\s+(?:two|three|four|\d+|a\s+few|several)\s+days|after\s+(?:about|around|roughly)\s+\w+\s+(?:hours?"
    r"|minutes?|mins|k|km|kms|miles?))\b",
)
_SORENESS_RE = re.compile(
    r"\b(?:sore\w*|stiff\w*|tight\w*|achy|aching|ache|heavy|trashed|wrecked|smashed|destroyed|burn\w*|scream\w*"
    r"|doms|battered|dead|cooked|fried|cramp\w*|tired|shot|grumpy|niggly|cranky|angry|unhappy|barking|kill|tender"
    r"|toast|flar\w*|complain\w*|grumbl\w*|niggl\w*|play(?:s|ing)?\s+up|act(?:s|ing)?\s+up)\b",
    re.IGNORECASE,
)
_REAL_INJURY_RE = re.compile(
    r"\b(?:pain\w*|injur\w*|strain\w*|sprain\w*|tear|torn|tore|fractur\w*|surgery|operat\w*|sharp|swollen|swelling"
    r"|tendin\w*|fasciitis|splints|rolled|twisted|pulled|broke|broken|chronic|history|recurring|old)\b",
    re.IGNORECASE,
)


# An ache is a pain: across clauses ("Left knee started aching at 20k, as it does on every long run") it stays an
# injury; "Calves cramped at 3k, always happens on bricks" is a response.
_PAIN_LIKE_RE = re.compile(r"\b(?:ach(?:e|es|ed|ing|ey|y)|hurt\w*|twing\w*)\b", re.IGNORECASE)  # not "achilles"


# "Treadmill running always gives me shin pain": pain that a kind of session gives is a response too.
_GIVES_PAIN_RE = re.compile(
    r"\b(?:gives?|leaves?)\s+(?:me|them|him|her)\s+(?:\w+\s+){0,2}?pain\b|\bi\s+(?:always\s+)?get\s+(?:\w+\s+){0,2}?pain"
    r"\s+(?:from|after|on|with)\b",
    re.IGNORECASE,
)


# What something done leaves a part of the body as says the cause itself, whatever the session is called: "Box jumps
# leave my ankles stiff the next day", "backstroke makes my neck ache", "long climbs leave my forearms pumped".
_LEAVES_SORE_RE = re.compile(
    r"\b(?:leaves?|makes?)\s+(?:my\s+|ma\s+|the\s+athlete" + _A + r"s\s+)?(?:[\w-]+\s+){1,4}?(?:stiff|sore"
    r"|numb|destroyed|wrecked|in\s+bits|tight|heavy|dead|toast|ache|aching|achy|pumped|cooked|fried|trashed|smashed"
    r"|battered|jelly|shot|burning|knackered|shattered|cramp|cramping)\b",
    re.IGNORECASE,
)


# A soreness that lasts days after whatever brought it on is a response to it, as a rule: "quads ache for three days",
# "my ankles ache for days", "shoulders knackered for a day" (not one still going on: "has been aching for 3 days").
_LASTING_SORENESS_RE = Folded(
    r"\b(?:ache|aches|aching|achy|sore|stiff|tight|tender|knackered|wrecked|trashed|dead|heavy|cooked|battered"
    r"|destroyed|shot)\b(?:\s+[\w-]+){0,3}?\s+for\s+(?:days|a\s+day|(?:a\s+couple\s+of|a\s+few|several|two|three|four"
    r"|\d+)\s+days|the\s+(?:rest\s+of\s+the|whole|next)\s+day)\b",
)
_ONGOING_RE = re.compile(r"\b(?:been|was|were|since|past|last|ago|now|still|today|yesterday)\b", re.IGNORECASE)


def sessions_and_habit(text: str, sentence: Span) -> bool:
    """Whether `sentence` names a kind of session and a word of cause or habit (once per sentence: linear)."""
    return (
        _SESSION_RE.search(text, sentence.start, sentence.end) is not None
        and _CAUSE_RE.search(text, sentence.start, sentence.end) is not None
    )


# A cause said by the shape of the sentence rather than by a kind of session's name: "calves get sore from running",
# "my shins always hurt the week I go over 50 miles", "my back always tightens up if I skip core", "roads hurt my
# knees", "swimming helps my back" (issue 13, round 7).
_CAUSE_FRAME_RE = Folded(
    r"\b(?:gets?|got|getting)\s+(?:\w+\s+)?(?:sore|tight|stiff|achy|heavy|swollen|tired)\s+(?:from|after)\b"
    r"|\b(?:always|usually|tends?\s+to)\b(?:\s+[\w'’-]+){0,4}?\s+(?:if|when|whenever|the\s+(?:week|day)s?)\s+i\b"
    r"|\b(?:running|roads?|tarmac|concrete|pavements?|swimming|cycling|climbing|hills|downhills|treadmills?|track"
    r"|yoga|pilates|stretching|strength\s+work)\s+(?:always\s+|really\s+|just\s+)?(?:hurts?|helps?|flares?"
    r"|aggravates?|irritates?|kills?)\s+(?:my|the\s+athlete" + _A + r"s)\b",
)
# A condition named after a sport is an injury whatever brings it on: "Tennis elbow flares whenever I row".
_NAMED_CONDITION_RE = Folded(
    r"\b(?:tennis|golfer|runner|jumper|swimmer|climber)(?:"
    + _A
    + r"?s)?\s+(?:elbows?|knees?|shoulders?|toes?|fingers?)\b"
)


def session_soreness(text: str, span: Span, in_sentence: bool = False) -> bool:
    """True when the injury read from `span` is soreness a kind of session brings on. The session and the
    word of habit may stand in another clause of the sentence (`in_sentence`, from `sessions_and_habit`: "I
    love tempo runs but they always leave my hip sore", "Calves cramped at 3k, always happens on bricks"),
    unless the injury's own word is a pain ("Knee started aching at 20k, as it does on every long run")."""
    if _NAMED_CONDITION_RE.search(text, span.start, span.end):
        return False
    if (
        _LEAVES_SORE_RE.search(text, span.start, span.end) or _CAUSE_FRAME_RE.search(text, span.start, span.end)
    ) and not _REAL_INJURY_RE.search(text, span.start, span.end):
        return True
    if (
        _LASTING_SORENESS_RE.search(text, span.start, span.end)
        and not _ONGOING_RE.search(text, span.start, span.end)
        and not _REAL_INJURY_RE.search(text, span.start, span.end)
    ):
        return True
    own = _SESSION_RE.search(text, span.start, span.end) and _CAUSE_RE.search(text, span.start, span.end)
    if not own and (not in_sentence or _PAIN_LIKE_RE.search(text, span.start, span.end) is not None):
        return False
    real = [m.group().lower() for m in _REAL_INJURY_RE.finditer(text, span.start, span.end)]
    if not real:
        return _SORENESS_RE.search(text, span.start, span.end) is not None
    return all(word == "pain" for word in real) and _GIVES_PAIN_RE.search(text, span.start, span.end) is not None


_SYMPTOM_LOW_RE = fast_pattern(_SYMPTOM_RE.pattern)
_RECOVERED_LOW_RE = fast_pattern(_RECOVERED_RE.pattern)
_HYPOTHETICAL_LOW_RE = fast_pattern(_HYPOTHETICAL_RE.pattern)
_CONDITIONS = frozenset({"if", "unless"})
_GENERIC_INJURY_RE = re.compile(r"\b(?:injur\w*|pain|issues?)\b", re.IGNORECASE)
# An operation or a named condition is worth remembering without a body part: "a hernia operation in May".
_OPERATION_RE = re.compile(r"(?:surgery|surgeries|operat\w*|op|hernia\w*|concussion\w*|(?:osteo)?arthriti\w*)")
# "If I run two days in a row my knee swells" says what happens, not what might: a condition on what the
# athlete does, in a clause without a modal verb.
_HABIT_CONDITION_LOW_RE = re.compile(r"if\s+i\s+(?!(?:get|have|feel|start|notice|ever|experience)\b)")
_MODAL_LOW_RE = re.compile(r"\b(?:will|would|should|could|might|shall|gonna|going\s+to|i" + _A + r"(?:ll|d))\b")
# A list's heading for the injuries that follow it: "Injuries: left achilles (2022), right knee".
_HEADER_LOW_RE = re.compile(
    r"(?:old\s+|past\s+|previous\s+|current\s+|main\s+|injury\s+)?(?:injur(?:y|ies)|niggles?|issues|history|surgery"
    r"|surgeries|operations?)"
)
# A body part naming an exercise or a kit, not a complaint: "calf raises", "glute bridges", "knee sleeves".
_EXERCISE_LOW_RE = re.compile(
    r"\s+(?:raises?|curls?|bridges?|thrusts?|stretch(?:es|ing)?|exercises?|strengthening|mobility|drills?|activation"
    r"|sleeves?|supports?|straps?|bands?|rollers?)\b"
)
_NOT_THE_BODY_LOW_RE = re.compile(r"\bnot\s+(?:my|the|his|her|their)\s+(?:left\s+|right\s+)?$")
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


# The body parts of the clauses read lately: a sentence's last clause is read again for what it carries to the next
# sentence (extractor), a clause again as the one after a symptom (`_gone_after`).
_MENTIONED: dict[tuple[str, int, int], list[re.Match[str]]] = {}
_MAX_MENTIONED = 64


def body_mentions(low: str, clause: Span) -> list[re.Match[str]]:
    """Body parts named in `clause` of `low`, a lower-cased text (`People.lower`); the list is shared, not to be
    changed."""
    key = (low, clause.start, clause.end)
    found = _MENTIONED.get(key)
    if found is None:
        if len(_MENTIONED) >= _MAX_MENTIONED:
            _MENTIONED.clear()
        found = _MENTIONED[key] = _body_mentions(low, clause)
    return found


def _body_mentions(low: str, clause: Span) -> list[re.Match[str]]:
    text = low
    mentions = []
    for m in BODY.lower_pattern.finditer(low, clause.start, clause.end):
        if _POSITIVE_STATE_RE.match(text, m.end(), clause.end) or _EXERCISE_LOW_RE.match(low, m.end(), clause.end):
            continue
        if _NOT_THE_BODY_LOW_RE.search(low, max(clause.start, m.start() - 16), m.start()):  # "it's not my knee"
            continue
        mentions.append(m)
        if len(mentions) == _MAX_MENTIONS:
            break
    return mentions


def _live_symptoms(text: str, low: str, clause: Span) -> list[re.Match[str]]:
    """Symptoms in `clause`, found in `low` (the text lower-cased, offsets kept) by case-sensitive patterns."""
    if _RECOVERED_LOW_RE.search(low, clause.start, clause.end):
        return []
    hypothetical = _HYPOTHETICAL_LOW_RE.search(low, clause.start, clause.end)
    if (
        hypothetical is not None
        and _HABIT_CONDITION_LOW_RE.match(low, hypothetical.start(), clause.end)
        and not _MODAL_LOW_RE.search(low, clause.start, clause.end)
    ):
        hypothetical = None
    if hypothetical is not None and hypothetical.group() not in _CONDITIONS:
        return []
    # "if" or "unless" before the symptom makes it hypothetical ("if my knee hurts"); after it, it names
    # when the symptom comes ("my back goes into spasm if I sit too long").
    before = hypothetical.start() if hypothetical is not None else clause.end
    live = (
        s
        for s in _SYMPTOM_LOW_RE.finditer(low, clause.start, clause.end)
        if not negated(text, clause, s) and (hypothetical is None or s.start() < before)
    )
    return list(islice(live, _MAX_MENTIONS))


def _body_tags(bodies: Sequence[re.Match[str]]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(BODY.tag(b) for b in bodies))


def _gone_after(low: str, clauses: Sequence[Span], i: int) -> bool:
    """The next clause says the complaint went, without a body part of its own: "Calf tight early on, gone
    by 2k", "Back was sore from gardening but it's fine now" (but a soreness that always comes and goes stays)."""
    if i + 1 >= len(clauses):
        return False
    nxt = clauses[i + 1]
    return _RECOVERED_LOW_RE.search(low, nxt.start, nxt.end) is not None and not body_mentions(low, nxt)


# Care and return words say a part was hurt only when nothing says it is well: "Foot scan came back clear", "Got
# my back looked at, the physio said it's fine", "Did the shoulder thing from yoga again, loved it" are no injury.
_CARE_OR_RETURN_RE = re.compile(
    r"injections?|cortisone|scans?|mri|x[-\s]?rays?|ultrasound|looked\s+at|again|still\s+there|back|thing"
)
_WELL_LOW_RE = re.compile(
    r"\b(?:clear|fine|normal|all\s+good|nothing\s+(?:wrong|there|found|serious|showed|to\s+worry)|no\s+damage"
    r"|loved|enjoyed|fun)\b"
)
_CARE_WORD_LOW_RE = re.compile(r"\b(?:injections?|cortisone|scans?|mri|x[-\s]?rays?|ultrasound|looked\s+at)\b")
_THING_AS_ACTIVITY_LOW_RE = re.compile(r"\s(?:from|at|in|with)\s")


class _SaidWell:
    """Where a sentence says something went well, and where it names care, found once per sentence: a
    sentence of thousands of clauses asks for each clause's symptoms (searching the rest of the sentence
    per symptom took 0.9 s on 51 KB of "scan again thing")."""

    def __init__(self, low: str, sentence: Span) -> None:
        self.low, self.sentence = low, sentence
        self._wells: list[int] | None = None
        self._cares: list[int] = []

    def cancels(self, symptom: re.Match[str]) -> bool:
        """Whether the sentence says the care or return word `symptom` went well before any other care."""
        if self._wells is None:
            start, end = self.sentence.start, self.sentence.end
            self._wells = [m.start() for m in _WELL_LOW_RE.finditer(self.low, start, end)]
            self._cares = [m.start() for m in _CARE_WORD_LOW_RE.finditer(self.low, start, end)] if self._wells else []
        at = bisect_left(self._wells, symptom.end())
        if at == len(self._wells):
            return False
        care = bisect_left(self._cares, symptom.end())
        return care == len(self._cares) or self._cares[care] >= self._wells[at]


def _not_said_well(low: str, symptoms: list[re.Match[str]], said: _SaidWell) -> list[re.Match[str]]:
    """The symptoms but the care and return words that something later in the sentence says went well, before
    any other word of care ("the MRI was on the right knee, the left one was the x-ray, which was clear": the
    MRI stays), and "thing" naming an exercise ("the shoulder thing from yoga")."""
    kept = []
    for s in symptoms:
        if _CARE_OR_RETURN_RE.fullmatch(s.group()):
            if s.group() == "thing" and _THING_AS_ACTIVITY_LOW_RE.match(low, s.end()):
                continue
            if said.cancels(s):
                continue
        kept.append(s)
    return kept


def injuries(people: People, sentence: Span, clauses: Sequence[Span], carry: Carry | None) -> list[Injury]:
    """Injury facts of one sentence; `carry` is a clause of the sentence before naming a body part only."""
    text = people.text
    found: list[Injury] = []
    pending = carry
    header: Span | None = None
    said = _SaidWell(people.lower, sentence)
    for i, clause in enumerate(clauses):
        bodies = body_mentions(people.lower, clause)
        symptoms = _live_symptoms(text, people.lower, clause)
        if symptoms and _gone_after(people.lower, clauses, i) and not _CAUSE_RE.search(text, clause.start, clause.end):
            symptoms = []
        if symptoms:
            symptoms = _not_said_well(people.lower, symptoms, said)
        span = clause
        if header is not None and bodies and not symptoms:  # "Injuries: left achilles (2022), right knee"
            if not people.about_someone_else(sentence, clause, bodies[0].start()):
                found.append(Injury(Span(header.start, clause.end), _body_tags(bodies), MemoryConfidence.HIGH))
            continue
        header = clause if _HEADER_LOW_RE.fullmatch(people.lower, clause.start, clause.end) else None
        if header is not None:
            continue
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
            operation = any(_OPERATION_RE.fullmatch(s.group()) for s in symptoms)
            if ((chronic and generic) or operation) and not people.about_someone_else(
                sentence, clause, symptoms[0].start()
            ):
                found.append(Injury(span, (), MemoryConfidence.HIGH))
            continue
        if people.about_someone_else(sentence, Span(min(span.start, clause.start), clause.end), near[0].start()):
            continue
        found.append(Injury(span, _body_tags(near), MemoryConfidence.HIGH if chronic else MemoryConfidence.LOW))
    return found
