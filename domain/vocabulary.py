"""The tag vocabulary: every tag a memory can carry, with the words that mean it.

A tag is `kind:value`. The kinds:

- `body:` where an injury or a training response is felt — knee, ankle, calf, shin, hip,
  hamstring, quad, achilles, foot, heel, back, shoulder, it band, plantar, glute, groin, neck,
  wrist, elbow, chest, finger, forearm, hand, head, abdomen, pelvic floor.
- `time:` when the athlete likes to train — morning, evening, afternoon, lunch, early, late,
  before work, after work, weekend.
- `intensity:` the kind of session — easy, hard, tempo, intervals, long run, recovery,
  speed work, hill repeats, hills, threshold, track, fartlek, race, treadmill, trail.
- `context:` the life around training a coach filters by — work, travel, family, kids, commute,
  gym, climbing, cycling, swimming, rowing, yoga, pilates, triathlon, team sport, golf, dance, martial arts,
  skiing, sleep, study, health,
  altitude, goal, diet, equipment, location, schedule.

Each canonical value lists its synonyms as one regular expression (no nested repetition, so a
scan is linear): "job", "shift", "office", "nurse" all mean `context:work`; "hotel", "away for
work", "business trip" mean `context:travel`; so "a month of hotel gyms" is travel and gym.
Extraction (domain/extraction), the Add dialog's suggestions (`domain.extraction.suggest`) and
the filters (`canonical_tag`) use this module only, so a tag is spelled one way everywhere.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

APOSTROPHE = r"['’]"  # straight or curly

BODY_PARTS: dict[str, str] = {
    "knee": r"knees?|kneecaps?|patell\w*|acl|mcl|meniscus",
    "ankle": r"ankles?|peroneals?",
    "calf": r"calf|calfs|calves|soleus|gastroc\w*",
    "shin": r"shins?|tibia\w*",
    "hip": r"hips?(?:\s+flexors?)?|hip-flexors?|iliopsoas|psoas",
    "hamstring": r"hamstrings?|hamm(?:y|ies)|hammies|sit\s+bones?",
    "quad": r"quads?|quadriceps|thighs?",
    "achilles": r"achilles(?:" + APOSTROPHE + r"s?)?|achillies",
    # "on my feet all day" is a job, not a foot
    "foot": r"foot|foots|forefoot|big\s+toes?|hallux"
    r"|(?<!on\smy\s)(?<!on\sher\s)(?<!on\shis\s)(?<!on\sour\s)(?<!on\stheir\s)feet"
    r"|arch(?:es)?(?=\s+(?:of|pain|hurts?|is|ache|aches|feels))|metatarsals?|toes?|toe\s*nails?|bunions?",
    "heel": r"heels?",
    "back": (
        r"(?<=lower\s)back|(?<=upper\s)back|(?:(?<=my\s)|(?<=his\s)|(?<=her\s)|(?<=their\s)|(?<=bad\s)|(?<=sore\s)"
        # dialect "me back", "ma back" (my back)
        r"|(?<=stiff\s)|(?<=dodgy\s)|(?<=weak\s)|(?<=tight\s)|(?<=\bme\s)|(?<=\bma\s))back"
        r"(?!\s+(?:to|on|in|into|home|half|end|from|up|out|off|at)\b)"
        r"|back(?=\s+(?:pain|ache|aches|aching|spasms?|issues?|problems?|injury|is|was|went|hurts?|hurting"
        r"|tightness|stiffness|feels|felt|flared|seized|locked|surgery|op|operation|injections?|scans?|mri|x[-\s]?rays?"
        r"|brace|muscles?|strain|tweak|twinges?|niggles?|spasm|problem|trouble)\b|['’]s\s+been\b)"
        r"|lumbar|si\s+joint|sacroiliac(?:\s+joint)?|sciatica"
        r"|(?:herniated|slipped|bulging|prolapsed)\s+discs?|l[1-5]\s*[/-]\s*(?:l[1-5]|s1)"
    ),
    "shoulder": r"shoulders?|rotator\s+cuff|collarbones?|clavicles?|ac\s+joint|acromioclavicular",
    "it band": r"it[-\s]?bands?|itb|itbs|iliotibial(?:\s+band)?",
    "plantar": r"plantar(?:\s+fascia|\s+fasciitis)?",
    "glute": r"glutes?|gluteal|piriformis|butt|buttocks?",
    "groin": r"groin|adductors?|hernia(?!\s+of\b)|inguinal",
    "neck": r"neck",
    "wrist": r"wrists?",
    "elbow": r"elbows?",
    "chest": r"chest|ribs?|pecs?|pectorals?|sternum|sternoclavicular(?:\s+joint)?",
    "finger": r"fingers?|thumbs?|pulleys?",
    "forearm": r"forearms?",
    "hand": r"hands?|knuckles?|palms?",
    "head": r"concussion\w*|head\s+(?:injury|injuries|knock|knocks|trauma|clash)",
    "abdomen": r"abs|abdominals?|abdomen|diastasis(?:\s+recti)?|c[-\s]?section(?:\s+scar)?",
    "pelvic floor": r"pelvic\s+floor",
}

TIME_PREFERENCES: dict[str, str] = {
    "morning": r"mornings?|am\s+runs?|sunrise|dawn|before\s+breakfast"
    r"|(?:[7-9]|1[01])(?:[:.][0-5]\d)?\s*am",
    "evening": r"[5-7](?:[:.][0-5]\d)?\s*pm|evenings?|sunset|dusk",
    "afternoon": r"afternoons?",
    "lunch": r"lunch(?:time|\s*break|es)?|midday|noon",
    # "first thing" and a run by 6am are early (and so a morning too: IMPLIED)
    "early": r"early(?!\s+(?:in|on|last|evenings?|afternoons?)\b)|first\s+thing|[4-6](?:[:.][0-5]\d)?\s*am",
    # the seeds' "late": at night, after dark, from 8pm (and so an evening too: IMPLIED)
    "late": r"late(?!\s+(?:in|on|last)\b)|nights?|after\s+dark|in\s+the\s+dark|(?:[89]|1[01])(?:[:.][0-5]\d)?\s*pm",
    "before work": r"before\s+work",
    "after work": r"after[-\s]work",
    "weekend": r"weekends?|saturdays?|sundays?",
}

INTENSITY_TOPICS: dict[str, str] = {
    "easy": r"easy|zone\s*2|conversational",
    "hard": r"hard(?:\s+(?:days?|sessions?|efforts?|workouts?))?",
    "tempo": r"tempos?(?:\s+runs?)?",
    # "6x1k", "10 x 400m", "5x5min": a set of repetitions (bounded counts keep a scan of digits linear)
    "intervals": r"intervals?|reps|repeats|vo2\s*max|\d{1,3}\s?x\s?\d{1,5}(?:k|km|m|mins?|s|secs?)?",
    "long run": r"long\s+runs?|long\s+rides?|go(?:es|ing)?\s+long|long\s+ones"
    r"|long\s+sunday\s+runs?|sunday\s+long\s+runs?|long\s+slow\s+(?:\w+\s+)?runs?|lsd",
    "recovery": r"recovery\s+(?:runs?|days?|jogs?|sessions?|weeks?)",
    "speed work": r"speed\s*work|speed\s+sessions?|sprints?",
    "hill repeats": r"hill\s+(?:repeats|reps|sprints)",
    "hills": r"hills?|hilly|climbs|descents?|downhills?|vert",
    "threshold": r"thresholds?|lactate",
    "track": r"track(?:\s+sessions?|\s+workouts?)?",
    "fartlek": r"fartleks?",
    "race": r"races?|racing|parkruns?|(?:half\s+)?marathons?|ultras?|ultra[-\s]?marathons?",
    "treadmill": r"treadmills?|dreadmill",
    "trail": r"trails?|fell\s+runs?|off[-\s]road",
}

CONTEXT_TOPICS: dict[str, str] = {
    "work": (
        r"(?<!speed\s)(?<!strength\s)(?<!core\s)(?<!hill\s)(?<!track\s)(?<!drill\s)(?<!pad\s)(?<!bag\s)(?<!tempo\s)"
        r"(?<!threshold\s)(?<!mobility\s)(?<!foot\s)work(?!\s*outs?\b)(?!\s+(?:really\s+|so\s+|very\s+)?(?:for|well|best|better|wonders|out)\b)|job|jobs|shifts?|office|career|boss|desk|nurse|nursing|doctor|teacher|teaching"
        r"|on\s+call|overtime|commute\s+to\s+work|workplace|employer|contract"
    ),
    "travel": (
        r"travel\w*|trips?|hotels?|flights?|flying|airports?|business\s+trips?|away\s+for\s+work|on\s+the\s+road"
        r"|jet[-\s]?lag\w*|long[-\s]haul|away\s+(?=(?:every|most|all|for|in|on|at|with|from\s+home)\b)"
    ),
    "kids": (
        r"school\s+runs?|nursery|kindergarten|kids?|children|childs|child|sons?|daughters?|baby|toddlers?|twins|newborn"
        r"|pushchairs?|buggy|strollers?|custody"
        r"|(?:dad|mum|mom|mother|father)\s+of|single\s+(?:mum|mom|dad|parent|mother|father)|(?:only|solo|lone)\s+parent"
        r"|school\s+(?:drop[-\s]?offs?|pick[-\s]?ups?)|\d+[-\s](?:week|month|year)[-\s]olds?|(?<=our\s)(?:youngest|eldest|oldest)"
        r"|(?:two|three|four|five|\d)\s+(?:young\s+|little\s+|teenage\s+|teen\s+|grown[-\s]up\s+)?(?:boys|girls)|teenagers"
        r"|stay[-\s]at[-\s]home\s+(?:mum|mom|dad|parent)|(?:two|three|four|five|\d)\s+under\s+(?:\d+|two|three|four|five"
        r"|six|seven|eight|ten)|(?:dad|mum|mom|parent)\s+duty"
    ),
    "family": (
        r"family|wife|husband|hubby|partner|pregnan\w*|post[-\s]?partum|parents?|mum|mom|dad|carer\s+for|childcare"
        r"|solo\s+parent\w*|puppy|mam|carer|mother|father|expecting\s+(?:our|a|my)\s+(?:first|second|third|baby|child)"
        r"|getting\s+married|in[-\s]laws"
    ),
    "commute": r"commut\w*",
    "gym": (
        r"gyms?|weights|squats|deadlifts|lift(?:s|ing)?|strength(?:\s+training|\s+work)?|crossfit|s\s*&\s*c"
        r"|powerlifting|weightlifting"
    ),
    "climbing": r"climb(?:er|ers|ing)|boulder\w*|(?<=\bi\s)climb\b",
    "cycling": r"cycl\w*|bikes?|biking|rides?|riding|spin(?:\s+class(?:es)?)?|peloton|turbo(?:\s+trainer)?|zwift",
    "swimming": r"swim\w*|swam|swum|pool",
    "rowing": r"rowing|rower|rowers|erg|ergs|sculling|sculls?|(?<=\bi\s)row\b|(?<=used\sto\s)row\b",
    "yoga": r"yoga",
    "pilates": r"pilates",
    "triathlon": r"tri|triathlon\w*|triathlete|ironman|70\.3|bricks?(?!\s+walls?)",
    "team sport": (
        # "tennis elbow" is a condition of the elbow, whatever sport brought it on
        r"football|soccer|rugby|hockey|netball|basketball|tennis(?!\s+elbows?\b)|squash|padel|five-a-side|5-a-side|handball"
        r"|volleyball|cricket|lacrosse|hurling|baseball|softball"
    ),
    "golf": r"golf(?!ers?['’]?s?\s+elbows?\b)\w*(?!\s+elbows?\b)|handicap",  # "golfer's elbow": a condition
    "dance": r"danc(?:e|er|ers|es|ing)|ballet|ballroom|salsa",
    "martial arts": (
        r"martial\s+arts?|bjj|jiu[-\s]?jitsu|judo|karate|taekwondo|kickboxing|muay\s+thai|mma|krav\s+maga|sparring"
    ),
    "skiing": r"ski|skis|skiing|skier|cross[-\s]country\s+ski\w*",
    "sleep": r"sleep\w*|insomnia",
    # what the athlete trains with at home or owns: "a squat rack and a rower in the garage", "a power meter"
    "equipment": (
        r"pull[-\s]?up\s+bar|kettlebells?|dumbbells?|barbells?|squat\s+rack|power\s+rack|resistance\s+bands?|home\s+gym"
        r"|power\s+meter|smart\s+trainer|concept\s*2|rowing\s+machine|wetsuit|insoles|orthotics|heart\s+rate\s+(?:strap"
        r"|monitor)|chest\s+strap|racing\s+(?:wheelchair|chair)|wheelchair|handcycle|running\s+blade|hokas?"
        r"|(?:gym\s+)?membership"
    ),
    # where the athlete lives or is moving to ("we live in Boulder", "moving house to the countryside")
    "location": (
        r"(?:live|lives|living|based|moved|moving|relocat\w*)\s+(?:in|to|at|near|by|on|out\s+to|up\s+to|house|abroad)"
        r"|moved\s+from\s+[\w-]+(?:\s+[\w-]+)?\s+to"
        r"|countryside|where\s+i\s+live|round\s+here|around\s+here|no\s+street\s*lights|front\s+door"
    ),
    # when the athlete can train and what is fixed around it ("a 4-on-4-off rota", "term time", "plan around it")
    "schedule": (
        r"rota|timetable|availability|plan\s+around|fit\s+(?:it\s+|training\s+|running\s+)?around|term\s+time"
        r"|school\s+holidays|placements?"
    ),
    # what the athlete eats or does not ("I'm vegan", "doing intermittent fasting", "fasting for Ramadan")
    "diet": (
        r"vegan|vegetarian|veggie|pescatarian|plant[-\s]based|keto|intermittent\s+fasting|fasting|ramadan"
        r"|gluten[-\s]free|dairy[-\s]free|lactose[-\s]intolerant|diet"
    ),
    "study": r"studying|student|exams?|finals|dissertation|thesis|revision|university|uni|college|phd",
    "health": (
        r"asthma\w*|pacemaker|allerg\w*|diabet\w*|type\s*[12]|anaemi\w*|anemi\w*|thyroid|hypothyroid\w*|coeliac|celiac|ibs|crohn\w*"
        r"|migraines?|menopaus\w*|perimenopaus\w*|blood\s+pressure|medication|heart\s+condition|arrhythmia|epilep\w*"
        r"|endometriosis|pcos|arthritis|long\s+covid|low\s+iron|beta[-\s]blockers?|insulin|inhalers?|heart\s+murmur"
        r"|murmur|afib|atrial\s+fibrillation|raynaud\w*|hypermobil\w*|osteopenia|osteoporosis|scoliosis|fibromyalgia"
        r"|lupus|multiple\s+sclerosis|sleep\s+apn\w*|(?:rheumatoid|psoriatic)\s+arthritis|ankylosing\s+spondylitis|gout"
        r"|pots|ptsd|heart\s+scare|hearing\s+loss|tinnitus|heart\s+attack|cardiac\s+rehab\w*|paraplegi\w*"
        r"|registered\s+blind|hay\s*fever|ferritin|osteoarthritis|ms|cerebral\s+palsy|ehlers[-\s]danlos|spina\s+bifida"
        r"|sickle\s+cell|stents?|dvt|warfarin|blood\s+thinners?|adhd|autis\w+|panic\s+attacks?|heat\s+exhaustion"
        r"|hrt|meds|spinal\s+(?:cord\s+)?injury"
    ),
    "altitude": r"altitude|\d[,.]?\d{3}\s*(?:m|metres|meters)(?=\W|$)",
    "goal": r"marathon|half\s+marathon|ultra|ironman|goal\s+race|target\s+race|a\s+race",
}

VOCABULARY: Mapping[str, Mapping[str, str]] = {
    "body": BODY_PARTS,
    "time": TIME_PREFERENCES,
    "intensity": INTENSITY_TOPICS,
    "context": CONTEXT_TOPICS,
}

# A tag that always means another as well, so a filter finds it: a run before work is a morning run, hill
# repeats are hill work and hill work is hill repeats, a late run is an evening run, a recovery run is easy,
# threshold is tempo effort, plantar fasciitis is in the foot.
IMPLIED: Mapping[str, tuple[str, ...]] = {
    "time:before work": ("time:morning",),
    "time:after work": ("time:evening",),
    "time:early": ("time:morning",),
    "time:late": ("time:evening",),
    "intensity:hill repeats": ("intensity:hills",),
    # the seeds' vocabulary has hill repeats only, and labellers working from it write it for any hill work
    "intensity:hills": ("intensity:hill repeats",),
    "intensity:recovery": ("intensity:easy",),
    "intensity:threshold": ("intensity:tempo",),
    "intensity:speed work": ("intensity:intervals",),
    "body:plantar": ("body:foot",),
}


def with_implied(tags: tuple[str, ...] | list[str]) -> list[str]:
    """`tags` and every tag they imply (`IMPLIED`), without repeats."""
    return list(dict.fromkeys([*tags, *(i for t in tags for i in IMPLIED.get(t, ()))]))


# Tags written before the vocabulary, or by hand, that mean a canonical one.
_ALIASES: dict[str, str] = {"context:job": "context:work", "context:shift": "context:work"}


class Lexicon:
    """One alternation with a named group per canonical value, for a single scan of a text."""

    def __init__(self, kind: str, entries: Mapping[str, str]) -> None:
        self.kind = kind
        self.names = {f"g{i}": value for i, value in enumerate(entries)}
        alternation = "|".join(f"(?P<{g}>{entries[v]})" for g, v in self.names.items())
        self.pattern = re.compile(rf"\b(?:{alternation})\b", re.IGNORECASE)
        self.lower_pattern = re.compile(rf"\b(?:{alternation})\b")  # for lower-cased text: several times faster

    def tag(self, match: re.Match[str]) -> str:
        return f"{self.kind}:{self.names[match.lastgroup or '']}"

    def tags(self, text: str) -> list[str]:
        return list(dict.fromkeys(self.tag(m) for m in self.lower_pattern.finditer(text.lower())))


BODY = Lexicon("body", BODY_PARTS)
TIME = Lexicon("time", TIME_PREFERENCES)
INTENSITY = Lexicon("intensity", INTENSITY_TOPICS)
CONTEXT = Lexicon("context", CONTEXT_TOPICS)
LEXICONS: Mapping[str, Lexicon] = {"body": BODY, "time": TIME, "intensity": INTENSITY, "context": CONTEXT}


def all_tags() -> list[str]:
    """Every canonical tag, kind by kind, for pickers and filters."""
    return [f"{kind}:{value}" for kind, entries in VOCABULARY.items() for value in entries]


def tags_in(text: str, kinds: tuple[str, ...] = ("body", "time", "intensity", "context")) -> list[str]:
    """The canonical tags whose words occur in `text`: "a month of hotel gyms" gives context:travel, context:gym."""
    return [tag for kind in kinds for tag in LEXICONS[kind].tags(text)]


_MAX_NAMING_WORDS = 3


def canonical_tag(tag: str) -> str:
    """The canonical spelling of a tag typed by hand or stored before the vocabulary.

    "context:job" and "context:office" become "context:work"; "Body:Knees" becomes "body:knee"; a value of a few
    words that names one canonical value among others reads as it ("body:lower back" is "body:back",
    "body:achilles tendon" is "body:achilles", "context:shift work" is "context:work"); a tag outside the
    vocabulary comes back trimmed and lower-cased.
    """
    cleaned = " ".join(tag.strip().lower().split())
    if cleaned in _ALIASES:
        return _ALIASES[cleaned]
    kind, sep, value = cleaned.partition(":")
    if sep and kind in LEXICONS and value not in VOCABULARY[kind]:
        m = LEXICONS[kind].pattern.fullmatch(value)
        if m is not None:
            return LEXICONS[kind].tag(m)
        named = LEXICONS[kind].tags(value) if len(value.split()) <= _MAX_NAMING_WORDS else []
        if len(named) == 1:
            return named[0]
    return cleaned


FREE_KIND = "topic"
"""The kind of a tag typed as plain words outside the vocabulary ("hotel gyms" → "topic:hotel gyms")."""


def tag_for_words(typed: str) -> str:
    """The tag an athlete means by what they typed into a tags field.

    "knee" → "body:knee", "long runs" → "intensity:long run", "job" → "context:work"; words outside
    the vocabulary become a free tag of their own ("topic:…"); a typed "kind:value" is kept, in its
    canonical spelling. The athlete never has to learn the codes.
    """
    cleaned = " ".join(typed.strip().lower().split())
    if not cleaned or ":" in cleaned:
        return canonical_tag(cleaned) if cleaned else cleaned
    for lexicon in LEXICONS.values():
        match = lexicon.pattern.fullmatch(cleaned)
        if match is not None:
            return canonical_tag(lexicon.tag(match))
    if _FREE_VALUE.fullmatch(cleaned) is None:
        return typed.strip()  # not words a tag can hold: the schema says so, about what they typed
    return f"{FREE_KIND}:{cleaned}"


_FREE_VALUE = re.compile(r"[a-z0-9][a-z0-9 _.'/-]{0,59}")  # a tag's value (domain.schemas.TAG_PATTERN)
