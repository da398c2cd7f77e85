"""Precision and recall of an extractor on a labelled set (tests/data/extraction_cases.yaml).

A prediction matches an expected memory when the type is equal and the expected tags are a
subset of the predicted tags (no expected tags: the type suffices). Each expected memory and
each prediction is used at most once; the expectations with the most tags are matched first so
that a loose expectation does not take the prediction a precise one needs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import yaml

from domain.enums import MemorySource, MemoryType


class Predicted(Protocol):
    @property
    def type(self) -> MemoryType: ...

    @property
    def tags(self) -> Sequence[str]: ...


@dataclass(frozen=True)
class Expected:
    type: MemoryType
    tags: tuple[str, ...] = ()
    content_contains: str | None = None


@dataclass(frozen=True)
class Case:
    text: str
    source: MemorySource
    expect: tuple[Expected, ...]


@dataclass(frozen=True)
class Scores:
    precision: float
    recall: float
    f1: float
    tp: int
    fp: int
    fn: int


ExtractFn = Callable[[str, MemorySource], Sequence[Predicted]]


def parse_cases(raw: Iterable[Mapping[str, Any]]) -> list[Case]:
    cases = []
    for item in raw:
        expect = tuple(
            Expected(MemoryType(e["type"]), tuple(e.get("tags") or ()), e.get("content_contains"))
            for e in item.get("expect") or ()
        )
        cases.append(Case(str(item["text"]), MemorySource(item["source"]), expect))
    return cases


def load_cases(path: Path) -> list[Case]:
    with path.open(encoding="utf-8") as f:
        return parse_cases(yaml.safe_load(f))


def match_case(expected: Sequence[Expected], predicted: Sequence[Predicted]) -> tuple[int, int, int]:
    """(true positives, false positives, false negatives) for one text."""
    used: set[int] = set()
    tp = 0
    for exp in sorted(expected, key=lambda e: -len(e.tags)):
        for i, pred in enumerate(predicted):
            if i not in used and pred.type == exp.type and set(exp.tags) <= set(pred.tags):
                used.add(i)
                tp += 1
                break
    return tp, len(predicted) - len(used), len(expected) - tp


def evaluate(cases: Iterable[Case], extract_fn: ExtractFn) -> Scores:
    tp = fp = fn = 0
    for case in cases:
        t, p, n = match_case(case.expect, extract_fn(case.text, case.source))
        tp, fp, fn = tp + t, fp + p, fn + n
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return Scores(precision, recall, f1, tp, fp, fn)
