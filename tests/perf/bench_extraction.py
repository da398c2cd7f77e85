"""Extraction benchmark: texts per second on one core, long notes of awkward shapes, and quality
beside the seed's patterns.

Run from the project root: `python -m tests.perf.bench_extraction`.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

from domain.enums import MemorySource
from domain.extraction import extract_memories, prepare
from tests.extraction_eval import Scores, evaluate, load_cases
from tests.perf.seed_baseline import seed_extract

CASES_PATH = Path(__file__).resolve().parents[1] / "data" / "extraction_cases.yaml"
MIN_TEXTS = 5000
LONG_NOTE_CHARS = 20_000


def _throughput(texts: list[str]) -> tuple[int, float]:
    repeated = texts * (MIN_TEXTS // len(texts) + 1)
    start = time.perf_counter()
    for text in repeated:
        extract_memories(text, MemorySource.ACTIVITY_NOTE)
    return len(repeated), time.perf_counter() - start


def _long_notes(cases: list[str]) -> dict[str, str]:
    """Notes of LONG_NOTE_CHARS characters, each of a shape that once made some pattern or loop slow."""

    def fill(unit: str, head: str = "") -> str:
        return (head + unit * (LONG_NOTE_CHARS // len(unit) + 1))[:LONG_NOTE_CHARS]

    return {
        "prose (labelled notes)": fill(" ".join(cases)),
        "dashes": fill("-", "My left knee hurts"),
        "commas": fill(",", "My left knee hurts"),
        "repeated phrase": fill("my knee hurts,"),
        "one unpunctuated sentence": fill(re.sub(r"[^\w' ]+", " ", " ".join(cases))),
    }


def _slowest_ms(text: str, runs: int = 3) -> float:
    slowest = 0.0
    for _ in range(runs):
        start = time.perf_counter()
        extract_memories(text, MemorySource.ACTIVITY_NOTE)
        slowest = max(slowest, time.perf_counter() - start)
    return slowest * 1000


def _line(label: str, s: Scores) -> str:
    return (
        f"{label:<22} precision {s.precision:6.3f}   recall {s.recall:6.3f}   F1 {s.f1:6.3f}   "
        f"(tp {s.tp:3d}, fp {s.fp:3d}, fn {s.fn:3d})"
    )


def run() -> None:
    cases = load_cases(CASES_PATH)
    start = time.process_time()
    prepare()  # the rules compile once, on first use: not part of the throughput
    compiled = time.process_time() - start
    count, seconds = _throughput([c.text for c in cases])
    ours = evaluate(cases, extract_memories)
    seed = evaluate(cases, seed_extract)
    print(f"labelled set: {len(cases)} texts, {sum(len(c.expect) for c in cases)} expected memories")
    rate = f"{count / seconds:,.0f} texts/s"
    print(f"{'extraction throughput':<22} {rate}   ({count} texts in {seconds:.2f} s, one core)")
    print(f"{'compiling the rules':<22} {compiled:.2f} s of CPU, once per process")
    for shape, text in _long_notes([c.text for c in cases]).items():
        print(f"{len(text):,}-character note, {shape:<26} {_slowest_ms(text):7.1f} ms (slowest of 3)")
    print(_line("rules (ours)", ours))
    print(_line("seed patterns (M13)", seed))


if __name__ == "__main__":
    run()
