"""The rule table for preferences, context and training responses: one regex per seed pattern, widened."""

from __future__ import annotations

import re
from dataclasses import dataclass

from domain.enums import MemoryConfidence, MemoryType
from domain.extraction.lexicon import ANY_TIME as _TIME
from domain.extraction.lexicon import APOSTROPHE as _A

HIGH, MEDIUM, LOW = MemoryConfidence.HIGH, MemoryConfidence.MEDIUM, MemoryConfidence.LOW
PREFERENCE, CONTEXT, RESPONSE = MemoryType.PREFERENCE, MemoryType.CONTEXT, MemoryType.TRAINING_RESPONSE

_ADV = (
    r"(?:(?:really|absolutely|genuinely|actually|definitely|honestly|just|still|also|much|generally|usually|normally"
    r"|always|mostly|typically|totally|often|sometimes|only|kinda|kind\s+of|do|tend\s+to|seem\s+to|can\s+only)\s+)"
)
I_AM = r"\bi(?:" + _A + r"m|\s+am)\s+"
RUN_OBJECT_RE = re.compile(
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
STIMULUS = (
    r"(?:intervals?|tempos?(?:\s+runs?)?|long\s+runs?|hills?|hill\s+repeats|speed\s*work|track\s+sessions?|races?"
    r"|racing|back[-\s]to[-\s]back\s+\w+|high\s+mileage|mileage|hard\s+(?:sessions?|days?|efforts?)|workouts?"
    r"|heat|humidity|strides|doubles|early\s+runs?|morning\s+runs?|evening\s+runs?)"
)
_FEELING = (
    r"(?:tired|sore|wrecked|flat|sluggish|dizzy|nauseous|sick|drained|exhausted|shattered|knackered|dead|strong|great"
    r"|better|faster|hungry|stiff|out)"
)


@dataclass(frozen=True)
class Rule:
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
) -> Rule:
    return Rule(name, type_, confidence, re.compile(pattern, re.IGNORECASE), needs_run_object, tags)


RULES: tuple[Rule, ...] = (
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
        I_AM + r"(?:\w+\s+){0,2}?(?:an?|more\s+of\s+an?)\s+(?:morning|evening|night|early|lunchtime)\s+"
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
        r"|\b(?:is|are)\s+my\s+(?:absolute\s+)?favou?rite\b|" + I_AM + r"an?\s+(?:big\s+|huge\s+)?fan\s+of\b",
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
        + I_AM
        + r"(?:an?\s+)?(?:\w+\s+){0,2}?(?:"
        + _OCCUPATIONS
        + r")s?\b|"
        + I_AM
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
        + I_AM
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
        + I_AM
        + r"an?\s+(?:single\s+|new\s+|working\s+|busy\s+|first[-\s]time\s+)?(?:mum|mom|dad|parent|father"
        r"|mother)\b|\bwe\s+(?:just\s+)?had\s+a\s+baby\b|" + I_AM + r"pregnant\b",
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
        r"(?!\s+(?:today|yesterday|this|last|instead)\b)|" + I_AM + r"(?:also\s+)?an?\s+(?:keen\s+|big\s+"
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
        r"\b" + STIMULUS + r"\b(?:\s+\w+){0,3}?\s+(?:make|makes|leave|leaves|wipe|wipes|knock|knocks|destroy"
        r"|destroys|wreck|wrecks|kill|kills|drain|drains|smash|smashes)\s+me\b|\bi\s+" + _ADV + r"{0,2}(?:get|feel"
        r"|tend\s+to\s+(?:get|feel|be))\s+(?:\w+\s+)?" + _FEELING + r"\s+(?:after|during|from|on|with|in|the\s+day"
        r"\s+after)\b|" + I_AM + r"(?:always|usually|often|generally)\s+(?:\w+\s+)?" + _FEELING + r"\s+(?:after"
        r"|for|from)\b|\bi\s+" + _ADV + r"{0,2}(?:respond|react|adapt)\s+(?:\w+\s+)?(?:well|badly|poorly|quickly"
        r"|slowly|better|worse)\s+to\b|\bi\s+" + _ADV + r"{0,2}(?:struggle|suffer|wilt|melt|die)\s+(?:\w+\s+)?"
        r"(?:in|with|on)\s+(?:the\s+)?(?:heat|humidity|hills|cold|altitude|sun|hot\s+weather)\b|\b(?:heat"
        r"|humidity|hot\s+weather)\s+(?:\w+\s+)?(?:kills|destroys|wrecks|slows)\s+me\b|\bi\s+"
        + _ADV
        + r"{0,2}(?:run|race|perform)\s+(?:much\s+)?(?:better|worse|best)\s+(?:on|in|with|after|when|off)\b",
    ),
)
