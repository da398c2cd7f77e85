"""Training of the clause-level learned stage (tests/experiments/learned.py), for issue 13; not in the app.

Re-runnable, plain Python (no scikit-learn, no numpy), development set only:

    .venv/bin/python -m tests.experiments.learned_clauses          # CV figures, then writes the weights
    .venv/bin/python -m tests.experiments.learned_clauses --dry    # CV figures only

Labels per clause come from the text's labels. A clause a rule candidate covers is labelled with the
types of the candidates there that match an expected memory (none when they do not). A clause no rule
covers is negative when the text has no expected memory left unmatched; when it has one, the clause
is labelled with it if the clause names its tags (or holds its `content_contains`, or is the text's
only silent clause); silent clauses of such a text that cannot be told apart are left out.

The model is one logistic regression per type (AdaGrad SGD, L2), over words and word pairs seen at least
twice. The threshold is chosen by 5-fold cross-validation over texts: the lowest threshold at which
rules + learned keeps precision >= MIN_PRECISION on the held-out folds and the learned stage alone
(rules off, as on text whose phrasings the rules do not know) keeps precision >= MIN_ALONE_PRECISION.
"""

from __future__ import annotations

import json
import math
import random
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from domain.enums import MemorySource, MemoryType
from domain.extraction import Candidate, RuleExtractor
from domain.extraction.clauses import Span, sentences, statement_clauses
from domain.extraction.subject import People
from domain.vocabulary import tags_in
from tests.experiments.learned import WEIGHTS_FILE, Model, features, learned_candidates, read_clauses, with_learned
from tests.extraction_eval import DEV_PATH, Case, Expected, evaluate, load_cases

TYPES = (MemoryType.INJURY_HISTORY, MemoryType.PREFERENCE, MemoryType.CONTEXT, MemoryType.TRAINING_RESPONSE)
THRESHOLDS = (0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95)
MIN_PRECISION = 0.97
MIN_ALONE_PRECISION = 0.90  # margin: text the rules do not know reads less like the development set
FOLDS = 5
SEED = 13
EPOCHS = 20
RATE = 0.3
L2 = 3e-3
MIN_COUNT = 1
MIN_TAG_COUNT = 5
# A learned context needs this much whatever the threshold: small talk names life topics too ("Two kids
# overtook me", "Training for an hour"), and the rules' own context is the least precise type.
CONTEXT_THRESHOLD = 0.9
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
    strict = {MemoryType.CONTEXT: CONTEXT_THRESHOLD}
    return Model(TYPES, tuple(bias), weights, threshold, tags, tuple(tag_bias), tag_weights, strict)


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


def _with_threshold(model: Model, threshold: float) -> Model:
    return replace(model, threshold=threshold)


def cross_validate(dev: Sequence[Case]) -> dict[float, tuple[tuple[int, int, int], tuple[int, int, int]]]:
    """Per threshold, summed over the folds: (tp, fp, fn) of rules + learned and of learned alone."""
    per_case = [examples(case) for case in dev]
    totals: dict[float, list[list[int]]] = {t: [[0, 0, 0], [0, 0, 0]] for t in THRESHOLDS}
    for test in folds(len(dev)):
        held = set(test)
        model = train([ex for i, exs in enumerate(per_case) if i not in held for ex in exs])
        cases = [dev[i] for i in test]
        for threshold in THRESHOLDS:
            m = _with_threshold(model, threshold)
            for j, fn in enumerate((rules_and_learned(m), learned_alone(m))):
                s = evaluate(cases, fn)
                for k, v in enumerate((s.tp, s.fp, s.fn)):
                    totals[threshold][j][k] += v
    return {t: (tuple(a), tuple(b)) for t, (a, b) in totals.items()}  # type: ignore[misc]


def _prf(tp: int, fp: int, fn: int) -> tuple[float, float, float]:
    p = tp / (tp + fp) if tp + fp else 1.0
    r = tp / (tp + fn) if tp + fn else 1.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def main(argv: Sequence[str]) -> None:
    dev = load_cases(DEV_PATH)
    rules = evaluate(dev, RuleExtractor().extract)
    print(f"dev, rules alone: precision {rules.precision:.3f} recall {rules.recall:.3f} F1 {rules.f1:.3f}")
    data = [ex for case in dev for ex in examples(case)]
    positives = Counter(t.value for ex in data for t in ex.labels)
    print(f"clauses: {len(data)}, negative {sum(not ex.labels for ex in data)}, positive {dict(positives)}")
    chosen = None
    for threshold, (both, alone) in cross_validate(dev).items():
        p, r, f = _prf(*both)
        ap, ar, af = _prf(*alone)
        print(
            f"dev, {FOLDS}-fold, threshold {threshold:.2f}: rules + learned P {p:.3f} R {r:.3f} F1 {f:.3f}"
            f" (tp {both[0]} fp {both[1]} fn {both[2]}) | learned alone P {ap:.3f} R {ar:.3f} F1 {af:.3f}"
        )
        if chosen is None and p >= MIN_PRECISION and ap >= MIN_ALONE_PRECISION:
            chosen = threshold
    chosen = chosen if chosen is not None else THRESHOLDS[-1]
    print(f"chosen threshold: {chosen}")
    model = train(data, chosen)
    full = evaluate(dev, rules_and_learned(model))
    print(f"dev, trained on all of it, rules + learned: P {full.precision:.3f} R {full.recall:.3f} F1 {full.f1:.3f}")
    print(f"features kept: {len(model.weights)}, learned tags: {', '.join(model.tags)}")
    if "--dry" not in argv:
        OUT.write_text(json.dumps(model.to_dict(), separators=(",", ":")) + "\n", encoding="utf-8")
        print(f"wrote {OUT}")


if __name__ == "__main__":
    main(sys.argv[1:])
