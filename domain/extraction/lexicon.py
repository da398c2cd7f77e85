"""Entity word lists (seed §4.2), each canonical value with the spellings that mean it, and tag scanning."""

from __future__ import annotations

import re

APOSTROPHE = r"['’]"  # straight or curly

BODY_PARTS: dict[str, str] = {
    "knee": r"knees?|kneecaps?|patell\w*|acl|mcl|meniscus",
    "ankle": r"ankles?",
    "calf": r"calf|calves|soleus",
    "shin": r"shins?",
    "hip": r"hips?(?:\s+flexors?)?",
    "hamstring": r"hamstrings?|hamm(?:y|ies)",
    "quad": r"quads?|quadriceps",
    "achilles": r"achilles(?:" + APOSTROPHE + r"s?)?",
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

WORD_RE = re.compile(r"[\w'’]+")
ANY_BODY_PART = "|".join(BODY_PARTS.values())
ANY_TIME = r"(?:" + "|".join(TIME_PREFERENCES.values()) + r")"


def words(spaced: str) -> frozenset[str]:
    return frozenset(spaced.split())


BODY_WORDS = words(
    "knee knees ankle ankles calf calves shin shins hip hips hamstring hamstrings quad quads achilles foot feet heel"
    " heels back shoulder shoulders glute glutes groin neck"
)


class Lexicon:
    """One alternation with a named group per canonical value, for a single scan."""

    def __init__(self, kind: str, entries: dict[str, str]) -> None:
        self.kind = kind
        self.names = {f"g{i}": value for i, value in enumerate(entries)}
        alternation = "|".join(f"(?P<{g}>{entries[v]})" for g, v in self.names.items())
        self.pattern = re.compile(rf"\b(?:{alternation})\b", re.IGNORECASE)

    def tag(self, match: re.Match[str]) -> str:
        return f"{self.kind}:{self.names[match.lastgroup or '']}"

    def tags(self, text: str) -> list[str]:
        return list(dict.fromkeys(self.tag(m) for m in self.pattern.finditer(text)))


BODY = Lexicon("body", BODY_PARTS)
TIME = Lexicon("time", TIME_PREFERENCES)
INTENSITY = Lexicon("intensity", INTENSITY_TOPICS)
CONTEXT_TOPIC = Lexicon("context", CONTEXT_TOPICS)


def preference_tags(text: str) -> list[str]:
    return TIME.tags(text) + INTENSITY.tags(text)


def all_tags(text: str) -> list[str]:
    return BODY.tags(text) + preference_tags(text) + CONTEXT_TOPIC.tags(text)
