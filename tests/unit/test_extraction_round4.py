"""Issue 13, round 4: the kinds of miss read in the fifth outside set, and the literal gate that keeps the rules fast.

Sentences written for these tests (not the labelled sets); every new pattern is checked for linear time on a
20,000-character repeat of its own trigger words."""

from __future__ import annotations

import re

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.enums import MemorySource, MemoryType
from domain.extraction import extract_memories, facts, injuries
from domain.extraction.clauses import sentences, statement_clauses
from domain.extraction.prefilter import LiteralGate, required_literals, spaced
from domain.extraction.subject import People
from tests.extraction_eval import DEV_PATH, OUTSIDE_SETS
from tests.unit.test_extraction_linear import (
    GIVE_UP_SECONDS,
    GROWTH,
    TIME_RATIO_BOUND,
    _assert_extraction_is_linear,
    _give_up_after,
    _repeated,
    _time_ratio,
)

MESSAGE = MemorySource.USER_MESSAGE
BIG = 20_000


def found(text: str) -> list[tuple[MemoryType, tuple[str, ...]]]:
    return [(c.type, c.tags) for c in extract_memories(text, MESSAGE)]


def has(text: str, type_: MemoryType, tag: str | None = None) -> bool:
    return any(t is type_ and (tag is None or tag in tags) for t, tags in found(text))


def assert_linear(pattern: re.Pattern[str], unit: str, prefix: str = "") -> None:
    """`pattern` scans a 20,000-character repeat of `unit` in time linear in its length."""
    small, big = _repeated(prefix, unit, BIG // GROWTH), _repeated(prefix, unit, BIG)
    with _give_up_after(GIVE_UP_SECONDS, (pattern.pattern[:60], unit)):
        ratio = _time_ratio(lambda text: sum(1 for _ in pattern.finditer(text)), small, big)
    assert ratio < TIME_RATIO_BOUND, (unit, ratio)


# --- soreness that lasts, or comes in every match, is a training response -----------------------------------------


@pytest.mark.parametrize(
    ("text", "tag"),
    [
        ("Tempo days leave my hip flexors knackered for a day.", "body:hip"),
        ("My quads ache for days after a long descent.", "body:quad"),
        ("Calves stay tight for two days, every time.", "body:calf"),
        ("Forearms cramp in every class.", "body:forearm"),
    ],
)
def test_soreness_that_lasts_or_comes_every_match_is_a_response(text: str, tag: str) -> None:
    assert has(text, MemoryType.TRAINING_RESPONSE, tag)
    assert not has(text, MemoryType.INJURY_HISTORY)


@pytest.mark.parametrize(
    "text",
    [
        "My knee has been aching for three days.",  # still going on
        "Ankle was sore for a day after I rolled it.",  # one time
        "Sharp pain in my shin for two days now.",  # a pain
    ],
)
def test_soreness_still_going_on_stays_an_injury(text: str) -> None:
    assert has(text, MemoryType.INJURY_HISTORY)
    assert not has(text, MemoryType.TRAINING_RESPONSE)


def test_the_athletes_own_i_is_nearer_than_someone_named_before_it() -> None:
    assert has("Since the baby came I'd rather run at lunch.", MemoryType.PREFERENCE, "time:lunch")
    assert not has("My wife would rather run at lunch.", MemoryType.PREFERENCE)


@pytest.mark.parametrize("unit", ["ache for days ", "sore sore for ", "stiff for a day for a day ", "for two days "])
def test_the_lasting_soreness_pattern_is_linear(unit: str) -> None:
    assert_linear(injuries._LASTING_SORENESS_RE, unit)


@pytest.mark.parametrize("unit", ["leaves my calves ", "makes my my my ", "leaves leaves sore "])
def test_the_leaves_sore_pattern_is_linear(unit: str) -> None:
    assert_linear(injuries._LEAVES_SORE_RE, unit)


# --- the literal gate ----------------------------------------------------------------------------------------------


def _labelled_texts() -> list[str]:
    texts = []
    for path in (DEV_PATH, *(p for _, p in OUTSIDE_SETS)):
        if path.exists():
            with path.open(encoding="utf-8") as f:
                texts += [str(case["text"]) for case in yaml.safe_load(f)]
    return texts


def _clauses(texts: list[str]) -> list[str]:
    found = []
    for text in texts:
        people = People(text)
        for sentence, is_question in sentences(text):
            found += [people.lower[c.start : c.end] for c in statement_clauses(text, sentence, is_question)]
    return found


CLAUSES = _clauses(_labelled_texts())


def _turned_away(low: str) -> list[str]:
    """The groups that match `low` but that the gate says cannot."""
    possible = facts._GATE.keys(low)
    return [
        g.rules[0].name
        for g in facts._GROUPS
        if not possible & g.bit and facts._first(g.search, g.match_start, low) is not None
    ]


def test_the_gate_never_turns_away_a_group_that_matches_a_labelled_clause() -> None:
    assert len(CLAUSES) > 3000
    wrong = {low[:80]: _turned_away(low) for low in CLAUSES if _turned_away(low)}
    assert not wrong, list(wrong.items())[:3]


def _fragments() -> list[str]:
    """Pieces of the rules' own literals, to build text that comes near their matches."""
    pieces: set[str] = set()
    for group in facts._GROUPS:
        for rule in group.rules:
            need = required_literals(rule.pattern.pattern) or frozenset()
            pieces |= {p for p in need if p.strip()}
    return sorted(pieces)


FRAGMENTS = _fragments()


@settings(max_examples=400, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from([*FRAGMENTS, " ", " i ", " my ", "'m ", " the ", "s", " and "]), max_size=12))
def test_the_gate_never_turns_away_a_group_that_matches_built_text(parts: list[str]) -> None:
    low = "".join(parts)
    assert not _turned_away(low), low


def test_the_gate_skips_most_groups_on_most_clauses() -> None:
    passed = sum(bin(facts._GATE.keys(low)).count("1") for low in CLAUSES)
    assert passed / (len(CLAUSES) * len(facts._GROUPS)) < 0.5


@pytest.mark.parametrize(
    ("pattern", "literals"),
    [
        # white space, one character or a run, is one space to the gate (prefilter.spaced)
        (r"\bi\s+(?:like|love)\b", {"i like", "i love"}),
        (r"\bmy\s+job\b|\bshifts?\b", {"my job", "shift"}),
        (r"\blong\s+runs?\b", {"long run"}),
        (r"para[-\s]?athlete", {"paraathlete", "para-athlete", "para athlete"}),
        (r"\bi\s*\n\s*am\b", {"i am"}),
    ],
)
def test_required_literals_are_what_every_match_holds(pattern: str, literals: set[str]) -> None:
    assert required_literals(pattern) == literals


@pytest.mark.parametrize(
    ("pattern", "text"),
    [(r"\bi\s+like\b", "so i \t\n like it"), (r"my\s\s+job", "my  job"), (r"a\s*b", "a b"), (r"a\s*b", "ab")],
)
def test_the_gate_lets_through_a_match_whatever_its_white_space(pattern: str, text: str) -> None:
    assert re.search(pattern, text) is not None
    gate = LiteralGate({"x": pattern})
    assert gate.keys(text) == gate.bit["x"]


def test_the_gate_reads_white_space_as_one_space() -> None:
    assert spaced(" a \t b\n") == " a b "
    assert spaced("") == ""
    assert spaced("\n") == " "


@pytest.mark.parametrize("pattern", [r"\w+", r"(?:run)?\s*$", r"a|\d+", r".*"])
def test_a_pattern_that_needs_no_literal_is_never_gated(pattern: str) -> None:
    assert required_literals(pattern) is None
    gate = LiteralGate({"x": pattern})
    assert gate.keys("") == gate.keys("zzz") == 1


def test_the_gate_reports_a_literal_inside_a_longer_one() -> None:
    gate = LiteralGate({"run": r"\brun\b", "running": r"running\s+club", "club": r"club"})
    assert gate.keys("running") == gate.bit["run"]
    assert gate.keys("running  club") == gate.bit["run"] | gate.bit["running"] | gate.bit["club"]
    assert gate.keys("the club") == gate.bit["club"]


@pytest.mark.parametrize("unit", ["runrunning ", "i'm i'm ", "my job my ", "leave my calves sore for days "])
def test_the_gate_scan_is_linear(unit: str) -> None:
    assert facts._GATE._scan is not None
    assert_linear(facts._GATE._scan, unit)


@pytest.mark.parametrize("unit", ["ache for days, ", "every match every match ", "leaves my my my sore "])
def test_extraction_is_linear_on_the_round4_shapes(unit: str) -> None:
    _assert_extraction_is_linear("My calves ", unit)


# --- conditions of the nerves, the blood and the mind are context:health --------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Living with MS since 2015.",
        "I have cerebral palsy, mostly my right side.",
        "Sickle cell trait, so I watch my hydration.",
        "Started HRT in the spring.",
        "I'm on warfarin since the DVT.",
    ],
)
def test_a_condition_or_its_treatment_is_health(text: str) -> None:
    assert has(text, MemoryType.CONTEXT, "context:health")


@pytest.mark.parametrize("text", ["Ran a 300ms reaction test.", "My wife has MS."])
def test_no_condition_of_the_athlete_is_no_health(text: str) -> None:
    assert not has(text, MemoryType.CONTEXT, "context:health")


@pytest.mark.parametrize("unit", ["ms ms ", "sickle cell sickle ", "blood thinners blood ", "spinal cord spinal "])
def test_the_condition_pattern_is_linear(unit: str) -> None:
    rule = next(r for r in facts.RULES if r.name == "health_context")
    assert_linear(rule.lower_pattern or rule.pattern, unit)


# --- the athlete's own team sport ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Playing for the club's thirds this season.",
        "I'm a prop, so the conditioning is hard.",
        "Rec league volleyball every week.",
        "Walking netball on Tuesdays and Fridays.",
        "Netball has always been my main thing.",
        "I used to play rugby at university.",
    ],
)
def test_the_athletes_own_team_sport_is_a_context(text: str) -> None:
    assert has(text, MemoryType.CONTEXT, "context:team sport")


@pytest.mark.parametrize(
    "text",
    [
        "I coach the school hockey team on Wednesdays.",
        "Watching the rugby league on Saturday.",
        "Sprained my ankle at netball on Saturday.",
        "My husband plays for a cricket team.",
    ],
)
def test_a_team_coached_watched_or_someone_elses_is_none(text: str) -> None:
    assert not has(text, MemoryType.CONTEXT, "context:team sport")


@pytest.mark.parametrize(
    "unit",
    ["play for a side ", "rugby rugby league ", "i'm a prop i'm a ", "netball mondays netball ", "used to play play "],
)
def test_the_team_sport_pattern_is_linear(unit: str) -> None:
    rule = next(r for r in facts.RULES if r.name == "team_sport_context")
    assert_linear(rule.lower_pattern or rule.pattern, unit)
    assert rule.not_after is not None
    assert_linear(rule.not_after, "coach watch referee ")
