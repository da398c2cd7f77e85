"""Training of the clause-level learned stage (tests/experiments/learned.py), for issue 13; not in the app.

Re-runnable, plain Python (no scikit-learn, no numpy), on the development set and the outside development set
(tests/data/extraction_outside.yaml, another writer's phrasing); never on the blind set:

    .venv/bin/python -m tests.experiments.learned_clauses             # CV figures, then writes the weights
    .venv/bin/python -m tests.experiments.learned_clauses --dry       # CV figures only
    .venv/bin/python -m tests.experiments.learned_clauses --dev-only  # the development set alone

Labels per clause come from the text's labels. A clause a rule candidate covers is labelled with the
types of the candidates there that match an expected memory (none when they do not). A clause no rule
covers is negative when the text has no expected memory left unmatched; when it has one, the clause
is labelled with it if the clause names its tags (or holds its `content_contains`, or is the text's
only silent clause); silent clauses of such a text that cannot be told apart are left out.

The model is one logistic regression per type (AdaGrad SGD, L2), over words, word pairs and word stems.
Thresholds are chosen per type (`choose`) from 5-fold cross-validation over the 1,344 texts and from a
cross-writer check (trained on dev, read on outside): the lowest threshold at which the type's additions to
the rules on held-out folds are >= MIN_ADDED_PRECISION precise and the stage alone (rules off, as on text
whose phrasings the rules do not know) is >= MIN_ALONE_PRECISION precise in both; rules + learned must keep
precision >= MIN_PRECISION on the held-out folds.

Figures of the shipped weights (2,296 labelled clauses): rules alone on held-out folds P 0.951 R 0.901;
one threshold for all types, 0.50: rules + learned P 0.931 R 0.918, stage alone P 0.908 R 0.541; 0.75: P 0.944
R 0.910, alone P 0.942 R 0.438; 0.90: P 0.951 R 0.906, alone P 0.973 R 0.334. Cross-writer, stage alone at
0.75: P 0.886 R 0.441 (preference 0.82, context 0.82). Chosen: injury 0.90, preference 0.97, training response
0.75, context never: held-out P 0.951 R 0.905 F1 0.927 (rules 0.951/0.901/0.925). Blind: see learned.py.
"""

from __future__ import annotations

import json
import math
import random
import sys
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from domain.enums import MemorySource, MemoryType
from domain.extraction import Candidate, RuleExtractor
from domain.extraction.clauses import Span, sentences, statement_clauses
from domain.extraction.subject import People
from domain.vocabulary import tags_in
from tests.experiments.learned import WEIGHTS_FILE, Model, features, learned_candidates, read_clauses, with_learned
from tests.extraction_eval import DEV_PATH, OUTSIDE_PATH, Case, Expected, Tally, evaluate, load_cases, per_type

TYPES = (MemoryType.INJURY_HISTORY, MemoryType.PREFERENCE, MemoryType.CONTEXT, MemoryType.TRAINING_RESPONSE)
THRESHOLDS = (0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 0.97, 0.99)
MIN_PRECISION = 0.95
MIN_ADDED_PRECISION = 0.8  # what the stage adds to the rules on held-out texts
MIN_ALONE_PRECISION = 0.90  # margin: text the rules do not know reads less like the development set
FOLDS = 5
SEED = 13
EPOCHS = 20
RATE = 0.3
L2 = 3e-3
MIN_COUNT = 1
MIN_TAG_COUNT = 5
PRUNE = 0.02  # a feature whose weights are all smaller is left out of the file
OUT = Path(__file__).resolve().parent / WEIGHTS_FILE


@dataclass(frozen=True)
class Example:
    features: tuple[str, ...]
    labels: frozenset[MemoryType]
    tags: frozenset[str] = frozenset()


def _overlaps(a: Span, start: int, end: int) -> bool:
    return a.start < end and start < a.end


def _pairs(expected: Sequence[Expected], found: Sequence[Candidate]) -> dict[int, int]:
    """Prediction index -> expectation index, the greedy matching of tests/extraction_eval.py."""
    pairs: dict[int, int] = {}
    for e in sorted(range(len(expected)), key=lambda i: -len(expected[i].tags)):
        for i, pred in enumerate(found):
            if i not in pairs and pred.type == expected[e].type and set(expected[e].tags) <= set(pred.tags):
                pairs[i] = e
                break
    return pairs


def examples(case: Case) -> list[Example]:
    """The labelled clauses of one text (see the module's docstring)."""
    found = RuleExtractor().extract(case.text, case.source)
    pairs = _pairs(case.expect, found)
    missing = [e for i, e in enumerate(case.expect) if i not in set(pairs.values())]
    people = People(case.text)
    labelled: list[tuple[Span, list[Expected]]] = []
    silent: list[Span] = []
    for sentence, is_question in sentences(case.text):
        for clause in statement_clauses(case.text, sentence, is_question):
            over = [i for i, c in enumerate(found) if _overlaps(clause, c.evidence_start, c.evidence_end)]
            if over:
                labelled.append((clause, [case.expect[pairs[i]] for i in over if i in pairs]))
            else:
                silent.append(clause)
    assigned: dict[Span, list[Expected]] = {}
    unsure = False
    for exp in missing:
        said = [s for s in silent if set(exp.tags) <= set(tags_in(case.text[s.start : s.end]))]
        if exp.content_contains:
            said = [s for s in said if exp.content_contains.lower() in people.lower[s.start : s.end]] or said
        if len(said) == 1 or (said and exp.tags):
            assigned.setdefault(said[0], []).append(exp)
        else:
            unsure = True
    for clause in silent:
        if clause in assigned:
            labelled.append((clause, assigned[clause]))
        elif not unsure:
            labelled.append((clause, []))
    return [
        Example(
            tuple(features(people.lower[s.start : s.end], people.third_person)),
            frozenset(e.type for e in exps),
            frozenset(t for e in exps for t in e.tags),
        )
        for s, exps in labelled
    ]


def _fit(rows: Sequence[tuple[Sequence[str], Sequence[bool]]], kept: set[str], n: int) -> tuple[list[float], dict]:
    """One logistic regression per output over `kept` features: AdaGrad SGD with L2, a fixed shuffle."""
    weights: dict[str, list[float]] = {f: [0.0] * n for f in kept}
    squares: dict[str, list[float]] = {f: [1e-8] * n for f in kept}
    bias, bias_squares = [0.0] * n, [1e-8] * n
    order = list(range(len(rows)))
    rng = random.Random(SEED)
    for _ in range(EPOCHS):
        rng.shuffle(order)
        for i in order:
            feats, ys = rows[i]
            for k in range(n):
                score = bias[k] + sum(weights[f][k] for f in feats)
                p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, score))))
                g = p - ys[k]
                bias_squares[k] += g * g
                bias[k] -= RATE * g / math.sqrt(bias_squares[k])
                for f in feats:
                    gf = g + L2 * weights[f][k]
                    squares[f][k] += gf * gf
                    weights[f][k] -= RATE * gf / math.sqrt(squares[f][k])
    rounded = {f: tuple(round(w, 3) for w in ws) for f, ws in weights.items() if max(map(abs, ws)) >= PRUNE}
    return [round(b, 3) for b in bias], rounded


def train(data: Sequence[Example], threshold: float = 0.5) -> Model:
    counts = Counter(f for ex in data for f in ex.features)
    kept = {f for f, n in counts.items() if n >= MIN_COUNT}
    rows = [([f for f in ex.features if f in kept], [t in ex.labels for t in TYPES]) for ex in data]
    bias, weights = _fit(rows, kept, len(TYPES))
    positive = [ex for ex in data if ex.labels]
    tag_counts = Counter(t for ex in positive for t in ex.tags)
    tags = tuple(sorted(t for t, n in tag_counts.items() if n >= MIN_TAG_COUNT))
    tag_rows = [([f for f in ex.features if f in kept], [t in ex.tags for t in tags]) for ex in positive]
    tag_bias, tag_weights = _fit(tag_rows, kept, len(tags))
    return Model(TYPES, tuple(bias), weights, threshold, tags, tuple(tag_bias), tag_weights)


ExtractFn = Callable[[str, MemorySource], Sequence[Candidate]]


def rules_and_learned(model: Model) -> ExtractFn:
    """The rules with the learned stage beside them."""

    def extract(text: str, source: MemorySource) -> Sequence[Candidate]:
        return with_learned(text, source, model)

    return extract


def learned_alone(model: Model) -> ExtractFn:
    """The learned stage on every statement clause, the rules off: a stand-in for text whose phrasings the
    rules do not know."""

    def extract(text: str, source: MemorySource) -> Sequence[Candidate]:
        people = People(text)
        return learned_candidates(text, people, read_clauses(text, people), [], model)

    return extract


def folds(n: int) -> list[list[int]]:
    order = list(range(n))
    random.Random(SEED).shuffle(order)
    return [order[k::FOLDS] for k in range(FOLDS)]


Tallies = dict[MemoryType | None, Tally]


def _add(into: Tallies, more: Tallies) -> None:
    for key, t in more.items():
        got = into.setdefault(key, Tally())
        got.tp, got.fp, got.fn, got.fragments = got.tp + t.tp, got.fp + t.fp, got.fn + t.fn, got.fragments + t.fragments


@dataclass
class Held:
    """Tallies on held-out texts: the rules alone, and per threshold rules + learned and learned alone."""

    rules: Tallies = field(default_factory=dict)
    both: dict[float, Tallies] = field(default_factory=dict)
    alone: dict[float, Tallies] = field(default_factory=dict)


def _score(held: Held, model: Model, cases: Sequence[Case]) -> None:
    _add(held.rules, per_type(cases, RuleExtractor().extract)[0])
    for threshold in THRESHOLDS:
        m = replace(model, threshold=threshold, strict={})
        _add(held.both.setdefault(threshold, {}), per_type(cases, rules_and_learned(m))[0])
        _add(held.alone.setdefault(threshold, {}), per_type(cases, learned_alone(m))[0])


def cross_validate(cases: Sequence[Case]) -> Held:
    """Per threshold (the same for every type), summed over the folds of texts."""
    per_case = [examples(case) for case in cases]
    held = Held()
    for test in folds(len(cases)):
        out = set(test)
        model = train([ex for i, exs in enumerate(per_case) if i not in out for ex in exs])
        _score(held, model, [cases[i] for i in test])
    return held


def cross_writer(dev: Sequence[Case], outside: Sequence[Case]) -> Held:
    """Trained on our development set only, scored on the outside writer's texts: how the stage reads a
    writer it has not seen."""
    held = Held()
    _score(held, train([ex for case in dev for ex in examples(case)]), outside)
    return held


def _line(name: str, t: Tally) -> str:
    s = t.scores()
    return f"{name} P {s.precision:.3f} R {s.recall:.3f} F1 {s.f1:.3f} (tp {s.tp} fp {s.fp} fn {s.fn})"


def show(title: str, held: Held) -> None:
    """Overall lines per threshold, then per type: what the stage adds to the rules (tp, fp of the
    additions) and the stage alone's precision."""
    print(title)
    print("  " + _line("rules alone:", held.rules[None]))
    for threshold in THRESHOLDS:
        both, alone = held.both[threshold], held.alone[threshold]
        print(f"  {threshold:.2f}: " + _line("rules + learned", both[None]) + " | " + _line("alone", alone[None]))
    for type_ in TYPES:
        cells = []
        for threshold in THRESHOLDS:
            b, r, a = held.both[threshold][type_], held.rules[type_], held.alone[threshold][type_]
            ap = a.tp / (a.tp + a.fp) if a.tp + a.fp else 1.0
            cells.append(f"{threshold:.2f}:+{b.tp - r.tp}/{b.fp - r.fp} {ap:.2f}")
        print(f"  {type_.value} (added tp/fp, alone P): " + "  ".join(cells))


def choose(cv: Held, writer: Held) -> tuple[float, dict[MemoryType, float]]:
    """Per type, the lowest threshold whose additions on held-out folds are >= MIN_ADDED_PRECISION precise
    and at which the stage alone stays >= MIN_ALONE_PRECISION precise both on held-out folds and on the
    outside writer's texts; then the overall threshold is the lowest of these, and rules + learned must keep
    precision >= MIN_PRECISION on the held-out folds with the chosen thresholds (else every type moves up)."""
    chosen: dict[MemoryType, float] = {}
    for type_ in TYPES:
        for threshold in THRESHOLDS:
            b, r = cv.both[threshold][type_], cv.rules[type_]
            added_tp, added_fp = b.tp - r.tp, b.fp - r.fp
            added = added_tp / (added_tp + added_fp) if added_tp + added_fp else 1.0
            alone = [h.alone[threshold][type_] for h in (cv, writer)]
            precise = all(a.tp / (a.tp + a.fp) >= MIN_ALONE_PRECISION for a in alone if a.tp + a.fp)
            if added >= MIN_ADDED_PRECISION and precise:
                chosen[type_] = threshold
                break
        else:
            chosen[type_] = 1.01  # never
    return min(chosen.values()), chosen


def combined(held: Held, chosen: Mapping[MemoryType, float]) -> Tally:
    """Rules + learned on the held-out texts with each type at its own threshold (the types are scored
    apart: a type's threshold does not change what the stage says of another type)."""
    total = Tally()
    for type_, t in held.rules.items():
        if type_ is None:
            continue
        got = held.both[chosen[type_]][type_] if type_ in chosen and chosen[type_] <= 1 else t
        total.tp, total.fp, total.fn = total.tp + got.tp, total.fp + got.fp, total.fn + got.fn
    return total


def main(argv: Sequence[str]) -> None:
    dev = load_cases(DEV_PATH)
    outside = [] if "--dev-only" in argv else load_cases(OUTSIDE_PATH)
    cases = dev + outside
    data = [ex for case in cases for ex in examples(case)]
    positives = Counter(t.value for ex in data for t in ex.labels)
    print(f"clauses: {len(data)}, negative {sum(not ex.labels for ex in data)}, positive {dict(positives)}")
    cv = cross_validate(cases)
    show(f"dev + outside, {FOLDS}-fold over {len(cases)} texts", cv)
    writer = cross_writer(dev, outside) if outside else cv
    if outside:
        show("trained on dev, scored on outside", writer)
    threshold, per_type_thresholds = choose(cv, writer)
    print(f"chosen: {threshold}, per type { ({t.value: v for t, v in per_type_thresholds.items()}) }")
    print("  " + _line("held-out folds, rules + learned at these thresholds:", combined(cv, per_type_thresholds)))
    if combined(cv, per_type_thresholds).scores().precision < MIN_PRECISION:
        print(f"  below {MIN_PRECISION}: not written")
        return
    model = train(data, threshold)
    model = replace(model, strict={t: v for t, v in per_type_thresholds.items() if v > threshold})
    for name, part in (("dev", dev), ("outside", outside)):
        r, f = evaluate(part, RuleExtractor().extract), evaluate(part, rules_and_learned(model))
        print(
            f"{name}, trained on all: rules P {r.precision:.3f} R {r.recall:.3f} F1 {r.f1:.3f}"
            f" -> rules + learned P {f.precision:.3f} R {f.recall:.3f} F1 {f.f1:.3f}"
        )
    print(f"features kept: {len(model.weights)}, learned tags: {', '.join(model.tags)}")
    if "--dry" not in argv:
        OUT.write_text(json.dumps(model.to_dict(), separators=(",", ":")) + "\n", encoding="utf-8")
        print(f"wrote {OUT}")


if __name__ == "__main__":
    main(sys.argv[1:])
