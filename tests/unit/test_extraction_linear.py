"""Extraction takes time linear in the length of the text, whatever the text.

Issue 8: a note of "My left knee hurts", 27 dashes and a letter took 35 s (a trailing-filler
regex with nested repetition backtracked exponentially), and "my knee hurts," 70,000 times
took 834 s (every clause looked through all the clauses of its sentence). Each check here
does the same work at size n and 8n in one run and bounds the ratio: 8 for linear work, 64
for quadratic, far more for exponential. There is no wall-clock limit.
"""

from __future__ import annotations

import importlib
import math
import pkgutil
import re
import signal
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import domain.extraction
from domain.enums import MemorySource, MemoryType
from domain.extraction import extract_memories
from domain.extraction.folding import Folded
from domain.extraction.tidy import strip_trailing_filler

GROWTH = 8
TIME_RATIO_BOUND = 4 * GROWTH  # generous for timing noise, still half of quadratic
# Calls do not vary between runs, so their bound can be tight. Both sizes are past the content
# limit of 2,000 characters, where tidying takes another pass: that step is linear but not smooth.
WORK_RATIO_BOUND = 1.5 * GROWTH
WORK_CHARS = 2500
TIME_CHARS = 1000
MEASURABLE_SECONDS = 0.0002
GIVE_UP_SECONDS = 10  # only so that exponential work fails instead of hanging; typical work takes milliseconds

PREFIX = "My left knee hurts"
SHAPES = [
    "-",
    "–",
    "—",
    ",",
    " ",
    ".!?;:",
    "'",
    "_",
    "\n",
    "a",
    " tbh",
    " lol",
    " haha",
    " imo",
    " anyway",
    " though",
    "my knee hurts,",
    " - ",
    " but ",
    " then ",
    "and i ",
    "i ",
    "her then coach ",
    "Tom has knee pain, has knee pain, ",
    "knee sore, tbh, lol, ",
]
PIECES = [
    *SHAPES,
    "--",
    ", ",
    " – ",
    " — ",
    " anyways",
    " so my ",
    " plus ",
    "(",
    ")",
    "knee",
    "sore",
    "not",
    "my",
    "remember that",
    "please",
    "is it",
    "prefer",
    "morning",
    "x",
]


class _GaveUp(Exception):
    pass


@contextmanager
def _give_up_after(seconds: float, what: object) -> Iterator[None]:
    """Fail work that has not finished in `seconds` (the regex engine checks for signals as it runs)."""

    def stop(signum: int, frame: FrameType | None) -> None:
        raise _GaveUp

    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    except _GaveUp:
        pytest.fail(f"no answer in {seconds} s: super-linear work on {what!r}")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _seconds(work: Callable[[], object], loops: int, tries: int) -> float:
    """The least CPU time of `tries` runs: time the process spends waiting for a busy machine's
    other work does not count (a shared CI core otherwise reads as super-linear work)."""
    best = math.inf
    for _ in range(tries):
        started = time.process_time()
        for _ in range(loops):
            work()
        best = min(best, time.process_time() - started)
    return best


def _time_ratio(work: Callable[[str], object], small: str, big: str) -> float:
    """Time of `work(big)` over `work(small)`, each repeated often enough to be measurable.

    A ratio over the bound is measured again, keeping the least of three, then seven tries of each
    size: a pause of the machine during one try is not the work's doing.
    """
    loops = 1
    while _seconds(lambda: work(small), loops, 1) < MEASURABLE_SECONDS:
        loops *= 4
    ratio = math.inf
    for tries in (1, 3, 7):
        ratio = _seconds(lambda: work(big), loops, tries) / _seconds(lambda: work(small), loops, tries)
        if ratio < TIME_RATIO_BOUND:
            break
    return ratio


def _calls(work: Callable[[], object]) -> int:
    """Python and builtin function calls made by `work`: a measure of work that does not vary between runs."""
    count = 0

    def profile(frame: FrameType, event: str, arg: object) -> None:
        nonlocal count
        count += 1

    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        work()
    finally:
        sys.setprofile(previous)
    return count


def _repeated(prefix: str, unit: str, chars: int) -> str:
    return prefix + unit * max(1, chars // len(unit)) + "x"


# --- every pattern -----------------------------------------------------------------------------


def _patterns_in(value: object) -> Iterator[re.Pattern[str]]:
    if isinstance(value, re.Pattern):
        yield value
    elif isinstance(value, tuple | list):
        for item in value:
            yield from _patterns_in(item)
    elif isinstance(value, Folded):  # the pattern as written, then its lower-case form
        yield from value.compiled
    elif isinstance(getattr(value, "pattern", None), re.Pattern):
        yield value.pattern  # type: ignore[attr-defined]


def _all_patterns() -> dict[str, re.Pattern[str]]:
    """Every compiled pattern of the package, once, named where it is first seen."""
    found: dict[int, tuple[str, re.Pattern[str]]] = {}
    for module_info in pkgutil.iter_modules(domain.extraction.__path__):
        module = importlib.import_module(f"domain.extraction.{module_info.name}")
        for name, value in vars(module).items():
            for i, pattern in enumerate(_patterns_in(value)):
                found.setdefault(id(pattern), (f"{module_info.name}.{name}[{i}]", pattern))
    return dict(found.values())


PATTERNS = _all_patterns()
# Used only with .match or .fullmatch at a position the caller chose (the start of a sentence, the
# end of a body part). Each begins with a repetition (\W*, \w+) that a search would start again
# from every position of a long run, reading the rest of the run each time.
MATCH_ONLY = {
    "clauses._BARE_QUESTION_RE[0]",
    "clauses._BARE_QUESTION_RE[1]",
    "extractor._EXPLICIT_RE[0]",
    "extractor._EXPLICIT_RE[1]",
    "injuries._POSITIVE_STATE_RE[0]",
    "injuries._POSITIVE_STATE_RE[1]",
    "injuries._EXERCISE_LOW_RE[0]",
    "tidy._ADJ_AFTER_BODY_RE[0]",
}


def _scan(name: str, pattern: re.Pattern[str]) -> Callable[[str], object]:
    if name in MATCH_ONLY:
        return lambda text: (pattern.match(text), pattern.match(text, len(PREFIX)))
    return lambda text: sum(1 for _ in pattern.finditer(text))


def test_the_pattern_list_is_complete() -> None:
    assert len(PATTERNS) >= 50
    assert set(MATCH_ONLY) <= set(PATTERNS)
    assert any(p.flags & re.IGNORECASE for p in PATTERNS.values())


@pytest.mark.parametrize("unit", SHAPES)
def test_every_pattern_is_linear_on_repetitions(unit: str) -> None:
    small, big = _repeated(PREFIX, unit, 500), _repeated(PREFIX, unit, GROWTH * 500)
    ratios = {}
    for name, pattern in PATTERNS.items():
        with _give_up_after(GIVE_UP_SECONDS, (name, unit)):
            ratios[name] = _time_ratio(_scan(name, pattern), small, big)
    slow = {name: round(ratio, 1) for name, ratio in ratios.items() if ratio >= TIME_RATIO_BOUND}
    assert not slow, slow


# --- the whole extraction ----------------------------------------------------------------------


def _assert_extraction_is_linear(prefix: str, unit: str) -> None:
    def extract(text: str) -> object:
        return extract_memories(text, MemorySource.ACTIVITY_NOTE)

    with _give_up_after(GIVE_UP_SECONDS, (prefix, unit)):
        small, big = _repeated(prefix, unit, WORK_CHARS), _repeated(prefix, unit, GROWTH * WORK_CHARS)
        work = _calls(lambda: extract(big)) / _calls(lambda: extract(small))
        small, big = _repeated(prefix, unit, TIME_CHARS), _repeated(prefix, unit, GROWTH * TIME_CHARS)
        ratio = _time_ratio(extract, small, big)
    assert work < WORK_RATIO_BOUND, (prefix, unit, work)
    assert ratio < TIME_RATIO_BOUND, (prefix, unit, ratio)


@pytest.mark.parametrize("unit", SHAPES)
def test_extraction_is_linear_on_repetitions(unit: str) -> None:
    _assert_extraction_is_linear(PREFIX, unit)


@settings(max_examples=15, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(
    prefix=st.sampled_from(["", PREFIX, "I prefer morning runs", "Remember that "]),
    unit=st.lists(st.sampled_from(PIECES), min_size=2, max_size=4).map("".join),
)
def test_extraction_is_linear_on_mixed_repetitions(prefix: str, unit: str) -> None:
    _assert_extraction_is_linear(prefix, unit)


# --- the inputs that were reported -------------------------------------------------------------


def test_a_run_of_dashes_before_a_letter_extracts() -> None:
    [c] = extract_memories("My left knee hurts" + "-" * 27 + "x", MemorySource.ACTIVITY_NOTE)
    assert (c.type, c.tags) == (MemoryType.INJURY_HISTORY, ("body:knee",))
    assert c.content.startswith("Left knee hurts")


def test_a_long_list_of_the_same_clause_is_one_memory() -> None:
    [c] = extract_memories("my knee hurts," * 2000, MemorySource.ACTIVITY_NOTE)
    assert (c.type, c.tags) == (MemoryType.INJURY_HISTORY, ("body:knee",))
    assert c.content.startswith("Knee hurts")


def test_trailing_filler_is_stripped() -> None:
    assert strip_trailing_filler("knee sore, tbh!! lol -- anyway.") == "knee sore"
    assert strip_trailing_filler("knee sore---x") == "knee sore---x"
    assert strip_trailing_filler("the hahaha") == "the hahaha"
    assert strip_trailing_filler(" tbh") == ""


# The rule the scan replaces, written the plain way; on short strings its backtracking is cheap.
_PLAIN_TRAILING_FILLER_RE = re.compile(
    r"(?:[\s,;:.!?\-–—]+|\s+(?:though|tbh|lol|haha|imo|anyways?)\b)+$", re.IGNORECASE
)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    st.lists(st.sampled_from(["-", "—", ",", " ", "\t", "!", "x", "tbh", "TBH", "lol", "anyway", "s", "o"]), max_size=8)
)
def test_trailing_filler_scan_agrees_with_the_plain_rule(parts: list[str]) -> None:
    text = "".join(parts)
    assert strip_trailing_filler(text) == _PLAIN_TRAILING_FILLER_RE.sub("", text)
