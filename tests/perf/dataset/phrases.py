"""Athlete language for the generated data: phrase templates filled with body parts, sessions,
times and places, so content reads like what athletes write and search has common and rare words.

Word frequencies are shaped on purpose (measured over 1,000,000 generated memories, roughly):
"knee" in about a quarter of all memories, "run" (runs, running: one stem) in about half,
"plantar" in about 1 in 1,000 and "sesamoid" in about 1 in 20,000. Place names made of
syllables give a long tail of words that occur a few times each.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from domain.enums import MemoryType

COMMON_WORDS = ("knee", "run")
RARE_WORDS = ("plantar", "sesamoid")

BODY = ["knee"] * 9 + [
    "calf",
    "hamstring",
    "achilles",
    "hip",
    "shin",
    "ankle",
    "lower back",
    "shoulder",
    "foot",
    "glute",
]
SIDES = ["Left", "Right", "Both", "The"]
SESSIONS = [
    "long runs",
    "easy runs",
    "tempo runs",
    "intervals",
    "hill repeats",
    "track sessions",
    "trail runs",
    "races",
    "strength work",
    "swims",
]
TIMES = ["morning", "evening", "lunchtime", "early", "late", "weekend"]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
SURFACES = ["the track", "trails", "the treadmill", "tarmac", "grass", "sand"]
JOBS = ["nurse", "teacher", "engineer", "chef", "student", "bus driver", "lawyer", "farmer", "paramedic"]
EVENTS = ["marathon", "half marathon", "10k", "trail ultra", "parkrun", "triathlon", "cross-country season"]
MONTHS = ["March", "April", "May", "June", "September", "October", "November"]
FEELINGS = ["tired", "strong", "sluggish", "fresh", "sore", "heavy-legged", "flat"]
RECOVERY = ["quickly", "slowly", "well", "badly"]
_SYLLABLES = ["ka", "lo", "mi", "ra", "ten", "vus", "dor", "pel", "sin", "tra", "bo", "gue", "nix", "fal"]
PLACES = sorted({(a + b + c).capitalize() for a in _SYLLABLES for b in _SYLLABLES for c in _SYLLABLES})

TAG_TIME = {"morning": "time:morning", "evening": "time:evening", "lunchtime": "time:lunch", "early": "time:early"}


@dataclass(frozen=True)
class Phrase:
    content: str
    tags: tuple[str, ...]
    first_person: str  # the sentence an athlete wrote that the content was taken from


def _body_tag(body: str) -> str:
    return "body:" + body.replace("lower ", "")


def phrase(rng: random.Random, memory_type: MemoryType) -> Phrase:
    """One memory's content, its entity tags, and the sentence it came from."""
    body, session = rng.choice(BODY), rng.choice(SESSIONS)
    if rng.random() < 0.001:
        body = "plantar fascia" if rng.random() < 0.95 else "sesamoid"
    body_tags = (_body_tag(body.split()[0] if body.startswith("plantar") else body),)
    when = rng.choice(TIMES)
    time_tags = (TAG_TIME[when],) if when in TAG_TIME else ()
    choice = rng.randrange(4)
    content: str
    said: str
    tags: tuple[str, ...]
    if memory_type == MemoryType.INJURY_HISTORY:
        side = rng.choice(SIDES)
        content, said, tags = [
            (f"{side} {body} pain after {session}", f"my {body} hurt after the {session}", body_tags),
            (f"{body.capitalize()} gets tight on {rng.choice(SURFACES)}", f"{body} was tight again", body_tags),
            (f"Old {body} injury flares up during {session}", f"the old {body} injury is back", body_tags),
            (f"Sore {body} since the {rng.choice(EVENTS)}", f"still a sore {body}", body_tags),
        ][choice]
    elif memory_type == MemoryType.INSIGHT:
        content, said, tags = [
            (f"Recurring {body} trouble after {session}", f"{body} again after {session}", body_tags),
            (f"Pace drops on {when} runs in the heat", "slow in the heat today", time_tags),
            (f"Sleeps badly before {rng.choice(EVENTS)} races", "barely slept before the race", ()),
            (f"Runs faster with the club on {rng.choice(WEEKDAYS)}s", "club run felt quick", ("context:club",)),
        ][choice]
    elif memory_type == MemoryType.PREFERENCE:
        content, said, tags = [
            (f"Prefers {when} runs", f"I prefer running in the {when}", time_tags),
            (f"Likes {session} on {rng.choice(SURFACES)}", f"I love {session}", ("intensity:" + session,)),
            (f"Dislikes {session} on the treadmill", "I hate the treadmill", ("intensity:" + session,)),
            (f"Enjoys {when} sessions with a friend", "running with a friend is best", time_tags),
        ][choice]
    elif memory_type == MemoryType.CONTEXT:
        job = rng.choice(JOBS)
        content, said, tags = [
            (f"Works as a {job}, long shifts", f"I work as a {job}", ("context:work",)),
            (f"Training for the {rng.choice(EVENTS)} in {rng.choice(MONTHS)}", "the race is coming", ("context:goal",)),
            (f"Has {rng.randrange(1, 4)} kids, runs before they wake up", "kids up early again", ("context:family",)),
            (f"Commutes by bike {rng.randrange(2, 6)} days a week", "cycled to work", ("context:commute",)),
        ][choice]
    else:
        content, said, tags = [
            (f"Feels {rng.choice(FEELINGS)} after {session}", f"felt {rng.choice(FEELINGS)} after {session}", ()),
            (f"Recovers {rng.choice(RECOVERY)} from {session}", "legs came back after two days", ()),
            (f"Heart rate drifts up on {session} in the heat", "heart rate high today", ()),
            (f"{body.capitalize()} stiff the day after {session}", f"{body} stiff this morning", body_tags),
        ][choice]
    if rng.random() < 0.3:
        content += f" near {rng.choice(PLACES)}"
    return Phrase(content, tags, said)


def note(rng: random.Random, said: str) -> tuple[str, int, int]:
    """An activity note or message around one sentence; the sentence's span in it."""
    distance = rng.randrange(4, 36)
    before = rng.choice(
        [f"{distance} km {rng.choice(SESSIONS)} this {rng.choice(TIMES)}.", "Quick update.", "Session done."]
    )
    after = rng.choice(["Otherwise fine.", f"Avg pace {rng.randrange(4, 7)}:{rng.randrange(60):02d}/km.", "More soon."])
    sentence = said[0].upper() + said[1:] + "."
    start = len(before) + 1
    return f"{before} {sentence} {after}", start, start + len(sentence)


def edited(rng: random.Random, content: str) -> str:
    """What a memory said before the athlete edited it."""
    return rng.choice([content.lower(), content + " (maybe)", content.split(" near ")[0] + "?"])
