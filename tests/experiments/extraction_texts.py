"""Every text the extraction experiments run: each labelled set's texts and the hostile inputs.

Held-out sets are run here only through an extractor (for counts); their texts are never printed.
"""

from __future__ import annotations

from pathlib import Path

from tests.extraction_eval import DATA, load_cases
from tests.hostile import hostile_inputs

HELD_OUT = frozenset({"extraction_blind.yaml", "extraction_outside6.yaml"})


def labelled_texts(*, held_out: bool) -> list[str]:
    """The texts of tests/data/extraction_*.yaml, in file order; the held-out sets only when `held_out`."""
    texts: list[str] = []
    for path in sorted(DATA.glob("extraction_*.yaml")):
        if held_out or path.name not in HELD_OUT:
            texts += [case.text for case in load_cases(path)]
    return texts


def hostile_texts() -> list[str]:
    return [h.text for h in hostile_inputs() if isinstance(h.text, str)]


def all_texts(*, held_out: bool) -> list[str]:
    return labelled_texts(held_out=held_out) + hostile_texts()


def repo_root() -> Path:
    return Path(__file__).resolve().parents[2]
