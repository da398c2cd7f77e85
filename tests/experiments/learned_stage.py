"""Experiment for issue 13, not part of the app: would a small learned stage add to the rules?

A text-level classifier per memory type (TF-IDF of words and character n-grams, logistic
regression), trained on the development set, adds a memory of a type the rules did not find in a
text when its probability reaches a threshold. The threshold is chosen on the development set
alone, by 5-fold cross-validation: the lowest one whose precision stays >= 0.95. The blind set is
then scored once with it (aggregates only, as `make eval` does).

It needs scikit-learn, which the app does not depend on:
    .venv/bin/pip install --target /tmp/sk scikit-learn
    PYTHONPATH=/tmp/sk .venv/bin/python -m tests.experiments.learned_stage
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from scipy.sparse import hstack
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import KFold

from domain.enums import MemorySource, MemoryType
from domain.extraction import extract_memories
from domain.vocabulary import tags_in
from tests.extraction_eval import BLIND_PATH, DEV_PATH, Case, Predicted, evaluate, load_cases

THRESHOLDS = (0.6, 0.7, 0.8, 0.9, 0.95)
MIN_PRECISION = 0.95
Probabilities = Callable[[str], dict[MemoryType, float]]


@dataclass(frozen=True)
class Learned:
    type: MemoryType
    tags: tuple[str, ...]
    content: str  # the whole text: this stage does not pick a statement out of it


def fit(cases: Sequence[Case]) -> Probabilities:
    texts = [case.text for case in cases]
    words = TfidfVectorizer(ngram_range=(1, 2), sublinear_tf=True)
    chars = TfidfVectorizer(analyzer="char_wb", ngram_range=(3, 5), min_df=2, sublinear_tf=True)
    features = hstack([words.fit_transform(texts), chars.fit_transform(texts)]).tocsr()
    models = {}
    for memory_type in MemoryType:
        labels = np.array([any(e.type == memory_type for e in case.expect) for case in cases])
        if labels.sum() >= 5:
            models[memory_type] = LogisticRegression(C=4.0, max_iter=2000, class_weight="balanced").fit(
                features, labels
            )

    def probabilities(text: str) -> dict[MemoryType, float]:
        row = hstack([words.transform([text]), chars.transform([text])]).tocsr()
        return {memory_type: float(model.predict_proba(row)[0, 1]) for memory_type, model in models.items()}

    return probabilities


def rules(text: str, source: MemorySource) -> Sequence[Predicted]:
    return list(extract_memories(text, source))


def with_learned(probabilities: Probabilities, threshold: float) -> Callable[[str, MemorySource], Sequence[Predicted]]:
    def extract(text: str, source: MemorySource) -> Sequence[Predicted]:
        found: list[Predicted] = list(extract_memories(text, source))
        have = {memory.type for memory in found}
        for memory_type, probability in probabilities(text).items():
            if probability >= threshold and memory_type not in have:
                found.append(Learned(memory_type, tuple(tags_in(text)), text))
        return found

    return extract


def cross_validated(dev: Sequence[Case], threshold: float) -> tuple[float, float]:
    tp = fp = fn = 0
    for train, test in KFold(5, shuffle=True, random_state=1).split(np.arange(len(dev))):
        scores = evaluate([dev[i] for i in test], with_learned(fit([dev[i] for i in train]), threshold))
        tp, fp, fn = tp + scores.tp, fp + scores.fp, fn + scores.fn
    return tp / (tp + fp), tp / (tp + fn)


def main() -> None:
    dev = load_cases(DEV_PATH)
    chosen = None
    for threshold in THRESHOLDS:
        precision, recall = cross_validated(dev, threshold)
        print(f"dev, 5-fold, rules + learned at {threshold}: precision {precision:.3f} recall {recall:.3f}")
        if chosen is None and precision >= MIN_PRECISION:
            chosen = threshold
    chosen = chosen or THRESHOLDS[-1]
    blind = load_cases(BLIND_PATH)
    for name, extract in (("rules alone", rules), (f"rules + learned at {chosen}", with_learned(fit(dev), chosen))):
        s = evaluate(blind, extract)
        print(f"blind, {name}: precision {s.precision:.3f} recall {s.recall:.3f} F1 {s.f1:.3f}")


if __name__ == "__main__":
    main()
