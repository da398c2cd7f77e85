"""The rule table for preferences, context and training responses: one regex per seed pattern, widened."""

from __future__ import annotations

import re
from dataclasses import dataclass

from domain.enums import MemoryConfidence, MemoryType
from domain.extraction.lexicon import ADVERBS, WEEKDAY_NAME
from domain.extraction.lexicon import ANY_TIME as _TIME
from domain.extraction.lexicon import APOSTROPHE as _A
from domain.extraction.prefilter import split_anchored
from domain.vocabulary import CONTEXT_TOPICS

HIGH, MEDIUM, LOW = MemoryConfidence.HIGH, MemoryConfidence.MEDIUM, MemoryConfidence.LOW
PREFERENCE, CONTEXT, RESPONSE = MemoryType.PREFERENCE, MemoryType.CONTEXT, MemoryType.TRAINING_RESPONSE

_ADV = r"(?:(?:" + "|".join(ADVERBS.split()) + r"|kind\s+of|do|tend\s+to|seem\s+to|can\s+only|happily)\s+)"
_WEEKDAYS = WEEKDAY_NAME + "s?"
I_AM = r"\bi(?:" + _A + r"?m|\s+am)\s+"
RUN_OBJECT_RE = re.compile(
    r"\b(?:run\w*|tempo\w*|intervals?|easy|hills?|hill\s+repeats|trails?|track|treadmill|races?|racing|parkrun"
    r"|speed\s*work|fartleks?|workouts?|training|sessions?|strides|threshold|miles|mileage|marathons?|ultras?"
    r"|half|5k|10k"
    r"|mornings?|evenings?|early|alone|company|road|roads|rain|heat|humid\w*|cold|hard|recovery|reps|treadmills?"
    r"|dreadmill|music|podcasts?|headphones|groups?|club|solo|dark|night|nights|lunch\w*|weekends?|gym|pool|swim\w*"
    r"|bike|cycling|long|sprints?|descents?|downhills?|uphills?|climbs|loops?|laps|routes?|pace|structure|plans?"
    r"|miles|kms?|k|zone\s*2|\d+\s*[ap]m|alarms?|starts?|heart\s+rate|strava|watch|gps|coffee|breakfast|fasted"
    r"|crowds|people|friends?|dog"
    r"|vert|" + _WEEKDAYS + r""
    r"|ergs?|erg\s+pieces|rowing|climb\w*|boulder\w*|rock|crags?|indoors|outdoors|open\s+water|rides?|riding|turbo"
    r"|zwift|lifting|weights|yoga|pilates|spin|squats|deadlifts|matches|games|lengths|laps|doubles|bricks?"
    r"|(?:after|before)\s+work|afternoons?)\b",
    re.IGNORECASE,
)
_OCCUPATIONS = (
    r"nurse|teacher|doctor|gp|surgeon|physio(?:therapist)?|paramedic|firefighter|fireman|police\s*(?:man|woman"
    r"|officer)?"
    r"|officer|engineer|developer|programmer|designer|architect|lawyer|solicitor|barrister|accountant|chef|cook"
    r"|waiter|waitress|barista|farmer|builder|carpenter|electrician|plumber|mechanic|driver|pilot|soldier|student"
    r"|consultant|manager|cleaner|caregiver|pharmacist|dentist|vet|scientist|researcher|journalist|writer"
    r"|lecturer|professor|midwife|postman|postwoman|courier|cashier|receptionist|analyst|banker|trader|musician"
    r"|artist|photographer|hairdresser|personal\s+trainer|social\s+worker|surveyor|labourer|civil\s+servant"
    r"|postie|security\s+guard|postdoc|phd\s+student|grad\s+student|paralegal|shop\s+assistant|hgv\s+driver"
    r"|lorry\s+driver|bus\s+driver"
    r"|shift\s+worker|warehouse\s+worker|retail\s+worker|care\s+worker|health\s*care\s+worker|tradesman"
    r"|miner|welder|joiner|roofer|plasterer|bricklayer|painter|decorator|gardener|landscaper|labourer|laborer"
    r"|radiographer|optician|therapist|psychologist|counsell?or|instructor|lifeguard|porter|nanny|childminder"
    r"|baker|butcher|bartender|server|salesman|saleswoman|sales\s+rep|estate\s+agent|editor|translator|resident"
    r"|registrar|junior\s+doctor|fisherman|sailor|seafarer|offshore\s+worker|rig\s+worker|technician"
    r"|fifo\s+worker|machinist|operator|dispatcher|call\s+handler|firefighter|police\s+officer|prison\s+officer|guard"
    r"|dancer|shepherd|stockman|postgrad|sous\s+chef|software\s+dev"
)
_SPORTS = (
    r"yoga|pilates|crossfit|(?:the\s+)?gym|weights|strength(?:\s+training|\s+work)?|climbing|bouldering|cycling"
    r"|swimming|spin(?:\s+class(?:es)?)?|football|soccer|tennis|squash|padel|rugby|hockey|netball|basketball"
    r"|martial\s+arts|boxing|triathlons?|rowing|skiing|five-a-side|5-a-side|golf|ballet|bjj|jiu[-\s]?jitsu|judo|karate"
    r"|taekwondo|kickboxing|muay\s+thai|powerlifting|weightlifting|cross[-\s]country\s+skiing"
)
_TEAM_SPORTS = CONTEXT_TOPICS["team sport"]
_TEAM_WORDS = _TEAM_SPORTS + r"|footy|gaelic|sevens|xv|water\s+polo|futsal|camogie|shinty|korfball"
_FAMILY_NOUN = (
    r"(?:kids?|children|childs|child|sons?|daughters?|baby|babies|newborn|toddlers?|twins|boys|girls|little\s+ones"
    r"|-?(?:week|month|year)[-\s]olds?)"
)
_COUNT = r"(?:\d+|one|two|three|four|five|six|a|an)"
STIMULUS = (
    r"(?:intervals?|tempos?(?:\s+runs?)?|easy\s+(?:runs?|days?|sessions?|miles)|recovery\s+runs?|long\s+runs?"
    r"|hills?|hill\s+repeats|speed\s*work|speed\s+sessions?|track\s+sessions?|races?"
    r"|high\s+volume|bricks?|brick\s+sessions?|runs?\s+off\s+the\s+bike|evening\s+sessions?"
    r"|racing|back[-\s]to[-\s]back\s+\w+|high\s+mileage|mileage|hard\s+(?:sessions?|days?|efforts?)|workouts?"
    r"|heat|humidity|strides|doubles|early\s+runs?|morning\s+runs?|evening\s+runs?|descents?|downhills?"
    r"|downhill\s+running|marathons?|sprints?|fartleks?|threshold(?:\s+\w+)?|strength(?:\s+work)?|gym\s+sessions?"
    r"|leg\s+days?|big\s+weeks?|night\s+shifts?|caffeine|coffee|fasted\s+runs?|altitude|hot\s+weather|cold"
    r"|travel|jet\s*lag|late\s+nights?|alcohol|beer|wine|poor\s+sleep|bad\s+sleep|hilly\s+runs?|trail\s+runs?|gels?"
    r"|energy\s+drinks?|dairy|spicy\s+food|ibuprofen"
    # the sessions of other sports: "big climbing days", "erg pieces", "swim sets with paddles"
    r"|(?:climbing|bouldering|rowing|erg|swim|bike|cycling|spin|turbo|gym|lifting)\s+(?:days?|sessions?|pieces?"
    r"|sets?|workouts?|blocks?)|ergs?|paddles|spikes|racing\s+flats|(?:hot\s+)?yoga|pilates|spin\s+class(?:es)?"
    r"|crossfit|swims?|rides?|heavy\s+(?:squats|deadlifts|lifting|weights|legs)|squats|deadlifts|lifting|weights"
    r"|cross[-\s]?training|swimming|cycling|tapers?|tapering|rest\s+days?|days?\s+off|(?:speed|hill|threshold|tempo"
    r"|track|strength|core|drill)\s+work|low[-\s]carb|carbs|carb[-\s]loading|beetroot(?:\s+juice)?|naps?|stretching"
    r"|foam\s+rolling|massages?|ice\s+baths?|sauna|late\s+sessions?|volume|pieces|efforts|repeats"
    # training at a time or in a condition: "training in the morning", "running on an empty stomach"
    r"|(?:training|running|riding|swimming|racing)\s+(?:in\s+the\s+|at\s+|on\s+an?\s+)?(?:mornings?|evenings?|heat|cold"
    r"|rain|dark|night|lunchtime|empty\s+stomach|fasted))"
)
_SUBJECT = r"\b(?:i|he|she|they)\s+"
AGE_RULE = "age_context"
_THEY_ARE = r"\b(?:(?:he|she)(?:" + _A + r"s|\s+is)|they(?:" + _A + r"re|\s+are))\s+"
_WEEKDAY = r"(?:mon|tue|wed|thu|fri|sat|sun)\w*"
_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t|tember)?|oct(?:ober)?"
    r"|nov(?:ember)?|dec(?:ember)?)"
)
# An event ahead in any sport (target_context).
_EVENT = (
    r"(?:race|swim|ride|sportive|fight|bout|meet|competition|championships?|tournament|trials|selection|grading|gala"
    r"|regatta|feis|relay|triathlon|tri|iron\s*man|marathon|half|ultra|(?:fitness|bleep|beep|entrance|pt)\s+test)"
)
_BODY_SUBJECT = (
    r"(?:knees?|calf|calves|shins?|hips?|hamstrings?|hammies|quads?|achilles|feet|ankles?|back|glutes?|legs|body)"
)
_RESPONSE_OBJECT = r"(?:me|them|him|her|my|their|his|the\s+athlete)\b"
_FEELING = (
    r"(?:tired|sore|wrecked|flat|sluggish|dizzy|nauseous|sick|drained|exhausted|shattered|knackered|dead|strong|great"
    r"|better|faster|hungry|stiff|out|stronger|weaker|fresher|worse|fitter|wiped|cooked|fried|spent|useless"
    r"|broken|rubbish|awful|terrible|crap|rough|heavy|lethargic|groggy|slow|ropey|ropy)"
)

REACTION = (
    r"(?:wrecked|wiped|fried|cooked|toast|trashed|smashed|battered|knackered|shattered|exhausted|drained|flat"
    r"|sluggish|heavy|dead|jelly|awful|terrible|sick"
    r"|nause\w*|dizzy|light[-\s]headed|headaches?|cramp(?:s|ing|ed)?|stitch(?:es)?|bonk\w*|fades?|struggles?|starving"
    r"|ravenous|wired|buzzing|sore|stiff|achy|doms|hit\s+the\s+wall)\b"
)


# How long a reaction lasts: "for days", "for 2 days", "for half the week", "for the rest of the day".
_LASTING = (
    r"(?:days|ages|a\s+(?:day|week|while)|(?:\d+|two|three|four|a\s+few|several|a\s+couple\s+of)\s+days"
    r"|half\s+the\s+week|the\s+(?:whole\s+|rest\s+of\s+the\s+|next\s+)?(?:day|week|weekend))\b"
)


# A liking of something named before it: "Treadmill. Hate it.", "Lunch run from the office. Love these", "pool
# running which I actually quite like", "I've been going since spring and love it" (not "I love it when you send the
# plan early").
PRONOUN_LIKE = (
    r"(?:^|\b(?:and|but|now|so|really|actually|honestly)\s+)(?:i\s+)?(?:(?:really|actually|quite|genuinely|absolutely"
    r"|honestly|just|still|now|kinda|totally)\s+){0,3}(?:love|like|enjoy|adore|hate|loathe|detest|dread"
    r"|can" + _A + r"?t\s+stand)\s+(?:it|them|these|those)\b(?!\s+(?:when|if|that|you|because|to)\b)"
    r"|\bwhich\s+i\s+(?:(?:really|actually|quite|genuinely|absolutely|honestly|just|still|now|kinda|totally)\s+){0,3}"
    r"(?:like|love|enjoy|adore|hate|loathe|detest|dread)\b"
)


# The words of an event already run: "the half in March was a disaster", "ran Seville in February".
_PAST = r"(?:was|were|went|ran|raced|did|had|felt|finished|got|last|cancelled|dnf|been|since)\b"


# A goal as a heading: "Long-term goal is to qualify", "Big goal: finish the CCC", "Target race is Berlin".
_GOAL_HEAD = (
    r"(?:(?:big|main|long[-\s]term|short[-\s]term|season|race|real|ultimate|next|dream|stretch|secret|b|a|key)\s+)?"
    r"(?:goals?|targets?(?:\s+race)?|a[-\s]race|aim|dream)(?:\s+(?:for|this|next)\s+(?:this\s+|next\s+|the\s+)?"
    r"(?:year|season|spring|summer|autumn|fall|winter))?\s*(?:is|are|:|=|will\s+be)\s*\w"
)


# Two days of a month: "3-10", "2nd to the 16th".
_DAY_RANGE = r"\d{1,2}(?:st|nd|rd|th)?\s*(?:[-–]|to|till|until)\s*(?:the\s+)?\d{1,2}(?:st|nd|rd|th)?\b"


# A stay somewhere else: "heading to the Alps for three weeks", "we're in Kenya for three months" (but not
# "I'm in a boot for six weeks").
_STAY_AWAY = (
    r"\b(?:(?:heading|going|go|goes|off|flying|fly|flies|moving|travell?ing)\s+(?:out\s+|over\s+|away\s+|back\s+"
    r"|home\s+)?to\s+(?:the\s+)?"
    r"|(?:away|(?:we|i)(?:" + _A + r"re|\s+are|" + _A + r"m|\s+am|" + _A + r"ll\s+be|\s+will\s+be))\s+(?:away\s+)?in\s+"
    r"(?!(?:a|an|the|my|our|this|that|training|rehab|physio|recovery|pain|agony|bed|hospital|isolation|quarantine"
    r"|lockdown|taper|shape|pieces|bits|good|bad|great)\b))"
    r"(?!(?:be|do|have|get|take|try|run|keep|need|stay|start|stop|cut|drop|ease|rest|train)\b)(?:[\w-]+\s+){1,3}?for\s+(?:a|an|one|two|three|four|five|six|\d+|a\s+couple\s+of|a\s+few|the\s+next)\s+"
    r"(?:(?:\d+|two|three|four|five|six)[-\s]?)?(?:weeks?|months?|fortnight)\b"
    # round 5: a trip somewhere, or a stay with its dates: "trip to the Dolomites", "camp in Portugal", "I'm away
    # climbing 4-11 June", "we're in Crete from 2-9 May" (not a trip to the gym or the physio)
    r"|\b(?:trip|holiday|vacation|camp|tour)\s+(?:to|in)\s+(?!(?:the\s+)?(?:gym|pool|shops?|track|park|physio|doctors?"
    r"|hospital|dentist|toilet|loo|office)\b)\w"
    r"|\baway\s+(?:[\w-]+\s+){0,3}?(?:from\s+(?:the\s+)?)?"
    + _DAY_RANGE
    + r"|\b(?:we|i)(?:"
    + _A
    + r"re|\s+are|"
    + _A
    + r"m"
    r"|\s+am|" + _A + r"ll\s+be|\s+will\s+be)\s+in\s+[\w-]+(?:\s+[\w-]+)?\s+from\s+(?:the\s+)?" + _DAY_RANGE
)


# The health conditions, medicines and disabilities the athlete may live with (context:health): any mention is one
# (health_context), and "I have ..." says it with more confidence (life_context, which also reads "I have af",
# "I suffer from anxiety").
_CONDITIONS = (
    r"asthma\w*|diabet\w*|hypos?|hypoglyc\w*|low\s+(?:iron|ferritin|b12|blood\s+sugar)|iron\s+deficien\w*|an(?:a)?emi\w*"
    r"|long\s+covid|covid|glandular\s+fever|antidepressants?|ssris?|beta[-\s]blockers?|inhalers?|pacemaker"
    r"|heart\s+(?:condition|murmur|problems?|arrhythmia)|irregular\s+heart\s*beat|arrhythmia|afib|atrial\s+fibrillation"
    r"|migraines?|(?:hypo|hyper)?thyroid\w*|coeliac|celiac|crohn\w*|ibs|colitis|endometriosis|pcos|epilep\w*"
    r"|high\s+blood\s+pressure|(?:peri)?menopaus\w*|cancer|chemo\w*|visually\s+impaired|partially\s+sighted|deaf"
    r"|hard\s+of\s+hearing|amputee|prosthe\w*|para[-\s]?(?:athlete|triathlete|runner|cyclist|swimmer)|nosebleeds?"
    r"|raynaud\w*|hypermobil\w*|fibromyalgia|lupus|multiple\s+sclerosis|chronic\s+fatigue|post[-\s]?viral|osteopenia"
    r"|osteoporosis|scoliosis|sleep\s+apn\w*|eczema|psoriasis|insulin|blood\s+sugars?|sugar\s+levels"
    r"|(?:rheumatoid|psoriatic|inflammatory)\s+arthritis|ankylosing\s+spondylitis|gout|pots|ptsd|relapsing[-\s]remitting"
    r"|ms\s+nurse|parkinson\w*|heart\s+scare|hearing\s+loss|tinnitus|swimmer" + _A + r"?s\s+ear"
    r"|blood\s+pressure|heart\s+attack|cardiac\s+rehab\w*|paraplegi\w*|tetraplegi\w*|registered\s+blind"
    r"|retinitis\s+pigmentosa|lost\s+my\s+sight|hay\s*fever|allergic\s+to\s+\w+|ferritin|osteoarthritis"
    # conditions of the nerves, the blood and the mind, and what treats them: "fatigue from MS", "I have cerebral
    # palsy", "a stent fitted in 2022", "taking warfarin for a DVT", "sickle cell trait", "new meds"
    r"|ms|cerebral\s+palsy|ehlers[-\s]danlos|spina\s+bifida|sickle\s+cell|stents?|dvt|warfarin|blood\s+thinners?"
    r"|adhd|autis\w+|panic\s+attacks?|heat\s+exhaustion|hrt|medication|meds|spinal\s+(?:cord\s+)?injury"
    # round 5, conditions four outside writers named: "since my hysterectomy", "a chest infection every winter",
    # "gallbladder surgery", "recurrent UTIs", "heat rash", "was a smoker", "on the pill", "because of the AF", "I react
    # badly to ibuprofen" (not "windy af")
    r"|hysterectomy|chest\s+infections?|gall\s*bladder|utis?|urinary\s+tract\s+infections?|heat\s+rash|smoker|on\s+the\s+pill"
    r"|because\s+of\s+(?:my|the)\s+af|react\w*\s+badly\s+to\s+\w+|stomach\s+bleed"
)
# The same as a word for the athlete: "I'm diabetic", "she is asthmatic".
_CONDITION_WORDS = (
    r"(?:diabetic|asthmatic|anaemic|anemic|coeliac|celiac|epileptic|menopausal|perimenopausal|postpartum|hypothyroid"
    r"|hyperthyroid)"
)


# Named days of a fixed slot: two or more ("tues and thurs", "Mon/Wed/Fri", "Monday, Wednesday and Friday") or "every
# Tuesday".
_SLOT_DAY = r"(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:days?|s)?\b"
_SLOT_DAYS = (
    r"(?:" + _SLOT_DAY + r"(?:\s*(?:[,&/+]\s*|(?:and|or)\s+)?" + _SLOT_DAY + r")+|(?:every|each)\s+" + _SLOT_DAY + r")"
)


# When the athlete can train, and what is fixed around it: "I can train Monday, Wednesday and Saturday only", "Only have
# 45 minutes max on weekdays", "about 4 hours a week realistically", "Saturdays and Sundays are out", "I can't run on
# Thursdays", "Tuesday and Thursday evenings free again" ("that's fixed, please plan around it" only tags a context
# another rule reads: the outside writers differ on it).
_SCHEDULE = (
    r"\bi\s+can\s+(?:only\s+)?(?:train|run|ride|swim|get\s+out)\s+(?:on\s+)?(?:" + _WEEKDAYS + r"|weekends|weekdays"
    r"|twice|once|(?:\d+|two|three|four|five|six)\s+(?:days|times))\b"
    r"|\b(?:only|just)\s+(?:have|get|got)\s+(?:about\s+|around\s+)?(?:\d+|an?|one|two|three|four|five|six)\s*"
    r"(?:minutes|mins|hours?|hrs?|days?\s+a\s+week|sessions?\s+a\s+week)\b"
    r"|\b(?:\d+(?:\s*[-–]\s*\d+)?|two|three|four|five|six)\s*(?:hours?|hrs?|sessions?|days?|runs?)\s+(?:a|per|in\s+the)\s+"
    r"week\s+(?:realistically|max|tops|at\s+most|is\s+all|at\s+best)\b"
    # issue 13, outside writers 3 and 4: "I have only three days free in the week", "I can't do Wednesdays anymore",
    # "working four days a week, Fridays off", "weekends are mostly out", "Saturday long sessions are out"
    r"|\bonly\s+(?:have\s+|got\s+)?(?:\d+|two|three|four|five|six)\s+(?:days?|evenings?|mornings?|slots?)\s+free\b"
    r"|\b(?:can" + _A + r"?t|cannot)\s+(?:do|make)\s+(?:on\s+)?(?:" + _WEEKDAYS + r")\b"
    r"|\b(?:mon|tues|wednes|thurs|fri|satur|sun)days\s+off\b"
    r"|\b(?:can" + _A + r"?t|cannot|never)\s+(?:train|run|ride|swim|do\s+\w+)\s+on\s+(?:" + _WEEKDAYS + r"|weekends)\b"
    r"|\b(?:" + _WEEKDAYS + r"|weekends?|weekdays?)(?:\s+(?:long\s+)?(?:runs|sessions|rides))?\s+(?:are|is)\s+"
    r"(?:(?:always|usually|completely|mostly|often|basically|generally|normally|pretty\s+much)\s+)?(?:out|off"
    r"\s+limits|impossible|taken|a\s+write[-\s]off|open|free|anything\s+goes)\b"
    r"|\b(?:" + _WEEKDAYS + r"|(?:mornings?|evenings?|afternoons?))\s+(?:are\s+|is\s+)?(?:off|free)\s+(?:again|now|from"
    r"|each|every)\b"
    # a kind of session bound to a day: "the long ride has to be Sunday", "long stuff will have to go midweek"
    r"|\blong\s+(?:runs?|rides?|stuff|ones?|sessions?)\s+(?:has|have|will\s+have|(?:has|have)\s+got)\s+(?:to|gotta)\s+"
    r"(?:be|go)\s+(?:on\s+)?(?:a\s+)?(?:" + _WEEKDAYS + r"|midweek|weekends?|there)\b"
    r"|\bhas\s+gotta\s+be\s+(?:on\s+)?(?:" + _WEEKDAYS + r")\b"
    # the one free day, or the days a helper can do: "Friday is my only free day", "my guide can only do Mondays"
    r"|\b(?:" + _WEEKDAYS + r")\s+(?:is|are)\s+my\s+only\s+(?:free\s+|spare\s+|full\s+)?days?\b"
    r"|\bcan\s+only\s+do\s+(?:" + _WEEKDAYS + r")\s+(?:and|&)\s+(?:" + _WEEKDAYS + r")\b"
)
# A fixed weekly slot of a group, a club or a league, on named days: "masters squad tues and thurs 7pm", "track league
# every Tuesday", "we train Mon and Thu", "parkrun at the park every Saturday" (issue 13, round 5: three of the five
# outside writers label these context:schedule; beside a sport's context it adds the tag). A rule of its own, so that
# its literals ("club", "training") do not open the search of the other life kinds.
_FIXED_SLOT = (
    r"\b(?<!\bno\s)(?:squad|club|group|league|training|practice|outings?|match(?:es)?|games|fixtures|class(?:es)?|choir"
    r"|lads|mates|parkrun|(?:track|club)\s+nights?)\b(?:[\s,]+[\w'’-]+){0,3}?[\s,]+" + _SLOT_DAYS + r"|\b(?:train|play"
    r"|climb|swim|ride|row|coach|referee)s?\s+(?:on\s+)?" + _SLOT_DAYS
)
# What the athlete trains with: "I only have a treadmill at home", "I've got a squat rack, barbell ... in the garage",
# "I bought a Concept2 for the garage", "No gym membership, just a pull up bar" (not a session: "a treadmill session").
_EQUIPMENT = (
    r"(?:^|\b(?:i|we)(?:\s+(?:only|just|now|finally|also))?(?:\s+|(?="
    + _A
    + r")))(?:have|"
    + _A
    + r"ve\s+got|have\s+got|got"
    r"|own|bought|use|train\s+on)\s+(?:a|an|my|our|some|the)\s+(?:[\w-]+\s+){0,2}?(?:"
    + CONTEXT_TOPICS["equipment"]
    + r"|treadmill|turbo|rower|wattbike|peloton|concept\s*2|zwift|gym)\b(?!\s+(?:session|run|workout|class)s?\b)"
    r"(?=\s+(?:at\s+home|in\s+the\s+(?:garage|shed|house|spare\s+room|flat|basement)|and|for|,)|\s*$|"
    r"(?<!treadmill)(?<!turbo)(?<!rower)(?<!gym)(?<!zwift)(?<!peloton))"
    r"|^(?:no|not\s+renewing\s+(?:my|the))\s+(?:gym\s+)?membership\b|\bgym\s+membership\s+(?:runs\s+out|ends|expires)\b"
)
# What the athlete has, or lacks, to train with, in the words of the outside writers 3, 4 and 5 (round 5): "I only
# have a gravel bike", "Just a kettlebell at home", "new wetsuit arrived", "swapped my road bike for a TT bike", "I
# don't have a power meter", "training in the garage with a kettlebell" (not new shoes: the outside writers label the
# blister, not the shoes).
_GEAR = (
    r"(?:"
    + CONTEXT_TOPICS["equipment"]
    + r"|(?:gravel|road|tt|time[-\s]trial|mountain|turbo|exercise|spin|track)\s+bike"
    r"|bikes?|trainers|roller\s+trainer|rollers|garmin|gps\s+watch|treadmill|turbo|rower|soles)\b"
)
_GEAR_HOME = r"(?:at\s+home|in\s+the\s+(?:garage|shed|spare\s+room|living\s+room|basement|flat))\b"
_HAS_GEAR = (
    r"\b(?:only|just)\s+(?:have|got|own|use|train\s+(?:on|with))\s+(?:a|an|my|one|the|some|two)\s+(?:[\w-]+\s+){0,2}?"
    + _GEAR
    + r"|^(?:just|only)\s+(?:a|an|my|one|some)\s+(?:[\w-]+\s+){0,2}?"
    + _GEAR
    + r"|(?:^(?:my\s+|a\s+|the\s+)?new|\bswitched\s+to\s+(?:a|an|the)|\bswapped\s+(?:my|the)\s+(?:[\w-]+\s+){0,3}?for"
    r"\s+(?:a|an)|\bbought\s+(?:a|an|some)|\bgot\s+(?:a|an)\s+new)\s+(?:[\w-]+\s+){0,2}?(?!trainers|shoes)"
    + _GEAR
    + r"|\b(?:don"
    + _A
    + r"?t|do\s+not|doesn"
    + _A
    + r"?t)\s+(?:have|own)\s+(?:a|an|any)\s+(?:[\w-]+\s+)?"
    + _GEAR
    + r"|"
    + _GEAR_HOME
    + r"\s+with\s+(?:a|an|my|some)\s+(?:[\w-]+\s+){0,2}?"
    + _GEAR
    + r"|\b(?:a|an|my|some)\s+(?:[\w-]+\s+)?"
    + _GEAR
    + r"\s+"
    + _GEAR_HOME
)
# What the athlete eats, or keeps from eating: "doing intermittent fasting 16:8", "I'll be fasting in daylight for a
# month", "I don't eat meat", "on a plant-based diet" ("I'm vegan" is life_context's, tagged by the vocabulary).
_DIET = (
    r"(?:^|\bi\s+|" + I_AM + r"|\bi" + _A + r"ll\s+be\s+|\bi\s+will\s+be\s+)(?:also\s+|currently\s+|now\s+|still\s+)?"
    r"(?:doing|on|following|eating|fasting\s+for|observing)\s+(?:an?\s+|the\s+)?(?:[\w-]+\s+)?(?:intermittent\s+fasting"
    r"|ramadan|keto|low[-\s]carb\s+diet|plant[-\s]based|vegan|vegetarian|gluten[-\s]free|dairy[-\s]free|diet)\b"
    r"|\bi(?:" + _A + r"ll\s+be|\s+will\s+be|" + _A + r"m|\s+am)\s+fasting\b(?!\s+(?:for\s+(?:a|the|my|this)\s+"
    r"(?:blood|test|scan)))"
    r"|\bi\s+(?:don" + _A + r"?t|do\s+not|never)\s+eat\s+(?:meat|fish|dairy|gluten|breakfast|animal\s+products|carbs)\b"
)
# round 5, what the athlete eats in the words of outside writers 3, 4 and 5: "I'm pescatarian not vegetarian", "just
# vegetarian", "lactose intolerant", "plant based now", "about 3500 calories, doing a slow bulk", "cutting for the meet,
# 2200 kcal".
_DIET_MORE = (
    r"(?:" + I_AM + r"|\b(?:just|now|mostly|strictly|fully)\s+)(?:(?:a|now|also|mostly|fully|strictly)\s+)?"
    r"(?:pescatarian|pescetarian|vegetarian|vegan|veggie|lactose[-\s]intolerant|plant[-\s]based)\b"
    r"|^(?:now\s+|mostly\s+)?(?:plant[-\s]based|pescatarian|lactose[-\s]intolerant)\b|\blactose[-\s]intolerant\b"
    r"|\b(?:eat|eating|on|cutting\s+to)\s+(?:about\s+|around\s+|roughly\s+)?[1-4][,.]?\d{3}\s*(?:kcal|calories|cals)\b"
    r"|\b(?:doing\s+a|on\s+a)\s+(?:slow\s+|lean\s+)?bulk\b|\bbulking\b|\b(?:slow|lean)\s+bulk\b"
    r"|" + I_AM + r"cutting\b"
)
_LIFE_KINDS = (
    (re.compile(_SCHEDULE, re.IGNORECASE), "context:schedule"),
    (re.compile(_EQUIPMENT, re.IGNORECASE), "context:equipment"),
    (re.compile(_DIET + "|" + _DIET_MORE, re.IGNORECASE), "context:diet"),
)


@dataclass(frozen=True)
class Rule:
    name: str
    type: MemoryType
    confidence: MemoryConfidence
    pattern: re.Pattern[str]
    needs_run_object: bool = False
    tags: tuple[str, ...] = ()
    lower_pattern: re.Pattern[str] | None = None  # the same pattern for lower-cased text, without IGNORECASE
    start_pattern: re.Pattern[str] | None = None  # its alternatives anchored at the start, apart (prefilter)
    kinds: tuple[tuple[re.Pattern[str], str], ...] = ()  # parts of the pattern, each with the tag it gives
    not_after: re.Pattern[str] | None = None  # a match does not hold after this in its clause (lower case)


def _rule(
    name: str,
    type_: MemoryType,
    confidence: MemoryConfidence,
    pattern: str,
    *,
    needs_run_object: bool = False,
    tags: tuple[str, ...] = (),
    kinds: tuple[tuple[re.Pattern[str], str], ...] = (),
    not_after: str | None = None,
) -> Rule:
    compiled = re.compile(pattern, re.IGNORECASE)
    anywhere, start = split_anchored(pattern)
    after = re.compile(not_after) if not_after is not None else None
    return Rule(name, type_, confidence, compiled, needs_run_object, tags, anywhere, start, kinds, after)


def group_rule(rules: list[Rule]) -> Rule:
    """One rule whose pattern is the union of `rules`' patterns, in their order (domain.extraction.facts)."""
    first = rules[0]
    anywhere, start = split_anchored("|".join(r.pattern.pattern for r in rules))
    # searched through its split patterns only (facts._GROUPS): the whole union is not compiled a third time
    return Rule(
        "+".join(r.name for r in rules),
        first.type,
        first.confidence,
        anywhere,
        first.needs_run_object,
        (),
        anywhere,
        start,
    )


RULES: tuple[Rule, ...] = (
    # preferences
    _rule(
        # round 5, a request about the plan or a comparison of fun: "Please don't give me double days", "Don't program
        # burpees please", "please don't plan early mornings", "classic is more fun for me than skating" (outside
        # writers 1, 2 and 3; not "don't put me down for Tuesdays", a schedule)
        "plan_request",
        PREFERENCE,
        MEDIUM,
        r"\b(?:don" + _A + r"?t|do\s+not)\s+(?:give|program|programme|schedule|plan)\b"
        r"|\bmore\s+fun\s+(?:for\s+me\s+)?than\b",
    ),
    _rule(
        "explicit_prefer",
        PREFERENCE,
        HIGH,
        r"\bi(?:" + _A + r"?d|\s+would)?\s+" + _ADV + r"{0,2}(?:prefer|rather)\b(?=\s*\w)"
        r"|\bi\s+am\s+" + _ADV + r"{0,2}prefer\b(?=\s*\w)"  # "I am prefer" (not "I am rather slow")
        r"|\bmy\s+preference\s+is\b",
    ),
    _rule(
        "time_preference",
        PREFERENCE,
        MEDIUM,
        r"\b" + _TIME + r"(?:\s+\w+){0,3}?\s+(?:works?\s+(?:best|better)|(?:is|are)\s+(?:always\s+|just\s+|definitely"
        r"\s+|much\s+)?(?:best|better|ideal|my\s+favou?rite)|suits?\s+me|(?:is|are)\s+(?:always\s+|just\s+|really\s+)?"
        r"(?:rough|hard|tough|a\s+struggle|a\s+nightmare|impossible|the\s+worst|awful|horrible|torture)\s+for\s+me)\b"
        # "I'm at my best in the afternoon"
        r"|" + I_AM + r"(?:at\s+my\s+best|(?:much\s+|way\s+|far\s+)?better|strongest|fastest|freshest|sharpest"
        r"|happiest)\s+(?:in\s+the\s+|at\s+|on\s+"
        r"|during\s+)?" + _TIME + r"\b",
    ),
    _rule(
        "time_person",
        PREFERENCE,
        MEDIUM,
        r"(?:" + I_AM + r"|\b(?:(?:he|she)(?:" + _A + r"s|\s+is)|they(?:" + _A + r"re|\s+are))\s+)"
        r"(?:\w+\s+){0,2}?(?:an?|more\s+of\s+an?)\s+(?:morning|evening|night|early|lunchtime|after[-\s]work)\s+"
        r"(?:type\s+of\s+|kind\s+of\s+)?"
        r"(?:person|runner|bird|riser|trainer|gal|lady|woman|man|kind|swimmer|rider|cyclist|type|girl|guy)\b"
        # "I've never been a morning runner"
        r"|\bi(?:" + _A + r"ve|\s+have)\s+never\s+been\s+(?:a|an)\s+(?:morning|evening|night|early|lunchtime)\s+"
        r"(?:person|runner|type|riser|trainer)\b"
        r"|\b(?:early\s+bird|night\s+owl)\b"
        # without "I am": "Not a morning person!!"
        r"|(?:^|\bnot\s+)(?:really\s+|much\s+of\s+)?(?:an?\s+|more\s+of\s+an?\s+)?(?:morning|evening|night|early"
        r"|lunchtime)\s+"
        r"(?:person|runner|bird|riser|trainer|type)\b",
    ),
    _rule(
        "time_habit",
        PREFERENCE,
        MEDIUM,
        r"\bi\s+(?:(?:run|train)(?=\s+(?:in\s+the\s+|at\s+|on\s+|during\s+)?"
        + _TIME
        + r"\b)|"
        + _ADV
        + r"{1,3}(?:run|train|go\s+out|head\s+out|get\s+out|do\s+my\s+(?:\w+\s+)?(?:runs?|rides?|swims?|sessions?"
        r"|intervals|workouts?))"
        r"|(?:run|train|race"
        r"|feel|do)\s+(?:much\s+|way\s+|far\s+)?(?:best|better))\b(?:\s+\w+){0,4}?\s+(?:in\s+the\s+|at\s+"
        r"|on\s+my\s+|during\s+)?" + _TIME + r"\b",
    ),
    _rule(
        # the same habit in a clause without "I": "mostly run before 7am", "usually train at lunch"
        "bare_time_habit",
        PREFERENCE,
        MEDIUM,
        r"^" + _ADV + r"{1,3}(?:run|train|ride|swim|go\s+out|head\s+out|get\s+out|do\s+my\s+runs?)\b(?:\s+\w+){0,4}?\s+"
        r"(?:in\s+the\s+|at\s+|on\s+my\s+|during\s+)?" + _TIME + r"\b",
    ),
    _rule(
        "positive_preference",
        PREFERENCE,
        MEDIUM,
        r"\bi\s+" + _ADV + r"{0,2}(?:like|love|enjoy|adore)\s+(?!it\b|this\b|that\b|you\b|them\b)"
        r"|\b(?:is|are)\s+my\s+(?:absolute\s+)?favou?rite\b|" + I_AM + r"an?\s+(?:big\s+|huge\s+)?fan\s+of\b"
        r"|"
        + I_AM
        + r"(?:such\s+|a\s+(?:real\s+|total\s+|big\s+|huge\s+)?)?(?:a\s+)?sucker\s+for\b|\bi\s+"
        + _ADV
        + r"{0,2}"
        r"find\s+(?:[\w-]+\s+){1,3}?(?:fun|enjoyable|relaxing|addictive|satisfying|motivating|rewarding|therapeutic"
        r"|calming|energi[sz]ing)\b|" + I_AM + r"(?:\w+\s+)?(?:enjoying|loving)\b|\bi\s+could\s+(?:happily|easily)\s+"
        r"(?:do|run|ride|swim|climb|row)\b|"
        + I_AM
        + r"(?:a\s+)?(?:big\s+|huge\s+|firm\s+|great\s+)?believer\s+in\b(?!\s+(?:you|your)\b)"
        r"|\bi\s+(?:really\s+|honestly\s+)?(?:don"
        + _A
        + r"?t|do\s+not)\s+mind\b(?!\s+(?:if|when|whether|that|it|you|we|what|which|either)\b)|"
        + I_AM
        + r"(?:more\s+of\s+|really\s+|definitely\s+)?an?\s+(?:road|trail|track|mountain|hill|fell|off[-\s]road"
        r"|social|solo)\s+(?:runner|person|girl|guy)\b",
        needs_run_object=True,
    ),
    _rule(
        "negative_preference",
        PREFERENCE,
        MEDIUM,
        # "open water swimming scares me", "cycling in traffic stresses me out"
        r"\b(?:terrif(?:y|ies)|scares?|frightens?|intimidates?|stress(?:es)?)\s+me\b|\bi\s+"
        + _ADV
        + r"{0,2}(?:hate|dislike|loathe|detest|can"
        + _A
        + r"?t\s+stand|cannot\s+stand|do(?:n"
        + _A
        + r"?t|\s+not)\s+(?:really\s+)?(?:like|enjoy|love))\b|\bnot\s+(?:a\s+)?(?:big\s+|huge\s+)?fan\s+of\b"
        r"|\b(?:bores?\s+me|(?:is|are)\s+(?:so\s+|really\s+)?(?:boring|the\s+worst|soul[-\s]destroying))\b"
        r"|\bi\s+(?:not|no)\s+(?:like|enjoy|love)\b|\b(?:is|are)\s+(?:easily\s+)?my\s+least\s+favou?rite\b"
        r"|\bnot\s+(?:really\s+|very\s+|too\s+|that\s+|overly\s+|super\s+|massively\s+)?(?:keen\s+on|into)\b"
        r"|\b(?:get|gets|getting|got|grow|am|" + _A + r"m)\s+(?:so\s+|really\s+|easily\s+)?bored"
        r"\s+(?:of|with|by|doing)\b"
        r"|\bi\s+" + _ADV + r"{0,2}find\s+(?:[\w-]+\s+){1,3}?(?:boring|dull|tedious|a\s+slog|a\s+drag|a\s+chore"
        r"|soul[-\s]destroying|miserable)\b",
        needs_run_object=True,
    ),
    _rule(
        "wished_preference",
        PREFERENCE,
        MEDIUM,
        r"\bwish\s+(?:i|we)\s+(?:could|had\s+time\s+to|did)\b|\bi(?:" + _A + r"?d|\s+would)\s+"
        r"(?:really\s+|absolutely\s+|honestly\s+)?(?:love|like)\s+(?:to\s+(?:do|have|get)\s+)?more\b"
        r"|\bover\b(?:\s+[\w-]+){1,4}?\s+any\s+day\b|\bi(?:" + _A + r"?d|\s+would)\s+(?:always\s+|usually\s+)?(?:choose"
        r"|pick|take|go\s+for)\b(?:\s+[\w-]+){1,4}?\s+over\b(?!\s+(?:that|this|it|them)\b)"
        r"|\b(?:is|are)\s+a\s+(?:hard\s+|big\s+|definite\s+)?no\s*$|\bi(?:" + _A + r"?d|\s+would)\s+" + _ADV + r"{0,2}"
        r"(?:like|enjoy|love|do|run|swim|ride|train|race|climb)\s+(?!to\s+(?:ask|know|check|talk"
        r"|say)\b)(?:\w+\s+){1,6}?"
        r"(?:more|better)?\s*(?:if|when"
        r"|but)\b|\bgive\s+me\s+(?:an?\s+|the\s+)?\w+(?:\s+\w+)?\s+over\b|\bnothing\s+beats\b|\bmy\s+idea\s+of"
        r"\s+(?:hell|heaven|fun)\b|\b(?:is|are)\s+(?:what|the\s+thing)\s+(?:that\s+)?keeps?\s+me\s+going\b"
        r"|\bmy\s+go[-\s]to\b|\bi\s+(?:can" + _A + r"?t|cannot|won" + _A + r"?t)\s+(?:run|train|go\s+out)\s+without\b"
        r"|\bi\s+always\s+(?:take|bring|wear|listen\s+to|run\s+with)\b|\b(?:not|(?:is|are|was|were"
        r"|ai)n" + _A + r"?t)\s+(?:really\s+)?(?:my\s+(?:thing|cup\s+of\s+tea|scene|bag)|for\s+me)\b"
        # "I'd choose the trails every time", "can't beat an early run", "group runs keep me going",
        # "I struggle to get motivated for evening runs"
        r"|\bi(?:"
        + _A
        + r"d|\s+would)\s+(?:always\s+)?(?:choose|pick|take|go\s+for)\b(?:\s+[\w-]+){1,4}?\s+(?:every\s+time"
        r"|any\s+day|all\s+day)\b"
        r"|\bcan(?:" + _A + r"?t|not)\s+beat\b|\bkeeps?\s+me\s+(?:going|motivated|sane|consistent)\b"
        r"|\bi\s+" + _ADV + r"{0,2}struggle\s+to\s+(?:get\s+)?(?:motivated|motivate\s+myself|get\s+out|get\s+going)\s+"
        r"(?:for|in|on|with|at)\b"
        r"|\bi\s+" + _ADV + r"{0,2}(?:dread|avoid|look\s+forward\s+to|live\s+for|prefer)\b|\b(?:much\s+|way\s+|far\s+"
        r"|so\s+much\s+)?happier\s+(?:on|in|with|running|doing|when|at)\b"
        r"|\bhappiest\s+(?:on|in|with|running|doing|when|at|riding|swimming)\b"
        r"|" + I_AM + r"(?:really\s+|so\s+|very\s+|big\s+|super\s+|massively\s+)?into\b"
        r"|\b(?:is|are)\s+(?:just\s+|honestly\s+|absolute\s+|pure\s+)?(?:torture|hell|my\s+nemesis|my\s+kryptonite"
        r"|the\s+best|the\s+worst|a\s+joy|a\s+chore|a\s+slog)\b"
        r"|\bmy\s+(?:absolute\s+|all[-\s]time\s+|least\s+)?favou?rite\s+(?:[\w-]+\s+)?(?:is|are|has\s+to\s+be"
        r"|would\s+be)\b|\b(?:is|are)\s+(?:a\s+)?no[-\s]go\b"
        r"|\bhighlight\s+of\s+my\s+(?:week|day|month)\b|\b(?:is|are|will\s+be)\s+(?:totally\s+"
        r"|really\s+)?my\s+(?:thing|jam|happy\s+place|therapy|escape"
        r"|sanity|meditation|zen|me[-\s]time)\b"
        r"|\b(?:weekends?|mornings?|evenings?|saturdays?|sundays?|weekdays?)\s+(?:is|are)\s+(?:for|reserved\s+for"
        r"|kept\s+for|made\s+for)\b|\b(?:" + _WEEKDAYS + r""
        r"|weekends?)"
        r"\s+(?:is|are)\s+(?:always\s+)?(?:my\s+|the\s+)?(?:long\s+run|long\s+ride|rest|recovery|race|swim|gym"
        r"|hill|interval"
        r"|track|tempo|speed|strength)\s+days?\b|\bi(?:"
        + _A
        + r"d|\s+would)\s+only\s+(?:ever\s+)?(?:run|train|ride|swim"
        r"|race)\b"
        r"|\bwhere\s+i(?:"
        + _A
        + r"m|\s+am)\s+(?:happiest|most\s+at\s+home|at\s+my\s+best)\b|\bsuits?\s+(?:me|my\s+\w+)\b"
        r"|\b(?:is|are)\s+(?:non[-\s]negotiable|a\s+must)\b|\b(?:is|are)\s+what\s+i\s+(?:\w+\s+)?(?:enjoy|love|like)\b"
        r"|\bwhat\s+i\s+(?:really\s+|honestly\s+)?(?:enjoy|love|like|hate|dread)\s+(?:most|best|least)\s+(?:is|are)\b"
        r"|" + I_AM + r"(?:a\s+bit\s+|totally\s+|completely\s+|slightly\s+|so\s+)?(?:obsessed\s+with|addicted\s+to"
        r"|hooked\s+on|in\s+love\s+with|mad\s+about|crazy\s+about)\b"
        r"|" + I_AM + r"(?:much\s+|definitely\s+|far\s+)?more\s+of\s+an?\s+[\w-]+(?:\s+[\w-]+)?\s+than\b"
        r"|(?:\bi(?:" + _A + r"?d|\s+would)|^would)\s+(?:really\s+)?(?:like|love|prefer)\s+(?:my|to\s+keep|to\s+have)\b"
        r"|\bmy\s+(?:preferred|favou?rite|ideal)\s+(?:time|slot|window|day|session|workout|run|ride|swim)\b|\bcan"
        + _A
        + r"?t\s+be\s+doing\s+with\b"
        r"|\bmakes?\s+(?:the\s+)?"
        r"(?:\w+\s+){0,2}?(?:miles?|runs?|kms?)\s+(?:fly|go)\b|\b(?:more|less)\s+(?:motivated|consistent"
        r"|productive|relaxed|focused)\b|\b(?:much|way|far|so"
        r"\s+much)\s+(?:more|less)\s+(?:fun|enjoyable)\b"
        # a kind of session weighed for the athlete: "short bike sessions are much better for me", "Shorter more
        # frequent sessions work better for me than a few long ones", "the morning training is not good for me"
        r"|\b(?:is|are|"
        + _A
        + r"s|feels?|works?)\s+(?:much\s+|loads\s+|way\s+|far\s+|so\s+much\s+|a\s+lot\s+|just\s+)?"
        r"(?:better|best|more\s+fun|perfect|ideal|plenty|not\s+good|no\s+good)\s+for\s+me\b"
        r"|\bfor\s+me\s+(?:it\s+)?(?:is|" + _A + r"s)\s+(?:much\s+|way\s+)?(?:better|best|easier|more\s+fun)\b",
        needs_run_object=True,
    ),
    _rule(
        "bare_preference",
        PREFERENCE,
        MEDIUM,
        # a clause without "I" that opens with a filler: "honestly rather skip than run on the road", "kinda hate ..."
        r"^(?:(?:honestly|tbh|ngl|kinda|kind\s+of|so|and|but|also|just|i\s+guess)\s+){0,2}"
        r"(?:(?:always|never|only)\s+(?:run|train)(?=\s+(?:alone|solo|with|on\s+my\s+own|in\s+the|at)\b)"
        r"|(?:really|so|totally|super|massively|very\s+much)\s+into"
        r"|(?:big|huge|massive)\s+fan\s+of|not\s+a\s+(?:big\s+)?fan\s+of|(?:(?:really|much|honestly|genuinely)\s+)?"
        r"(?:would\s+|" + _A + r"d\s+)?(?:much\s+)?rather\s+(?:do|run|go|have|be|take|train|race|stick|skip|swim|ride"
        r"|cycle|walk|stay|use|get|just)"
        r"|(?:would|" + _A + r"?d)\s+(?:much\s+|really\s+)?prefer"
        r"|(?:don" + _A + r"?t|do\s+not)\s+(?:really\s+)?(?:like|love|enjoy)"
        r"|(?:absolutely\s+|really\s+|much\s+|honestly\s+|tbh\s+|genuinely\s+|way\s+|far\s+|definitely\s+"
        r"|defo\s+)?(?:love"
        r"|hate|loathe|adore|prefer|enjoy|enjoying|loving|dread|dislike|detest|can"
        + _A
        + r"?t\s+stand))\s+(?!it\b|this\b|that\b|you\b)",
        needs_run_object=True,
    ),
    _rule(
        # a request about where sessions go in the plan: "Please no early starts", "No speedwork on Mondays please",
        # "Please avoid Fridays for anything hard", "keep the long run on Sundays", "put the hard sessions midweek"
        # (a one-off request, "this week", "until the physio says so", or moving one session, is not a preference)
        "request_preference",
        PREFERENCE,
        MEDIUM,
        r"^(?:(?:so|and|but|also|pls|please|coach|ideally)\W+){0,2}(?:keep|put|schedule|give\s+me)\b(?:\s+[\w'’-]+){1,6}?"
        r"\s+(?:on|to|for|in|off|at|before|after|midweek|every|each|early|late)\b"
        r"|^(?![^.]*\b(?:until|till|for\s+now)\b)(?:(?:so|and|but|also|pls|please|coach|ideally)\W+){0,2}(?:no|avoid"
        r"|never|not|don" + _A + r"?t\s+(?:give|put"
        r"|schedule|make)(?:\s+me)?|do\s+not\s+(?:give|put|schedule))\s+(?:more\s+)?(?:[\w-]+\s+){0,2}?(?:speed\s*work"
        r"|intervals|tempos?|hills?|hill\s+reps|long\s+runs?|track|races?|racing"
        r"|double\s+days|doubles|early\s+starts?|mornings?|evenings?|hard\s+\w+|anything\s+hard|treadmill|weekends?"
        r"|" + _WEEKDAYS + r")\b",
        needs_run_object=True,
    ),
    _rule(
        # a liking whose object was named before it (domain.extraction.extractor reads the object from the sentence, or
        # the sentence before)
        "pronoun_preference",
        PREFERENCE,
        MEDIUM,
        PRONOUN_LIKE,
    ),
    _rule(
        # one thing put above another: "pool > open water for me"
        "compared_preference",
        PREFERENCE,
        MEDIUM,
        r"^(?:[\w-]+\s+){0,3}?[\w-]+\s*>\s*[\w-]",
        needs_run_object=True,
    ),
    _rule(
        "time_slot",
        PREFERENCE,
        MEDIUM,
        r"\b" + _TIME + r"(?:\s+\w+){0,3}?\s+(?:(?:is|are)\s+(?:really\s+|honestly\s+|pretty\s+much\s+|basically\s+)?"
        r"(?:the\s+only|my\s+only|when\s+i|my\s+(?:best|usual|preferred|favou?rite|sweet)|the\s+best|the\s+sweet\s+spot"
        r"|(?:the\s+)?ideal|non[-\s]negotiable|sacred|perfect|my\s+time)"
        r"|suits?\s+me|work(?:s)?\s+(?:best|better|well)\s+(?:for\s+me|with\s+my)|feel(?:s)?\s+(?:best|better|right))\b"
        # a bare request for a time: "evenings pls", "mornings please"
        r"|^(?:only\s+)?"
        + _TIME
        + r"(?:\s+(?:runs?|sessions?))?\s+(?:pls|plz|please|ideally|preferably|if\s+possible)\b"
        # issue 13, outside writers 3 and 4: a time given as the whole answer, "Mornings. Always mornings.", "After
        # work, usually around 6", "Lunchtime, office has showers"
        r"|^(?:(?:always|usually|only|ideally|mostly|definitely|normally)\s+)?(?:the\s+)?(?:mornings|evenings|afternoons"
        r"|lunchtimes?|after\s+work|before\s+work|early\s+mornings|late\s+evenings)(?:\s+(?:always|usually|ideally|mostly"
        r"|only|definitely))?$"
        # "I've only run in the afternoons", "I have always trained before work"
        r"|\bi(?:" + _A + r"ve|\s+have)\s+(?:always|only|mostly|usually)\s+(?:run|ran|trained|ridden|swum)\s+"
        r"(?:in\s+the\s+|at\s+|on\s+|during\s+)?" + _TIME + r"\b"
        r"|\b(?:only|best|usual)\s+(?:slot|window|time|chance)\s+(?:i|that|for\s+me)\b(?=(?:\s+\w+){0,4}?\s+"
        + _TIME
        + r"\b)|\bi\s+"
        + _ADV
        + r"{0,2}(?:only\s+)?(?:have|get|find)\s+time\b(?:\s+\w+){0,3}?\s+(?:in\s+the\s+|at"
        r"\s+|on\s+|before\s+|after\s+)?" + _TIME + r"\b"
        # "For me is better the morning", "only window is evenings", "those are my run nights"
        r"|\bfor\s+me\s+(?:it\s+)?(?:is|"
        + _A
        + r"s)\s+(?:much\s+)?(?:better|best|easier)\b(?=(?:\s+\w+){0,3}?\s+"
        + _TIME
        + r"\b)|\b(?:only|best|usual|main)\s+(?:slot|window|time|chance)\s+(?:that\s+works?\s+(?:for\s+me\s+)?"
        r"|i\s+(?:have|get)\s+)?"
        r"(?:is|are|=)\s+(?:\w+\s+){0,2}?"
        + _TIME
        + r"\b|\b(?:is|are)\s+my\s+(?:run|running|training)\s+(?:nights?|days?|mornings?|evenings?|time)\b"
        # the one time there is for it: "mornings only for training", "train before work only", "my own runs are
        # evenings", "the running has to go in the mornings"
        r"|\b(?:mornings?|evenings?|afternoons?|lunch\w*|before\s+work|after\s+work|nights?)\s+only\b"
        r"(?!\s+(?:this|today|once)\b)"
        r"|\bmy\s+(?:own\s+)?(?:runs|training|sessions|running)\s+(?:are|is|will\s+be|ha(?:s|ve)\s+to\s+be|go(?:es)?)\s+"
        r"(?:in\s+the\s+|at\s+)?" + _TIME + r"\b"
        r"|\b(?:running|training|runs|sessions)\s+(?:ha(?:s|ve)\s+to|must|needs?\s+to)\s+(?:go|be|happen)\s+(?:in\s+the\s+"
        r"|at\s+|before\s+|after\s+)?" + _TIME + r"\b",
    ),
    _rule(
        "third_person_preference",
        PREFERENCE,
        MEDIUM,
        r"\b(?:he|she|they|athlete)\s+"
        + _ADV
        + r"{0,2}(?:prefers?|likes?|loves?|enjoys?|hates?|dislikes?|loathes?|dreads?"
        r"|can" + _A + r"?t\s+stand|(?:does|do)(?:n" + _A + r"?t|\s+not)\s+(?:like|enjoy)"
        r"|(?:would|" + _A + r"d)\s+(?:much\s+|always\s+)?(?:rather|prefer))\b",
        needs_run_object=True,
    ),
    # context
    _rule(
        "job_context",
        CONTEXT,
        HIGH,
        # "I drive a delivery van", "Retired since last year", "I'm retired now"
        r"\bi\s+(?:drive|drove)\s+(?:a|an|the)\s+(?:[\w-]+\s+)?(?:van|truck|lorry|taxi|cab|bus|forklift|train|tram)\b"
        r"|(?:^|" + I_AM + r"(?:now\s+|recently\s+)?)(?:semi[-\s])?retired\b"
        r"|(?:\bi\s+|^)work(?:ing)?\s+(?:as|at|in|for)\s+(?!(?:the\s+)?(?:mornings?|evenings?|afternoons?"
        r"|weekends?|heat|rain|dark"
        r"|cold)\b)\w+|\b(?:my|his|her|their)\s+(?:day\s+)?job(?:"
        + _A
        + r"s\b|\s+(?:is|as|involves|requires|means|has)\b)|"
        + I_AM
        + r"(?:an?\s+)?(?:[\w-]+\s+){0,3}?(?:"
        + _OCCUPATIONS
        + r")s?\b|"
        + I_AM
        + r"(?:a\s+)?(?:full[-\s]time\s+|part[-\s]time\s+)?(?:student|retired|self[-\s]employed|freelancer)\b"
        r"|\bi\s+work\s+(?:offshore|abroad|overseas|away|on\s+(?:the\s+)?rigs)\b"
        r"|\bmy\s+(?:office|work|working|shift)\s+(?:timings?|hours)\s+(?:is|are)\b"
        r"|\bi\s+teach\b|\bfor\s+a\s+living\b|\bbetween\s+jobs\b|\bout\s+of\s+work\b|\bunemployed\b"
        r"|\bon\s+(?:maternity|paternity|parental|sick|gardening)\s+leave\b"
        r"|" + I_AM + r"off\s+work\s+on\s+(?:mon|tue|wed|thu|fri|sat|sun)\w*s\b"
        r"|\bi\s+(?:own|run|manage)\s+(?:a|an|my\s+own|the|our)\s+(?:[\w-]+\s+)?(?:business|company"
        r"|shop|bakery|cafe|café|restaurant|bar|pub|farm|salon|practice|clinic|firm|store|garage|studio)\b"
        r"|" + I_AM + r"(?:\w+\s+)?in\s+the\s+(?:army|navy|air\s+force|raf|military|marines|police|fire\s+service)\b"
        r"|\b(?:i\s+)?(?:start|finish)\s+work\s+(?:at|around|by|before)\b|\b(?:office|desk|day|full[-\s]time"
        r"|part[-\s]time|shift|night|new|physical|manual|stressful|demanding|sedentary"
        r"|active|hard|tough|corporate|remote|hybrid|retail|seasonal"
        r"|busy)\s+job\b|\bmy\s+(?:job|work|boss|shifts?|rota)\s+(?:\w+\s+)?(?:has|have|keeps?|takes?|puts?|means"
        r"|involves?|is|are)\b|\b(?:night|early|late|long|12[-\s]hour|twelve[-\s]hour|rotating|split|24[-\s]hour)"
        r"\s+shifts\b|\bshift\s+(?:pattern|rota|work)\b|\b\d+\s*[-–]\s*\d+\s+shifts?\b|\bwork(?:"
        + _A
        + r"s|\s+is|\s+has\s+been|"
        + _A
        + r"s\s+been)\s+(?:a\s+|so\s+|really\s+|absolutely\s+|pretty\s+)?(?:\d+|long|crazy|busy|mad|mental|insane"
        r"|nuts|bonkers|full[-\s]on|hectic|intense|manic|stressful|brutal|relentless|heavy|chaos|chaotic|slammed"
        r"|flat[-\s]out)\b|\bon\s+(?:the\s+)?(?:ward|night\s+shift|call)\b|\bi\s+work\s+(?:from\s+home|long"
        r"|nights|in\s+an?"
        r"\s+office)\b|\bsat\s+at\s+a\s+desk\b|\bon\s+my\s+feet(?=\s+(?:all\s+day|\d+\s+(?:hours?|hrs)))\b"
        r"|\bon\s+my\s+feet\s+all\s+day\b"
        r"|\b(?:he|she|they)\s+works?\s+(?:as|at|in|for|nights|weekends|shifts|from\s+home|long\s+hours"
        r"|part[-\s]time|full[-\s]time)\b"
        r"|\bworking\s+(?:double|extra|split|long|late|early|night|weekend|back[-\s]to[-\s]back)\s+shifts\b"
        r"|\bas\s+an?\s+(?:[\w-]+\s+)?(?:" + _OCCUPATIONS + r")s?\b"
        r"|\bworking\s+(?:from\s+home|remotely|nights|night\s+shifts|shifts|part[-\s]time|full[-\s]time|two\s+jobs"
        r"|offshore|abroad|overseas|on\s+the\s+rigs)\b|\b(?:job|shifts?|career|living)\s+as\s+(?:an?\s+)?\w+"
        r"|" + I_AM + r"working\s+(?:in|at|for|as)\s+(?!(?:the\s+)?(?:mornings?|evenings?|weekends?|moment)\b)\w+"
        r"|\bback\s+to\s+work\b(?:\s+\w+){0,3}?\s+after\s+(?:mat|maternity|pat|paternity|parental)\s+leave\b"
        r"|\b(?:\d|two|three|four|five)\s+on[,\s]+(?:\d|two|three|four|five)\s+off\b"
        # a work pattern: "FIFO", "a 2 days 2 nights 4 off rota", "two weeks on the rigs and two weeks home", "the day
        # after a night shift", "around my shifts" (one shift, "before my shift", is often only a time of day)
        r"|\bfifo\b|\b(?:watch|work|shift|duty)\s+(?:pattern|rota|roster)\b|\b(?:\d+|one|two|three|four|five|six)\s+off\s+(?:rota|roster)\b"
        r"|\b(?:\d+|one|two|three|four)\s+(?:weeks?|days?|nights?)\s+on\b(?:\s+[\w-]+){0,5}?\s+(?:\d+|one|two|three"
        r"|four)\s+(?:(?:weeks?|days?)\s+)?(?:off|home|hame)\b"
        r"|\b(?:my|a|each|every|the)\s+night\s+shift\b|\b(?:my|the|our)\s+(?:[\w-]+\s+)?shifts\b"
        # hours a job takes, a job lost, changed or left: "lab hours", "my 60-hour job", "made redundant",
        # "freelancing from home", "working four days a week", "leaving the Navy"
        r"|\b(?:work|working|lab)\s+hours\b|\b\d+[-\s]hour\s+(?:job|working\s+weeks?)\b|\bmade\s+redundant\b"
        r"|\bfreelanc\w+|\bworking\s+(?:four|three|\d)\s+days\s+a\s+week\b"
        r"|\bleaving\s+the\s+(?:army|navy|raf|air\s+force|police|military|forces|marines)\b"
        # coaching or serving as the job: "I coach junior badminton", "I work the gym floor", "I work down the mine"
        r"|\bi\s+coach\b(?!\s+(?:my|myself|our)\b)(?:\s+[\w'’-]+){0,4}?\s+(?:at|for|a\s+week|every|each|twice"
        r"|afternoons|evenings|mornings|weekends)\b|\bi\s+work\s+(?:the\s+(?:gym\s+floor|shop\s+floor|floor|door|bar|till"
        r"|desk|counter|line)|down\s+(?:the|a)\s+(?:mine|pit))\b"
        # a bare occupation as a whole clause: "Teacher, two kids, ...", "ICU nurse on nights"
        r"|^(?:as\s+)?(?:an?\s+)?(?:(?!(?:the|my|his|her|their|our|your)\b)[\w-]+\s+)?(?:" + _OCCUPATIONS + r"|carer"
        r"|software\s+dev|dev)s?(?:\s+on\s+(?:nights|shifts"
        r"|days|earlies|lates|call|the\s+wards?|rotation)\b|\s+by\s+(?:trade|profession)\b|(?:\s+(?:fyi|btw|here"
        r"|lol))?$)",
        tags=("context:work",),
    ),
    _rule(
        "work_schedule",
        CONTEXT,
        HIGH,
        r"(?:\bi\s+(?:work|do)|\bwe\s+(?:both\s+|all\s+)?work)\s+(?:[\w-]+\s+){0,2}?(?:shifts?|nights"
        r"|long\s+hours|weekends|from\s+home|remotely"
        r"|full[-\s]time|part[-\s]time|nine\s+to\s+five|9[-\s]to[-\s]5|overtime)\b|"
        + I_AM
        + r"on\s+(?:\w+\s+)?(?:shifts?|nights|call)\b|\b(?:on\s+)?(?:"
        + _WEEKDAY
        + r"|weekends?)\s+i\s+(?:work|have\s+work"
        r"|am\s+working|" + _A + r"m\s+working)\b",
        tags=("context:work",),
    ),
    _rule(
        "family_context",
        CONTEXT,
        LOW,
        r"(?:\b(?:i|we|they)(?:\s+have|"
        + _A
        + r"ve)|\b(?:he|she)(?:\s+has|"
        + _A
        + r"s\s+got))(?:\s+got)?\s+(?:\w+\s+){0,2}?"
        + _COUNT
        + r"?\s*(?:young\s+|little\s+|small\s+)?"
        + _FAMILY_NOUN
        + r"\b"
        r"|\b(?:mum|mom|mother|dad|father|parent)\s+(?:of|to)\s+(?:\d+|one|two|three|four|five|twins)\b|"
        + I_AM
        + r"an?\s+(?:single\s+|new\s+|working\s+|busy\s+|first[-\s]time\s+|stay[-\s]at[-\s]home\s+|full[-\s]time\s+)?"
        r"(?:mum|mom|dad|parent|father"
        r"|mother)\b|\bwe\s+(?:just\s+)?had\s+a\s+baby\b|\bschool\s+runs?\b"
        r"|\b(?:\d|two|three|four|five)\s+(?:kids\s+|children\s+)?under\s+(?:\d+|two|three|four|five|six|seven|eight"
        r"|ten)\b|\b(?:alone|on\s+my\s+own|solo)\s+with\s+(?:the|my|our)\s+(?:kids|children|baby|twins|toddler)\b"
        r"|(?:\bi\s+"
        + _ADV
        + r"{0,2}|^)(?:look\s+after|care\s+for|take\s+care\s+of|am\s+caring\s+for|have\s+custody\s+of"
        r"|caring\s+for|looking\s+after|(?:a|the)\s+carer\s+for)"
        r"\s+(?:my\s+)?(?:\w+\s+)?(?:mum|mom|mother|dad|father|parents?|kids?|children|son|daughter|grandkids|wife"
        r"|husband|partner|nan|gran)\b|" + I_AM + r"(?:(?:his|her|their|my\s+\w+" + _A + r"s)\s+(?:main\s+|primary\s+"
        r"|full[-\s]time\s+|only\s+)?carer\b|(?:an?|the)\s+(?:main\s+|primary\s+"
        r"|full[-\s]time\s+)?carer\s+for\b)|\bsingle\s+(?:mum|mom|dad|parent)\b|\b(?:mum|mom|dad)\s+of\s+(?:\d+|one|two"
        r"|three|four|twins)\b|\bour\s+(?:youngest|eldest|oldest|little\s+ones?|newborn|baby|toddler|twins)\b"
        r"|\bschool\s+(?:drop[-\s]?offs?|pick[-\s]?ups?)\b|\bwith\s+(?:\d|two|three|four|five|six|a|an)\s+(?:young\s+"
        r"|little\s+|small\s+|\d+[-\s](?:week|month|year)[-\s]old\s+)?(?:kids|children|boys|girls|sons|daughters"
        r"|toddlers?"
        r"|newborn|baby|twins)\b|\bsolo\s+parent\w*|\bonly\s+parent\b|\b(?:twins|kids|children|baby|toddler"
        r"|little\s+ones?)\s+(?:start|starts|started|go|goes|are\s+starting|is\s+starting)\s+(?:at\s+)?(?:nursery"
        r"|school|preschool|reception|childcare)\b|^(?:and\s+)?(?:\d+|two|three|four|five|six)\s+(?:young\s+"
        r"|little\s+|small\s+|teenage\s+|teen\s+|grown[-\s]up\s+|older\s+|school[-\s]age\s+)?(?:kids|children"
        r"|boys|girls|sons|daughters)(?:\s+(?:under\s+\w+|at\s+home))?$"
        r"|^(?:kids|children)\s*:\s*(?:\d+|one|two|three|four|five|six)\b",
        tags=("context:family",),
    ),
    _rule(
        "other_sport",
        CONTEXT,
        LOW,
        r"\bi\s+" + _ADV + r"{0,2}(?:do|train|practi[cs]e|play|go\s+to|go)\s+(?:some\s+|a\s+bit\s+of\s+|a\s+lot\s+of\s+"
        r"|lots\s+of\s+|loads\s+of\s+|plenty\s+of\s+)?(?:"
        + _SPORTS
        + r")\b|(?<!when\s)(?<!time\s)(?<!if\s)(?<!after\s)(?<!before\s)(?<!until\s)\bi\s+"
        + _ADV
        + r"{0,2}(?:climb|boulder|cycle|bike|swim|row|lift|ski|surf|sail|kayak|paddle(?:board)?|hike|skate|dance|box"
        r"|golf)\b"
        r"(?!\s+(?:today|yesterday|this|last|instead)\b)|" + I_AM + r"(?:also\s+)?an?\s+(?:keen\s+|big\s+"
        r"|regular\s+)?(?:climber|cyclist|swimmer|triathlete|rower|boulderer|yogi)\b|"
        + I_AM
        + r"(?:\w+\s+)?(?:part\s+of|a\s+member\s+of|in)\s+(?:a|an|the|our|my)\s+(?:[\w-]+\s+){0,2}?"
        r"(?:club|team|squad)\b"
        r"|\b(?:i|we)\s+" + _ADV + r"{0,2}"
        r"(?:swim|cycle|ride|climb|boulder|lift|row|go\s+for\s+a\s+(?:swim|ride|spin|climb|row|paddle)"
        r"|play\s+\w+|do\s+(?:\w+\s+){0,2}?(?:yoga|pilates|crossfit|weights"
        r"|strength|spin|gym|s&c|parkrun))\b(?:\s+[\w-]+){0,5}?\s+(?:twice|once|three\s+times|\d+\s*(?:x|times)|every"
        r"|each|a\s+week|per\s+week|weekly|most\s+days|(?:on\s+)?"
        + _WEEKDAY
        + r")\b|(?:^|\b(?:i|we)\s+)"
        + _ADV
        + r"{0,2}(?:do|swim|ride)\s+(?:\w+\s+){0,2}?"
        r"(?:masters|swim|swimming|spin|turbo|bike)\b(?:\s+[\w-]+){0,3}?\s+(?:twice|once|three\s+times"
        r"|\d+\s*(?:x|times)"
        r"|every|each|weekly)\b|\b(?:club|squad|masters|group)\s+(?:swims?|rides?|spin)\s+(?:on\s+)?(?:"
        + _WEEKDAY
        + r"|every|twice|once|\d)|\b(?:the\s+)?(?:swim|swimming|bike|biking|cycling|run|running)\s+(?:is|has\s+always"
        r"\s+been)\s+(?:my|his|her|their)\s+(?:\w+\s+)?(?:limiter|weakness|weak\s+(?:point|spot|link|leg)"
        r"|strong\s+(?:point|suit|leg)|best\s+(?:discipline|leg)|worst\s+(?:discipline|leg))\b|\b(?:swam|cycled|rowed"
        r"|raced|competed|played\s+\w+)\s+(?:competitively|at\s+(?:county|national|international|regional|club"
        r"|university"
        r"|uni|college|elite|a\s+high)\s+level)\b|\b(?:bouldering|climbing|swimming|cycling|yoga|pilates|crossfit"
        r"|spin|lifting|weights|strength(?:\s+work)?|gym|rowing|erg|s&c)\s+(?:\w+\s+){0,2}?(?:twice|once|three\s+times"
        r"|\d+\s*(?:x|times)|(?:\d|two|three|four|five|six|seven)\s+(?:days?|times|sessions?)|every|on)\s+(?:a\s+"
        r"|per\s+)?(?:week|weekly|" + _WEEKDAYS + r""
        r"|day|morning|evening)\b|\b(?:training\s+for|doing|racing|signed\s+up\s+for|entered)\s+(?:an?\s+"
        r"|my\s+first\s+)?"
        r"(?:ironman|triathlon|70\.3|half\s+ironman|sprint\s+tri|olympic\s+tri)|\b(?:swim|bike|tri|triathlon|cycling"
        r"|climbing|spin|yoga|pilates|masters|rowing|crossfit)\s+(?:squad|club|class|group|team"
        r"|sessions?)\s+(?:on|every"
        r"|twice|once|\w+\s+times|mon\w*|tue\w*|wed\w*|thu\w*|fri\w*|sat\w*|sun\w*|\d)\b"
        r"|^(?:" + _SPORTS + r")\s+(?:on|every|each)\s+(?:" + _WEEKDAY + r"|weekends?)\b"
        r"|\b(?:\d|two|three|four|five)\s+(?:gym|strength|weights|s&c|swim|pool|yoga|pilates|climbing|bouldering|spin|rowing"
        r"|erg)\s+sessions?\b"
        # the athlete's other sport as who they are or were: "Long-time cyclist, new to running", "Climber here",
        # "Been a track cyclist for 10 yrs", "I used to row at university"
        r"|^(?:(?:a|an)\s+)?(?:long[-\s]?time|lifelong|life[-\s]long|former|ex[-\s]?|track|road|keen|mostly\s+an?"
        r"|mainly\s+an?|competitive|masters)\s+(?:cyclist|climber|rower|swimmer|triathlete|boulderer)\b"
        r"|^(?:cyclist|climber|rower|swimmer|triathlete|boulderer)\s+(?:here|first|by\s+trade)\b"
        r"|^(?:i" + _A + r"ve\s+|i\s+have\s+)?been\s+(?:a|an)\s+(?:[\w-]+\s+)?(?:cyclist|climber|rower|swimmer"
        r"|triathlete|boulderer)\s+for\b"
        r"|\bi\s+used\s+to\s+(?:row|swim|cycle|climb|race\s+bikes|play\s+(?:football|rugby|hockey|tennis|netball"
        r"|basketball|squash|soccer))\b"
        # a team sport the athlete plays for a team or every week: "play hockey for uni 1sts", "She plays netball for
        # the county", "Netball twice a week plus running" (not one match: "played hockey today")
        r"|(?:^|\b(?:i|we|he|she|they)\s+(?:also\s+|still\s+|mainly\s+|mostly\s+)?)plays?\s+(?:(?:a\s+bit\s+of|some"
        r"|competitive|club|county|uni|school|league|walking)\s+)?(?:"
        + _TEAM_SPORTS
        + r")\b(?:\s+(?:and|or)\s+\w+)?\s+(?:for\s+(?:the\s+|my\s+|a\s+|her\s+"
        r"|his\s+)?(?:county|club|uni|university|school|college|team|\w+\s+team)|twice|once|three\s+times|\d+\s*x|every"
        r"|each|(?:on\s+)?"
        + _WEEKDAYS
        + r")\b|^(?:"
        + _TEAM_SPORTS
        + r")\s+(?:twice|once|three\s+times|\d+\s*x|every|on\s+"
        + _WEEKDAYS
        + r")\b",
    ),
    _rule(
        # the athlete's own team sport, told by the team, the position or the season rather than "I play ... twice a
        # week": "centre back for a sunday league side", "netball GA for the county second team", "I'm a prop",
        # "rec league basketball wednesdays", "gaelic football in summer", "Squash is my main thing", "used to play
        # semi-pro football"
        "team_sport_context",
        CONTEXT,
        LOW,
        r"\bplay(?:s|ing|ed)?\s+(?:[\w-]+\s+){0,4}?for\s+(?:a|an|the|my|our|his|her)\s+(?:[\w'’-]+\s+){0,3}?"
        r"(?:side|team|club|xv|xi|squad|firsts|seconds|1sts|2nds|thirds)\b"
        r"|(?:" + I_AM + r"(?:a|the)\s+|\bi\s+play\s+|\bplaying\s+|^)(?:centre[-\s](?:back|half|forward)|full[-\s]back"
        r"|fly[-\s]half|scrum[-\s]half|prop|hooker|winger|striker|goalkeeper|goalie|gk|midfielder|point\s+guard"
        r"|wing\s+attack|goal\s+attack|goal\s+shooter|goal\s+defence|wing\s+defence)\b"
        # the sport with what makes it the athlete's regular one: a league, a team, training, days of every week
        r"|(?<!kids" + _A + r"\s)(?<!son" + _A + r"s\s)(?<!daughter" + _A + r"s\s)\b(?:" + _TEAM_WORDS + r")\b"
        r"(?:\s+[\w'’-]+){0,6}?\s+(?:league|training|fixtures|squad|team|side|(?:once|twice|three\s+times|\d+\s*x)"
        r"\s+a\s+week|times\s+a\s+week|every\s+week|in\s+(?:the\s+)?(?:summer|winter|autumn|spring)"
        r"|(?:mon|tues|wednes|thurs|fri|satur|sun)days)\b"
        r"|(?<!coaching\sthe\s)(?<!coach\sthe\s)\b(?:league|county|club|uni|school|rec|semi[-\s]pro|wheelchair|walking)\s+"
        r"(?:" + _TEAM_WORDS + r")\b"
        r"|\b(?:" + _TEAM_WORDS + r")\s+(?:is|has\s+(?:always\s+)?been)\s+my\s+(?:main\s+)?(?:thing|sport"
        r"|first\s+love)\b"
        r"|\bused\s+to\s+play\s+(?:[\w-]+\s+){0,2}?(?:" + _TEAM_WORDS + r")\b",
        tags=("context:team sport",),
        # a team the athlete coaches, watches or referees is not theirs
        not_after=r"\bcoach\w*|\bwatch\w*|\breferee\w*|\bumpir\w*",
    ),
    _rule(
        "goal_context",
        CONTEXT,
        MEDIUM,
        r"\b(?:training\s+for|signed\s+up\s+for|entered|booked|registered\s+for|got\s+(?:a\s+)?(?:place|entry|spot)"
        r"\s+(?:in|for|at)|building\s+(?:up\s+)?(?:to|for)|my\s+goal"
        r"\s+(?:is|race\s+is)|my\s+target\s+race\s+is|my\s+a\s+race\s+is)\s+(?:my\s+first\s+|an?\s+|the\s+|my\s+)?"
        r"(?:[\w-]+\s+){0,2}?(?:marathon|half|ultra|10k|5k|race|triathlon|ironman|70\.3|50k|100k|miler|trail\s+race"
        r"|fell\s+race|bq|sub[-\s]?\d+|pb|pr)\b|\b(?:marathon|half|ironman|70\.3|ultra|race|triathlon|100k|50k|miler)\b"
        r"(?:\s+[\w-]+){0,3}?\s+(?:is|will\s+be)\s+(?:the|my|his|her|their)\s+(?:a[-\s]race|big\s+one|main\s+(?:event"
        r"|goal|race|target)|goal(?:\s+race)?|target(?:\s+race)?|focus|priority)\b"
        r"|\btraining\s+for\s+(?:the\s+)?\w+(?:\s+\d+)?\s+(?:in|next|this)\s+" + _MONTH + r"\b"
        r"|\bi\s+" + _ADV + r"{0,2}(?:run|race|do)\s+(?:\d+\s+)?(?:ultras|(?:\d+[-\s]?)?milers|marathons|trail\s+races"
        r"|fell\s+races|triathlons|ironmans)\b"
        # issue 13, outside writers 3 and 4: an event the athlete is down for, or a block of a plan towards one: "I'm
        # doing the relay at the county champs", "we're racing the half in May", "Week 9 of 18 for Valencia"
        r"|\b(?:i|we)(?:" + _A + r"m|\s+am|" + _A + r"re|\s+are)\s+(?:doing|running|racing)\s+"
        r"(?:the\s+|a\s+|my\s+first\s+)?(?:[\w'’-]+\s+){0,3}?(?:marathon|half|ultra|10k|5k|relay|triathlon|ironman|champs|championships|nationals"
        r"|regionals)\b"
        r"|^week\s+\d+\s+of\s+\d+\b",
        tags=("context:goal",),
    ),
    _rule(
        # a target the athlete works towards: "my goal is to break 3 hours", "aiming for a sub-20 5k"
        "target_context",
        CONTEXT,
        MEDIUM,
        r"\bmy\s+(?:main\s+|big\s+|only\s+|real\s+)?(?:goal|target|aim|dream)\s+(?:this\s+(?:year|season)\s+"
        r"|for\s+\w+\s+)?"
        r"(?:is|are|=)\s+(?:to\s+)?(?:\w+\s+)?(?:break|run|get|finish|complete|qualify|go|do|hit|beat|make|sub[-\s]?\d"
        r"|pb|pr|bq)\b|\b(?:i|he|she|we|they)(?:\s+really|\s+would|" + _A + r"d)?\s+"
        r"(?:wants?|hopes?|plans?|loves?|likes?)\s+to\s+(?:qualify\s+for"
        r"|break\s+\d+|go\s+sub|run\s+(?:a\s+)?sub|get\s+(?:a\s+)?(?:bq|sub)|finish\s+(?:an?\s+|my\s+first\s+)?(?:ultra"
        r"|marathon|ironman|100))\b|\b(?:aiming|going)\s+for\s+(?:a\s+)?(?:sub[-\s]?\d|bq|pb\s+in|pr\s+in)"
        # a time or a standard aimed at: "aiming for 9:30 at the regionals", "going for the B2 qualifying time"
        r"|\b(?:aiming|going)\s+for\s+(?:the\s+|a\s+)?(?:\d+[:.]\d+\b|(?:[\w-]+\s+)?qualifying\s+(?:time|standard|mark))"
        # a goal stated as a heading or a plan: "Long-term goal is to qualify", "Big goal: finish the CCC",
        # "Target race is Berlin", "planning to do an ultra next year", "I'd like to get a marathon in"
        r"|^(?:the\s+)?"
        + _GOAL_HEAD
        + r"|\b(?:my|our)\s+"
        + _GOAL_HEAD
        + r"|\b(?:planning|plan|hoping|hope|want|going|aiming)\s+to\s+(?:do|run|race|enter|tackle|complete|finish"
        r"|attempt|get|try)\s+(?:\w+\s+){0,3}?(?:marathons?|half|ultras?|10k|5k|races?|triathlons?|ironman"
        r"|parkrun|50k|100k|miler"
        r"|70\.3|ultramarathon)\b"
        # "want to row a sub-7 2k", "break 2 minutes for the 800", "training for the Lakeland 100", "running the Great
        # North Run this year"
        r"|\b(?:wants?|want(?:ing)?|hop(?:e|es|ing)|aim(?:s|ing)?|plan(?:s|ning)?|trying)\s+to\s+(?:run|row|swim|ride|go|get"
        r"|do)\s+(?:a\s+)?sub[-\s]?\d|\bbreak\s+\d+(?::\d\d)?\s*(?:minutes|mins|hours|hrs|seconds|secs)\b"
        r"|\btraining\s+for\s+(?:the|my\s+first|an?)\s+(?:[\w-]+\s+){0,2}?(?:\d{2,3}k?|race|challenge|ultra|trail|ironman"
        r"|marathon|half)\b"
        r"|\b(?:running|doing|racing|entered|entering)\s+the\s+(?:[\w-]+\s+){1,3}?(?:run|marathon|half|10k|ultra|100|50"
        r"|race|trail)\s+(?:(?:\w+\s+){0,4}?(?:this|next)\s+(?:year|spring|summer|autumn|fall|winter|month)|in\s+"
        + _MONTH
        + r")\b"
        # an event of any sport ahead: "Gravel race in Girona booked for April", "Selection for the firearms unit is
        # in April", "next meet is the regionals", "I've got a half iron man in june", "Entered the Windermere swim"
        r"|\b"
        + _EVENT
        + r"\b(?:\s+[\w'’-]+){0,5}?\s+(?:booked|entered|is\s+(?:in|on|booked|coming\s+up)|are\s+(?:in|on))\s+"
        r"(?:for\s+|on\s+|in\s+)?(?:the\s+)?(?:\d|"
        + _MONTH
        + r"\b|(?:a\s+few|two|three|four|five|six|\d+)\s+weeks|next\b)"
        r"|\b(?:next|upcoming|(?:i|we)(?:"
        + _A
        + r"ve|\s+have)\s+got\s+(?:a|an|the|my|our)|i(?:"
        + _A
        + r"m|\s+am)\s+(?:doing"
        r"|racing|competing\s+in)\s+(?:a|an|the|my))\s+(?:[\w'’-]+\s+){0,4}?" + _EVENT + r"\b"
        r"|\b(?:entered|signed\s+up\s+(?:for|to)|registered\s+for|booked\s+(?:onto|on|in\s+for))\s+(?:the|a|an|my)\s+"
        r"(?:[\w'’-]+\s+){0,4}?" + _EVENT + r"\b"
        # a target of any sport: "I want sub 9 on the 300k", "I need to make 64kg", "want to get my handicap from 18
        # down to 12", "I want to make quarterfinals", "is the big one for me", "going for promotion"
        r"|\b(?:want|wants|need|needs|"
        + _A
        + r"d\s+like|would\s+like|hoping|hope|aim|aiming|trying)\s+(?:to\s+(?:get|make"
        r"|break|hit|lose|reach|beat|go)\s+)?(?:[\w'’-]+\s+){0,4}?(?:sub[-\s]?\d+|(?:down|up)\s+to\s+\d+|\d+\s*(?:kg|kgs"
        r"|lbs)\b|quarter[-\s]?finals|semi[-\s]?finals|promotion|selection)"
        r"|\b(?:is|" + _A + r"s)\s+(?:the|my)\s+(?:big\s+one|dream|main\s+(?:event|goal|target|race))\b"
        r"|\b(?:going|aiming|gunning)\s+for\s+(?:the\s+)?(?:[\w'’-]+\s+){0,3}?(?:promotion|title|championships?|selection"
        r"|qualification|gold|medal|podium)\b"
        # an event named only by its name: "The Dublin one is the goal", "Week 6 of 16 for Chicago", "I'm doing Berlin
        # in September", "run the Bay 10k in June", "take part in the relay in May"
        r"|^(?:the\s+)?(?:[\w'’-]+\s+){1,6}?(?:is|will\s+be)\s+(?:the|my)\s+(?:big\s+|main\s+|real\s+)?(?:goal|target"
        r"|dream|a[-\s]race)\b"
        # an event with a date ahead, without a verb: "Sprint tri at Eton Dorney this weekend", "Half marathon, Cardiff,
        # October", "Volleyball trials on 20 January", "club champs in Feb" (not one already run: "the race in March was
        # brutal", "ran Seville in February")
        r"|^(?:(?!" + _PAST + r")[\w'’-]+[\s,]+){0,4}?"
        r"(?:" + _EVENT + r"|champs|nationals|regionals|xc|parkrun|duathlon|aquathlon|hyrox)\b"
        r"(?![-\s]+(?:season|term)\b)(?:[\s,]+(?:[\w'’()-]+|\d+[a-z]*)){0,5}?[\s,]+"
        r"(?:(?:in|on|at)\s+)?(?:(?:this|next)\s+(?:weekend|week|month|year|spring|summer|autumn|fall|winter|"
        + _MONTH
        + r")|in\s+(?:\d+|two|three|four|five|six|a\s+few)\s+weeks|(?:\d{1,2}(?:st|nd|rd|th)?\s+)?"
        + _MONTH
        + r"(?!\s+(?:be|have|not|need|want)\b))\b(?![^.]*\b"
        + _PAST
        + r")"
        # a time to break: "just want to break 50", "hoping to break 3 hours"
        r"|\b(?:want|wants|wanting|hope|hoping|aim|aiming|trying)\s+to\s+break\s+\d"
        r"|\bweek\s+\d+\s+of\s+\d+\s+(?:for|to|until)\s+\w"
        r"|\b(?:i(?:" + _A + r"m|\s+am)\s+(?:doing|running|racing)|take\s+part\s+(?:in|to)|run\s+the|race\s+the)\s+"
        r"(?:[\w'’-]+\s+){1,4}?in\s+" + _MONTH + r"\b",
        tags=("context:goal",),
    ),
    _rule(
        "life_context",
        CONTEXT,
        MEDIUM,
        r"\b(?:i|we)\s+" + _ADV + r"{0,2}live\s+(?:at|in|on|near|by|up|somewhere|right)\b"
        # the place without a subject, or a move between two: "Live in Quito these days", "we moved from Hull to Perth"
        r"|^(?:(?:and|but|so)\s+)?live\s+(?:in|near)\b|\b(?:we|i)\s+(?:just\s+|recently\s+)?moved\s+from\s+[\w-]+"
        r"(?:\s+[\w-]+)?\s+to\b"
        # a diet kept for years or kept strictly: "I've been veggie since uni", "I am strict vegan"
        r"|\bi(?:"
        + _A
        + r"ve|\s+have)\s+been\s+(?:a\s+)?(?:vegan|vegetarian|veggie|pescatarian)\b|"
        + I_AM
        + r"(?:pure|strict|fully|full|mostly)\s+(?:vegan|vegetarian|veggie|pescatarian)\b"
        # a partner whose life shapes the week: "my husband works away all week", "my partner and I are expecting"
        r"|\bmy\s+(?:wife|husband|hubby|partner)\s+(?:is\s+(?:also\s+|now\s+)?(?:training|away|working)|works?\s+"
        r"(?:away|nights|shifts|abroad|offshore|long\s+hours)|and\s+i\s+are\s+expecting)\b"
        # a parent who is ill or moved in: "my dad's in hospital again", "my mam is poorly", "mum has moved in with us"
        r"|\b(?:my|me)\s+(?:mum|mom|mam|mother|dad|father|gran|nan)(?:" + _A + r"s|\s+is|\s+has)\s+(?:\w+\s+)?"
        r"(?:sick|ill|unwell|poorly|in\s+hospital|moved\s+in|dementia)\b|^being\s+a\s+carer\b"
        r"|\bcan" + _A + r"?t\s+leave\s+(?:my\s+)?(?:mum|mom|mam|mother|dad|father)\b"
        # a new puppy: "we've just got a puppy", "new puppy at home"
        r"|\b(?:got|getting|have|new)\s+(?:a\s+|our\s+)?(?:new\s+)?puppy\b"
        # what the children do at fixed times: "the kids' rugby is Saturday", "Kids have gymnastics on Fridays"
        r"|\b(?:the|my|our)\s+(?:kids|children|son|daughter|boys|girls)" + _A + r"s?\s+(?:football|swimming|swim"
        r"|rugby|hockey|netball|gymnastics|dance|ballet|training|matches|games|clubs?|activities|lessons)\b"
        r"|^(?:the\s+)?(?:kids|children)\s+(?:have|do)\s+[\w-]+\s+(?:on\s+)?(?:" + _WEEKDAYS + r")\b"
        r"|\bon\s+(?:dad|mum|mom|parent)\s+duty\b|"
        + I_AM
        + r"(?:a\s+)?(?:type\s*[12]\s+)?(?:vegan|vegetarian|"
        + _CONDITION_WORDS
        + r")\b|"
        + _THEY_ARE
        + r"(?:a\s+)?(?:type\s*[12]\s+)?"
        + _CONDITION_WORDS
        + r"\b"
        r"|\b(?:put\s+me\s+on|i(?:" + _A + r"m|\s+am)\s+(?:on|taking)|i\s+take)\s+(?:\w+\s+){0,2}?(?:medication|meds"
        r"|beta[-\s]blockers?|insulin|levothyroxine|thyroxine|statins|an?\s+inhaler|inhalers)\b"
        r"|\baltitude\s+(?:camp|training\s+camp|block|tent)\b|\b(?:at|to)\s+altitude\b"
        r"|\b(?:live|living|based|staying|stay|sleeping|sleep)\s+at\s+(?:about\s+|around\s+|roughly\s+)?\d[,.]?\d{3}\s*"
        r"(?:m|metres|meters|ft|feet)\b"
        # what the athlete has to train with: "only have access to a treadmill", "no pool nearby"
        r"|\b(?:i|we)\s+(?:only\s+|just\s+)?(?:have|get|" + _A + r"ve\s+got)\s+(?:no\s+)?access\s+to\b"
        r"|\bno\s+access\s+to\b|\b(?:i|we)\s+(?:have|" + _A + r"ve\s+got)\s+(?:a|an)\s+(?:[\w-]+\s+)?(?:treadmill|turbo"
        r"|smart\s+trainer|home\s+gym|peloton|rowing\s+machine|rower|power\s+meter|squat\s+rack)\s+(?:at\s+home"
        r"|in\s+the\s+garage|in\s+the\s+shed)\b|\bi(?:"
        + _A
        + r"?ve\s+got|\s+"
        + _ADV
        + r"{0,2}(?:have|have\s+got|suffer\s+from|live\s+with|was\s+diagnosed\s+with))\s+(?:\w+\s+)?(?:"
        + _CONDITIONS
        + r"|type\s*[12]|murmur|af|anxiety|depression|adhd)\b"
        r"|\b(?:\d+|one|two|three|four"
        r"|five)\s+(?:young\s+|little\s+|small\s+)?(?:kids|children|boys|girls)\s+(?:under|at\s+home|aged|to)\b"
        r"|\bmy\s+(?:wife|partner|husband)\s+is\s+(?:expecting|pregnant|due)\b"
        r"|\b(?:because\s+of|around)\s+(?:the|my)"
        r"\s+(?:kids|children|baby|toddler|twins)\b|\b(?:twins|baby|toddler|kids|son|daughter"
        r"|little\s+one)\s+(?:is|are)"
        r"\s+(?:only\s+|just\s+)?(?:\d+|one|two|three|four|five|six)\s*(?:months?|weeks?|years?|yrs?|yo)\b"
        r"|\b(?:pancake\s+)?(?:flat|hilly|mountainous)\s+(?:here|round\s+here|around\s+here|where\s+i\s+live)\b"
        r"|\bnearest\s+(?:hills?|track|trails?|pool|gym|mountains?)\b|\b(?:we|i)\s+(?:just\s+|recently\s+)?moved\s+to\b"
        r"|\b(?:we|i)(?:" + _A + r"re|\s+are|" + _A + r"m|\s+am)\s+(?:\w+\s+)?moving\s+(?:to|house|abroad|country)\b"
        r"|\b(?:childcare|child\s+care|school\s+holidays|nursery\s+runs?)\b"
        r"|\b(?:going\s+through|in)\s+(?:the\s+)?(?:menopause|perimenopause|ivf|chemo\w*|radiotherapy"
        r"|cancer\s+treatment)\b"
        r"|" + I_AM + r"(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten)\s+(?:weeks?|months?)\s+(?:postpartum"
        r"|post[-\s]partum|post[-\s]op)\b|\b(?:we|i)(?:" + _A + r"re|\s+are|" + _A + r"m|\s+am)\s+expecting\b"
        r"|\b(?:doing|studying\s+for|finishing|writing\s+up)\s+(?:a|my)\s+(?:phd|master" + _A + r"?s|degree|doctorate"
        r"|dissertation|thesis)\b|\bmy\s+(?:gym|club|pool|office|work)\s+has\s+(?:a|an)\b"
        r"|\bi\s+(?:don"
        + _A
        + r"?t|do\s+not|never)\s+drink\b|"
        + I_AM
        + r"(?:a\s+)?(?:tee[-\s]?total|teetotal|sober)\b"
        r"|\bi\s+" + _ADV + r"{0,2}volunteer\b|" + I_AM + r"(?:a\s+)?(?:really\s+|very\s+)?(?:terrible|bad|poor|light"
        r"|good|great|heavy|restless)\s+sleeper\b|\binsomnia\b|\bmy\s+sleep\s+(?:has\s+(?:always\s+)?been"
        r"|is)\s+(?:\w+\s+)?"
        r"(?:rubbish|terrible|awful|bad|poor|broken|shocking|a\s+mess)\s+(?:for\s+(?:years|ages|months)|since)\b"
        r"|\bi\s+(?:only\s+|usually\s+|normally\s+)?(?:sleep|get)\s+(?:about\s+"
        r"|around\s+|maybe\s+)?\d+(?:\s*[-–]\s*\d+)?\s+(?:hours?|hrs?|h)\b"
        r"|\b(?:the\s+)?altitude\s+(?:is|here|has|makes|kills|means|takes)\b|\badjusting\s+to\s+(?:the\s+)?altitude\b"
        r"|\bstudying\s+for\b|" + I_AM + r"studying\b|\bmy\s+(?:\w+\s+)?(?:exams|finals|dissertation|thesis)\b"
        r"|\b(?:have|got)\s+(?:my\s+)?(?:\w+\s+)?(?:exams|finals)\b",
    ),
    _rule(
        # what the athlete's life allows: when they can train, what they train with, what they eat (one search for the
        # three kinds; each is tagged by the part of the pattern that reads it)
        "life_kinds",
        CONTEXT,
        MEDIUM,
        _SCHEDULE + "|" + _EQUIPMENT + "|" + _DIET + "|" + _DIET_MORE,
        kinds=_LIFE_KINDS,
    ),
    _rule("fixed_slot_context", CONTEXT, MEDIUM, _FIXED_SLOT, tags=("context:schedule",)),
    _rule("gear_context", CONTEXT, MEDIUM, _HAS_GEAR, tags=("context:equipment",)),
    _rule(
        # a health condition, a medicine or a disability the athlete lives with is context:health, however it is
        # said: "Type 1 diabetic here", "went hypo at 50min", "bloods showed low iron again", "I'm deaf"
        "health_context",
        CONTEXT,
        LOW,
        r"\b(?:" + _CONDITIONS + r")\b"
        # the athlete's own pregnancy is health too ("Currently pregnant (20 weeks)"); a partner's is family
        r"|" + I_AM + r"(?:now\s+|currently\s+|also\s+)?(?:\w+\s+){0,3}?pregnant\b"
        r"|^(?:currently\s+|now\s+|still\s+)?pregnant\b|\bmy\s+pregnancy\b",
        tags=("context:health",),
    ),
    _rule(
        # the athlete's age: a background fact, kept only when its sentence says nothing else (AGE_RULE)
        AGE_RULE,
        CONTEXT,
        LOW,
        I_AM + r"(?:a\s+)?(?:\d\d(?:[-\s]?(?:years?|yrs?)[-\s]old)?|in\s+my\s+(?:\d0s|thirties|forties|fifties|sixties"
        r"|seventies))\b|\bi\s+(?:just\s+)?turned\s+\d\d\b",
    ),
    _rule(
        "travel_context",
        CONTEXT,
        LOW,
        r"\bi\s+" + _ADV + r"{0,2}(?:travel|fly)\b(?:\s+\w+){0,4}?\s+(?:a\s+lot|often|frequently|for\s+work|every"
        r"|regularly|constantly|weekly|most\s+weeks|all\s+the\s+time|monthly|fortnightly|once\s+a\s+month"
        r"|twice\s+a\s+month)\b|\b(?:away|travel\w*)\s+for\s+work\b"
        r"|\btravel\w*\b(?:\s+[\w-]+){1,5}?\s+(?:for|with)\s+work\b"
        # issue 13, outside writers 3 and 4: "travelling a fair bit next year", "means more travel", "deploying in
        # January", "we tour from February"
        r"|\btravell?ing\s+(?:a\s+lot|a\s+fair\s+bit|loads|lots|a\s+bit|every|most|twice|weekly|monthly)\b"
        r"|\bmore\s+travel\b|\bdeploy(?:ing|ed|ment)\b|\bwe\s+tour\b"
        r"|\b(?:i|we)(?:" + _A + r"m|\s+am|" + _A + r"re|\s+are)\s+(?:away\s+)?on\s+tour\b"
        # a stay somewhere for work: "I'm in Oslo for work till May", "off to Lyon for work", "here for work all week"
        r"|\b(?:i(?:" + _A + r"m|\s+am|" + _A + r"ll\s+be|\s+will\s+be)|we(?:" + _A + r"re|\s+are)|off|here|out"
        r"|over|away|based|flying|going|heading)\s+(?:(?:in|to|out\s+in|over\s+in)\s+)?(?:[\w-]+\s+){0,2}?for\s+work\b"
        # a stay somewhere else: "heading to Colorado for a month", "we're in Kenya for three months"
        r"|"
        + _STAY_AWAY
        + r"|\bworking\s+away\b|\baway\s+with\s+work\b|\bwork\s+(?:has|takes|sends|sent|keeps)\s+me\s+(?:in|to|away"
        r"|on\s+the\s+road|abroad|travel\w*|all\s+over)\b|\bon\s+the\s+road\s+(?:for(?!\s+(?:me|him|her|them|the\s+athlete)\b)|a\s+lot|most|half"
        r"|\w+\s+(?:days|weeks|nights)|every|constantly"
        r"|again)\b|\b(?:in|from)\s+hotels\b|\bhotel\s+(?:gyms|treadmills|rooms"
        r"|life)\b|\bbusiness\s+trips?\b|\bwork\s+trips?\b|\bliving\s+out\s+of\s+a\s+suitcase\b|\bi\s+"
        + _ADV
        + r"{0,2}(?:travel|fly)\s+for\s+work\b",
        tags=("context:travel",),
    ),
    _rule(
        "commute_context",
        CONTEXT,
        LOW,
        r"\bi\s+" + _ADV + r"{0,2}(?:run|cycle|bike|walk|ride)\s+(?:to|into|home\s+from)\s+(?:the\s+)?(?:work|office)\b"
        r"|\b(?:running|cycling|biking|riding|walking)\s+(?:to|into|home\s+from)\s+(?:the\s+)?(?:work|office)\b"
        r"|\bi\s+" + _ADV + r"{0,2}commute\b"
        r"|\brun[-\s]?commut\w*|\b(?:my|the)\s+commute(?=\s+(?:is|takes|will\s+be|was))|\bmy\s+commute\b"
        r"|\b(?:long|daily|\d+[-\s]?(?:hour|minute|min)s?|hour[-\s]long)\s+commute\b"
        r"|\bi\s+" + _ADV + r"{0,2}commute\b",
        tags=("context:commute",),
    ),
    # training responses
    _rule(
        # round 5, how a kind of session feels, compared: "tempo runs on the treadmill feel much harder than outside",
        # "standalone runs feel way harder", "squat days make my runs the next day feel awful", "I feel worse
        # afterwards", "always run better under 10 degrees" (outside writers 2, 3, 4 and 5)
        "session_feels",
        RESPONSE,
        LOW,
        r"\b(?:runs|sessions|tempos|intervals|efforts|reps|workouts|rides|swims|miles)\b(?:\s+[\w'’-]+){0,4}?\s+feel\s+"
        r"(?:(?:much|way|so|a\s+lot|far|even)\s+){0,2}(?:harder|easier|worse|better|awful|terrible|heavier"
        r"|horrible)\b|\bi\s+feel\s+(?:much\s+|way\s+|even\s+)?(?:worse|better)\s+(?:afterwards|after(?=\s+than)|the\s+"
        r"(?:day|morning)\s+after|the\s+next\s+day)\b|\b(?:run|race|perform)\s+(?:much\s+|way\s+|far\s+)?(?:better"
        r"|worse)\s+(?:under|below|above|over)\s+\d",
    ),
    _rule(
        "recovery_rate",
        RESPONSE,
        LOW,
        r"\b(?:i|he|she|they|and|my\s+(?:legs|body)(?:\s+never|\s+don"
        + _A
        + r"?t|\s+doesn"
        + _A
        + r"?t)?)\s+"
        + _ADV
        + r"{0,2}(?:recovers?|bounces?\s+back)\s+(?:\w+\s+)?(?:quickly|slowly|fast|well|badly|poorly"
        r"|slow|quick|faster|slower|quicker|better|worse)\b|\b(?:takes?|took)\s+me\s+(?:\w+\s+){0,3}?(?:days?"
        r"|ages|a\s+while|longer|forever|weeks?"
        r"|hours|\d+\s*(?:h|hrs?))\s+to\s+(?:recover|bounce\s+back|feel\s+(?:normal|human|right|ok|okay|fresh)"
        r"|come\s+back|get\s+over|shake\s+off)\b"
        # a reaction that lasts, whatever the session is called: "the 3x5k at MP knacker me for days", "pad work
        # rounds always gas me out", "they're wrecked for 2 days" (not an illness: "UTIs knock me out for a week"; not
        # one time: "I was wiped for half the week")
        r"|\b(?:knacker|gas|wipe|wreck|flatten|floor|destroy|kill|smash|batter|cook|fry|hammer|trash)(?:s|es|ed)?"
        r"\s+me\s+(?:out\s+)?for\s+" + _LASTING + r"|\bgas(?:ses|sed|es)?\s+me\s+out\b"
        r"|(?<!\bwas\s)(?<!\bwere\s)\b(?:wiped|wrecked|knackered|cooked|toast|trashed|smashed|shattered|flattened)"
        r"(?:\s+out)?\s+for\s+"
        + _LASTING
        + r"|\bi\s+"
        + _ADV
        + r"{0,2}need\s+(?:a\s+lot\s+|much\s+|way\s+|a\s+bit\s+)?(?:more|less|extra|longer)\s+(?:recovery"
        r"|rest|sleep|time\s+to\s+recover)\b|\b(?:whenever|every\s+time|after|if|when)\s+i\s+(?:do|run|race|have)\b"
        r"(?:\s+[\w-]+){0,4}?\s+my\s+(?:sleep|legs|hr|heart\s+rate|appetite|energy|pace|stomach|gut)\b|\bi\s+"
        + _ADV
        + r"{0,2}(?:get|suffer\s+from)\s+(?:\w+\s+){0,2}?(?:doms|cramps?|stitch(?:es)?|migraines?|headaches?"
        r"|nause\w*|dizzy|light[-\s]headed"
        r"|blisters|chafing|gi\s+issues|stomach\s+issues)\b(?:\s+\w+){0,3}?\s+(?:from|after|on|in|during|with|when"
        r"|if|every|whenever|each)\b|\bmy\s+recovery\s+(?:is|has\s+always\s+been|tends\s+to\s+be)\s+"
        r"(?:\w+\s+)?(?:slow|quick|fast|good|poor)\b|\bi\s+" + _ADV + r"{0,2}need\s+(?:[\w-]+\s+){0,4}?"
        r"(?:days?|weeks?|hours?|hrs|nights?|sleep|rest|recovery|time)\b(?:\s+[\w-]+){0,5}?\s+(?:after|between"
        r"|following"
        r"|to\s+recover"
        r"|before\s+i\s+feel)\b",
    ),
    _rule(
        "training_response",
        RESPONSE,
        MEDIUM,
        r"\b" + STIMULUS + r"\b(?:\s+\w+){0,3}?\s+(?:make|makes|leave|leaves|wipe|wipes|knock|knocks|destroy"
        r"|destroys|wreck|wrecks|kill|kills|drain|drains|smash|smashes)\s+me\b|\bi\s+" + _ADV + r"{0,2}(?:get|feel"
        r"|tend\s+to\s+(?:get|feel|be))\s+(?:\w+\s+)?" + _FEELING + r"\s+(?:\w+\s+)?(?:after|during|from|on|with|in"
        r"|the\s+day\s+after|for\s+the\s+first|if|when|whenever|without|unless)\b|"
        + I_AM
        + r"(?:always|usually|often|generally)\s+(?:\w+\s+)?"
        + _FEELING
        + r"\s+(?:after"
        r"|for|from|the\s+(?:morning|day)\s+after|the\s+next\s+day|when|if)\b"
        # "I always get a cold after a marathon"; "whenever I do more than 60k a week I get sick"
        r"|\bi\s+"
        + _ADV
        + r"{0,2}(?:get|catch|pick\s+up|come\s+down\s+with)\s+(?:a\s+)?(?:cold|colds|sick|ill|run\s+down"
        r"|injured|niggles?|flu|bugs?|chest\s+infections?)\s+(?:after|when|if|whenever|every|each|during|around)\b"
        r"|\b(?:whenever|every\s+time|each\s+time)\s+i\b(?:\s+[\w-]+){1,8}?\s+i\s+(?:always\s+|usually\s+"
        r"|just\s+)?(?:get"
        r"|feel|end\s+up|fall|start)\b"
        # "recovery takes me longer now"
        r"|\b(?:my\s+)?recovery\s+(?:takes|is\s+taking|seems\s+to\s+take)\s+(?:me\s+)?(?:\w+\s+)?(?:longer|ages|forever"
        r"|days?|weeks?|a\s+while|more\s+time)\b|\bi\s+"
        + _ADV
        + r"{0,2}(?:respond|react|adapt)\s+(?:\w+\s+)?(?:well|badly|poorly|quickly"
        r"|slowly|better|worse)\s+to\b(?!\s+(?:ibuprofen|naproxen|aspirin|paracetamol|nsaids?|anti[-\s]?inflammator\w+"
        r"|penicillin|antibiotics|codeine))|\bi\s+" + _ADV + r"{0,2}(?:struggle|suffer|wilt|melt|die)\s+(?:\w+\s+)?"
        r"(?:in|with|on)\s+(?:the\s+)?(?:heat|humidity|hills|cold|altitude|sun|hot\s+weather)\b|\b(?:heat"
        r"|humidity|hot\s+weather)\s+(?:\w+\s+)?(?:kills|destroys|wrecks|slows)\s+me\b|\bi\s+"
        + _ADV
        + r"{0,2}(?:run|race|perform|ride|swim|train|do)\s+(?:much\s+|way\s+|far\s+)?(?:better|worse|best|badly"
        r"|poorly|terribly|faster"
        r"|slower)\s+"
        r"(?:on|in|with|after|when|off|than|the\s+(?:day|morning|week|days)\s+after)\b"
        r"|^(?:any(?:thing)?\s+)?(?:more|over|above|longer|further)\s+than(?:\s+[\w-]+){1,6}?\s+and\s+(?:i|my)\b"
        # "my best sessions come after an early night"
        r"|\bmy\s+(?:best|worst|fastest|slowest|strongest)\s+(?:sessions?|runs?|races?|rides?|swims?|workouts?|days?"
        r"|times?|efforts?)\s+(?:\w+\s+)?(?:come|are|happen|tend)\b(?:\s+\w+){0,2}?\s+(?:after|when|on|with|following"
        r"|if)\b"
        r"|^anything\s+(?:over|above|past|beyond)(?:\s+[\w-]+){1,6}?\s+and\s+(?:i|my)\b"
        r"|\b(?:my\s+)?sleep(?:" + _A + r"s|\s+is)?\s+(?:always\s+|usually\s+)?(?:\w+\s+)?(?:terrible|awful|bad|rubbish"
        r"|poor|wrecked|ruined|shocking)\s+(?:after|when|following|on)\b"
        r"|\bi\s+(?:always|usually|often|tend\s+to|generally)\s+(?:hit\s+the\s+wall|bonk|blow\s+up)\b"
        r"|\bi\s+hit\s+the\s+wall\b(?:\s+[\w-]+){0,6}?\s+(?:every|each|whenever)\b"
        r"|^(?:and\s+)?i\s+(?:always\s+|usually\s+|just\s+)?(?:get|end\s+up|fall)\s+(?:ill|sick|injured"
        r"|run\s+down)\b(?!\s+of\b)"
        r"|\bi\s+" + _ADV + r"{0,2}(?:get|end\s+up|fall)\s+(?:ill|sick|injured|run\s+down)\s+(?:when|if|whenever"
        r"|every\s+time|after)\b|\bi\s+" + _ADV + r"{0,2}(?:thrive|excel|shine)\s+(?:on|in|with|at|when)\b"
        r"|\bwhere\s+i\s+(?:thrive|excel|shine)\b|\bi\s+(?:do|run|train|perform|feel"
        r"|race)\s+(?:my\s+)?best\s+(?:on|with"
        r"|when|after|in|off)\b"
        # "I can handle a lot of volume", "I'm sore for days after any downhill race", "my form falls apart after"
        r"|\bi\s+(?:can|can"
        + _A
        + r"?t|cannot|seem\s+to|tend\s+to|don"
        + _A
        + r"?t|do\s+not)\s+(?:really\s+)?(?:handle|tolerate|absorb|cope\s+with)\s+(?:a\s+lot\s+of\s+"
        r"|lots\s+of\s+|plenty\s+of\s+|much\s+|high\s+|big\s+)?(?:volume|mileage|intensity|load|miles|kms|"
        + STIMULUS
        + r")\b"
        r"|" + I_AM + r"(?:\w+\s+)?" + _FEELING + r"\s+for\s+(?:days|ages|a\s+while|(?:\w+\s+)?days)\s+after\b"
        r"|\bmy\s+(?:form|legs|pace|body|technique|stroke|running)\s+(?:\w+\s+)?(?:falls?\s+apart|breaks?\s+down"
        r"|deteriorates|falls?\s+off)\b"
        r"|\blegs\s+(?:are\s+|feel\s+|stay\s+)?(?:always\s+)?(?:heavy|dead|sore|stiff|tired|trashed|wrecked|cooked|shot"
        r"|jelly)\s+for\s+(?:\d+\s+|two\s+|three\s+|a\s+few\s+|several\s+)?(?:days?|ages|hours|a\s+while)\b",
    ),
    _rule(
        # what a load, a session kind or a circumstance does, in the athlete's plainer words: "any run over 30 min
        # brings on a crash for 2 days", "I never sleep well the night after a race", "after night shifts my HR is
        # 10 beats higher", "two rest days in a row and I feel stiff", "I take ages to recover from long runs",
        # "long runs on an empty stomach are a disaster for me", "my legs never cope"
        "load_response",
        RESPONSE,
        MEDIUM,
        r"^(?:(?:and|but|so)\s+)?(?:any(?:thing)?|every)\s+(?:(?:\w+\s+)?(?:runs?|sessions?|rides?|swims?|races?|workouts?"
        r"|efforts?)\s+)?(?:over|above|past|beyond|longer\s+than|after|more\s+than)\b(?:\s+[\w-]+){1,6}?\s+(?:and\s+(?:i|my)\b"
        r"|(?:makes?|brings?\s+on|leaves?|gives?|wrecks?|kills?|knocks?|sets?\s+off|triggers?)\b)"
        r"|\bi\s+(?:never|can" + _A + r"?t|cannot|don" + _A + r"?t|always|usually|often)\s+(?:\w+\s+)?sleep\b"
        r"(?:\s+[\w-]+){0,3}?\s+(?:after|following)\b"
        r"|\b(?:after|following)\b(?:\s+[\w-]+){1,4}?\s+i\s+(?:can" + _A + r"?t|cannot|never|don" + _A + r"?t"
        r"|struggle\s+to)\s+(?:\w+\s+)?sleep\b"
        r"|\b(?:after|following)\s+(?:(?:a|an|any|every|each|my|big|hard|long|late|night|the)\s+){0,3}"
        + STIMULUS
        + r"s?\b"
        r"(?:\s+[\w-]+){0,3}?\s+my\s+(?:hr|heart\s+rate|hrv|resting\s+hr|legs|sleep|stomach|gut|pace|power|appetite)\b"
        r"|\b" + STIMULUS + r"\b(?:\s+[\w-]+){0,5}?\s+and\s+i\s+(?:always\s+|usually\s+|just\s+)?(?:feel|get|am"
        r"|end\s+up)\s+"
        r"(?:\w+\s+)?" + _FEELING + r"\b"
        r"|\bi\s+(?:always\s+|now\s+|usually\s+)?take\s+(?:ages|forever|longer|a\s+while|(?:\w+\s+)?days|(?:\w+\s+)?weeks)"
        r"\s+to\s+(?:recover|bounce\s+back|come\s+back|feel\s+normal)\b"
        r"|\b(?:is|are)\s+(?:always\s+|just\s+|usually\s+)?(?:a\s+(?:disaster|nightmare)|too\s+much|brutal|hell)\s+for\s+"
        r"(?:me|my\s+(?:body|legs|stomach|gut))\b"
        r"|\bmy\s+(?:legs|body|knees|back|stomach|gut)\s+(?:never|don" + _A + r"?t|doesn" + _A + r"?t|can" + _A + r"?t"
        r"|cannot)\s+(?:really\s+)?(?:cope|recover|handle\s+it|take\s+it|adapt)\b"
        r"|\bslept\s+(?:\w+\s+)?(?:terribly|badly|awfully|poorly|horribly)\s+after\b(?:\s+[\w-]+){0,5}?\s+again\b",
        needs_run_object=True,
    ),
    _rule(
        "general_effect",
        RESPONSE,
        LOW,
        # "two hard sessions a week is my limit"
        r"\b(?:is|are)\s+(?:about\s+|pretty\s+much\s+|definitely\s+)?my\s+(?:limit|max|maximum|ceiling)\b"
        r"|\btakes?\s+(?:a\s+lot|more|so\s+much|a\s+ton|loads|everything)\s+out\s+of\s+(?:me|them|him|her)\b"
        r"|\btakes?\s+(?:a|an|\w+)\s+(?:days?|weeks?|hours?)\s+out\s+of\s+(?:me|them)\b|\bpay\s+for\s+it\b|\b(?:never"
        r"|don" + _A + r"?t|doesn" + _A + r"?t|do\s+not)\s+(?:really\s+)?work\s+for\s+me\b|\bmess(?:es)?\s+up\s+my\b"
        r"|\bfalls?\s+off\s+a\s+cliff\b|\bfeels?\s+(?:much\s+|way\s+|so\s+much\s+)?(?:easier|harder|better"
        r"|worse)\s+(?:when"
        r"|after|if|with)\b|\bi\s+" + _ADV + r"{0,2}adapt\s+\w+|\b(?:is|are)\s+what\s+works\s+for\s+(?:me|my\s+body)\b"
        r"|\bworks?\s+(?:best|well)\s+for\s+my\s+body\b|\bworks?\s+(?:really\s+|so\s+|very\s+)?well\s+for\s+me\b"
        r"|\bi\s+"
        + _ADV
        + r"{0,2}(?:overheat|sweat|dehydrate|burn)\s+(?:\w+\s+)?(?:easily|a\s+lot|a\s+ton|loads|heavily"
        r"|quickly|fast|buckets)\b|\bmy\s+(?:stomach|gut)\s+(?:\w+\s+){0,2}?(?:rebel\w*|turn\w*"
        r"|object\w*|revolt\w*)\b|\bi\s+" + _ADV + r"{0,2}fall\s+apart\b",
    ),
    _rule(
        # what the athlete has noticed about their own training: "I've found that a proper breakfast makes my
        # morning runs much better"
        "noticed_effect",
        RESPONSE,
        MEDIUM,
        r"\bi(?:" + _A + r"ve|\s+have)?\s+(?:found|noticed|learned|learnt|realised|realized|discovered)\s+(?:that\s+)?"
        r"(?:[\w-]+\s+){0,8}?(?:makes?|helps?|better|worse|faster|slower|easier|harder|stronger|fresher|more|less"
        r"|when|if|after|whenever)\b",
        needs_run_object=True,
    ),
    _rule(
        "habitual_reaction",
        RESPONSE,
        LOW,
        # a reaction the athlete always has to a kind of run: "the run off the bike always feels awful",
        # "I'm wrecked every time after a race"
        r"\b(?:always|every\s+(?:single\s+)?time|each\s+time|whenever|without\s+fail|never\s+fails\s+to|as\s+usual"
        r"|as\s+always|like\s+always|per\s+usual)\b"
        r"(?:\s+[\w'’-]+){0,6}?\s+" + REACTION + r"|" + REACTION + r"(?:\s+[\w'’-]+){0,6}?\s+(?:every\s+(?:single\s+)?"
        r"time|each\s+time|whenever|without\s+fail|as\s+(?:always|usual)|like\s+(?:always|clockwork)|per\s+usual|every\s+(?:single\s+)?(?:run|race|session|marathon|long\s+run"
        r"|workout|rep|interval|tempo))\b",
        needs_run_object=True,
    ),
    _rule(
        "session_effect",
        RESPONSE,
        MEDIUM,
        r"\b"
        + STIMULUS
        + r"\b(?:\s+\w+){0,3}?\s+(?:always\s+|usually\s+|really\s+|absolutely\s+|just\s+)?(?:make|makes"
        r"|leave|leaves|give|gives|wipe|wipes|knock|knocks|destroy|destroys|wreck|wrecks|kill|kills|drain|drains"
        r"|smash|smashes|cook|cooks|flatten|flattens|trash|trashes|ruin|ruins|fry|fries|crush|crushes|hit|hits"
        r"|floor|floors"
        r"|batter|batters|hammer|hammers|help|helps|keep|keeps|get|gets|mess\s+with|messes\s+with|mess\s+up|messes\s+up"
        r"|disrupt|disrupts|loosen\s+up|loosens\s+up|free\s+up|frees\s+up|relax|relaxes|settle|settles|sort\s+out"
        r"|sorts\s+out|take\s+it\s+out\s+of"
        r"|takes\s+it\s+out\s+of|do\s+wonders\s+for|does\s+wonders\s+for|(?:has|have)\s+(?:made|helped|improved|fixed"
        r"|sorted|transformed)(?:\s+\w+){0,2}?)\s+"
        + _RESPONSE_OBJECT
        + r"|\b"
        + STIMULUS
        + r"\s+(?:always\s+|usually\s+|often\s+)?feels?\s+(?:\w+\s+)?(?:awful|terrible|horrible|rough|sluggish|flat"
        r"|heavy|laboured|labored)\b"
        + r"|\b(?:my\s+)?(?:heart\s+rate|hrv|hr|pulse|legs|body|pace|speed|performance|running|form|energy)\s+"
        r"(?:\w+\s+){0,2}?"
        r"(?:goes|go|shoots|spikes|climbs|drifts"
        r"|drops|drop|falls\s+off|slows|slows\s+down|suffers?|improves?|tanks?|crashes"
        r"|jumps|jump|rises|soars|stays"
        r"|takes?|needs?|is\s+always|are\s+always|feels?\s+like\s+(?:lead|jelly|concrete|bricks|wood|treacle"
        r"|stumps)|(?:heavy|dead|flat|fresh|great|amazing|good|awful"
        r"|terrible|wooden|sluggish|springy|better|worse))\b(?:\s+[\w-]+){0,4}?\s+"
        r"(?:through\s+the\s+roof|up|high|ages|days?|forever|a\s+while|longer|weeks?|after|on|in|when|for|to\s+recover"
        r"|to\s+come\s+back)\b|\b(?:after|following)\s+(?:a\s+|any\s+|every\s+|each\s+|my\s+|big\s+"
        r"|hard\s+)?(?:hard\s+|big\s+|long\s+|tough\s+)?"
        + STIMULUS
        + r"s?\b(?:\s+\w+){0,3}?\s+(?:i|they)(?:"
        + _A
        + r"m|\s+am|"
        + _A
        + r"re|\s+are)?\s+(?:always|usually|often"
        r"|generally|need|feel|get|tend|starving|ravenous|hungry|wrecked|shattered|knackered|exhausted|useless"
        r"|sore|stiff"
        r"|flat|wired|buzzing|barely|hardly|can\s+(?:barely|hardly)|can"
        + _A
        + r"?t|cannot|never|struggle)\b|\bi\s+"
        + _ADV
        + r"{0,2}(?:sleep|eat)\s+(?:\w+\s+)?(?:badly|poorly|terribly|well|better"
        r"|worse|great|like\s+a\s+log)\b(?:\s+\w+){0,4}?\s+(?:after|before|following)\b|"
        + _SUBJECT
        + _ADV
        + r"{0,2}(?:bounce|bounces)\s+back\b|"
        + _SUBJECT
        + _ADV
        + r"{0,2}(?:need|needs)\s+(?:at\s+least\s+)?(?:\w+\s+){0,3}?(?:days?|weeks?|nights?)\b"
        r"|\bmy\s+"
        + _BODY_SUBJECT
        + r"\s+(?:really\s+|just\s+)?(?:hates?|(?:don|doesn)"
        + _A
        + r"?t\s+like|can"
        + _A
        + r"?t\s+(?:handle|cope\s+with|take|cope\s+well\s+with)|cannot\s+(?:handle|cope\s+with|take)|struggles?\s+with"
        r"|(?:don|doesn)" + _A + r"?t\s+cope\s+(?:well\s+)?with|copes?\s+(?:badly|poorly)\s+with)\s+(?:the\s+)?"
        r"(?:\w+\s+){0,2}?(?:" + STIMULUS + r"|pounding|impact|volume|speed|roads?|concrete)\b"
        r"|\b(?:always|usually|every\s+time)\s+after\s+(?:the\s+|a\s+|my\s+|any\s+)?"
        + STIMULUS
        + r"\b(?:\s+[\w-]+){0,2}?"
        r"\s+my\s+(?:stomach|gut|legs|hr|heart\s+rate|sleep|appetite)\b"
        r"|\b(?:i|they)\s+" + _ADV + r"{0,2}(?:fade|blow\s+up|bonk|overheat|cramp|struggle|suffer)\b(?:\s+\w+){0,4}?\s+"
        r"(?:in|on|with|after|during|when|if)\b"
        # what a kind of session leaves a part of the body as, whatever the session is called: "Box jumps leave my
        # ankles stiff the next day", "backstroke makes my neck ache", "long climbs always leave my forearms pumped"
        r"|\b(?:leaves?|makes?)\s+(?:my|ma)\s+(?:[\w-]+\s+){1,4}?(?:stiff|sore|numb|destroyed|wrecked|in\s+bits|tight"
        r"|heavy|dead|toast|ache|aching|achy|pumped|cooked|fried|trashed|smashed|battered|jelly|shot|burning)\b",
    ),
)
