"""Experiment for issue 13: leave one writer out over the six development writers, with the current rules.

The stage of `tests.experiments.learned_writers` (a clause classifier over words, word pairs and stems, one
logistic regression per type, run on the clauses the rules read nothing in), now with every development
writer: ours (extraction_cases.yaml) and outside 1-5. For each writer: train on the other five, choose the
thresholds inside those five by leaving each out in turn (the setting with the best pooled F1 on the inner
held-out writers whose precision does not fall below the rules' by more than `--drop`, default 0), then score
rules alone and rules + stage on the writer left out. The held-out sets are never read here.

    .venv/bin/pip install --target /tmp/sk scikit-learn
    PYTHONPATH=/tmp/sk:. .venv/bin/python -m tests.experiments.learned_lowo [--drop 0] [--variants "per type,many"]
        [--held outside4,outside5]                                        # the table (some held-out writers)
    PYTHONPATH=/tmp/sk:. .venv/bin/python -m tests.experiments.learned_lowo --fit --variants "per type"
        # trains on all six writers, writes learned_lowo_weights.json for
    PYTHONPATH=/tmp/sk:. .venv/bin/python -m tests.extraction_eval --learned  # rules + stage, as make eval prints

Results (rules of c5147f5, --drop 0, P/R/F1 on the writer left out; thresholds chosen per fold inside the other five):

    held out   rules              per type           many
    dev        0.988/0.970/0.979  0.988/0.970/0.979  0.988/0.970/0.979
    outside1   0.941/0.863/0.900  0.941/0.863/0.900  0.941/0.863/0.900
    outside2   0.910/0.802/0.853  0.910/0.802/0.853  0.910/0.802/0.853
    outside3   0.901/0.690/0.782  0.893/0.698/0.783  0.888/0.698/0.781
    outside4   0.839/0.593/0.695  0.836/0.593/0.694  0.836/0.593/0.694
    outside5   0.848/0.596/0.700  0.848/0.596/0.700  0.848/0.596/0.700
    outside 1-5 pooled tp/fp/fn: rules 1329/159/538, per type 1332/163/535 (+3 tp, +4 fp)

With precision kept at the rules' level, the thresholds chosen inside the training writers are 0.95-0.99 or never,
and the stage adds almost nothing on the writer left out. `--fit` (all six writers, chosen the same way): injury,
context and training response at 0.99, preference never. Held-out sets, scored once each way (aggregates only):
blind 0.888/0.675/0.767 (tp 239 fp 30 fn 115) -> 0.890/0.684/0.773 (242/30/112); outside6 0.796/0.478/0.597
(164/42/179) -> 0.797/0.481/0.600 (165/42/178): +4 of 697 expected memories, no false one. Cost of the stage as
written here (a second pass over the text beside the rules): dev + outside texts 4,080 -> 2,170 texts/s (CPU time,
load 3), and its weights file is 6.9 MB (not committed: `--fit` writes it). Not wired into the app (issue 13).
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from functools import cache
from pathlib import Path

from domain.enums import MemorySource
from domain.extraction import Candidate
from tests.experiments import learned_writers as lw
from tests.experiments.learned import Model
from tests.experiments.learned_clauses import examples
from tests.extraction_eval import DEV_PATH, OUTSIDE_SETS, Case, load_cases

WRITERS = (("dev", DEV_PATH), *((f"outside{i + 1}", path) for i, (_, path) in enumerate(OUTSIDE_SETS)))


def run(variants: tuple[str, ...], only: tuple[str, ...] = ()) -> None:
    sets = {name: load_cases(path) for name, path in WRITERS}
    reads = {name: [lw.read(c) for c in cases] for name, cases in sets.items()}
    exs = {name: [ex for c in cases for ex in examples(c)] for name, cases in sets.items()}
    for name in sets:
        pos = Counter(t.value for ex in exs[name] for t in ex.labels)
        print(f"{name}: {len(sets[name])} texts, {len(exs[name])} labelled clauses, positive {dict(pos)}", flush=True)
    rows: dict[str, dict[str, lw.Tallies]] = {}
    for held in only or tuple(sets):
        train_names = [n for n in sets if n != held]
        inner_groups = []
        for inner in train_names:
            model = lw.train([ex for n in train_names if n != inner for ex in exs[n]])
            inner_groups.append(([lw.score(r, model) for r in reads[inner]], model.tags))
        model = lw.train([ex for n in train_names for ex in exs[n]])
        scored = [lw.score(r, model) for r in reads[held]]
        rows[held] = {"rules": lw.tallies(scored, lw.RULES_ONLY, model.tags)}
        chosen = {}
        for variant in variants:
            chosen[variant] = lw.choose(inner_groups, variant)
            rows[held][variant] = lw.tallies(scored, chosen[variant], model.tags)
        lw._show_fold(held, rows[held], chosen)
    table(rows, variants)


def table(rows: dict[str, dict[str, lw.Tallies]], variants: tuple[str, ...]) -> None:
    print("\nheld out   " + "".join(f"{name:<19}" for name in ("rules", *variants)))
    for held, row in rows.items():
        cells = ["{:.3f}/{:.3f}/{:.3f}".format(*lw.prf(row[name][None])) for name in ("rules", *variants)]
        print(f"{held:<10} " + "  ".join(cells))
    pooled = []
    for name in ("rules", *variants):
        total = lw.Tally()
        for row in rows.values():
            t = row[name][None]
            total.tp, total.fp, total.fn = total.tp + t.tp, total.fp + t.fp, total.fn + t.fn
        pooled.append(total)
    print("pooled     " + "  ".join("{:.3f}/{:.3f}/{:.3f}".format(*lw.prf(t)) for t in pooled))
    print("pooled tp/fp/fn " + "  ".join(f"{t.tp}/{t.fp}/{t.fn}" for t in pooled))


CURVE = (0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99)


def curve() -> None:
    """What the stage adds on each held-out writer (trained on the other five) at one threshold for every type:
    the added true and false positives against the rules alone, pooled over the six writers. The additions must be
    at least as precise as the rules for precision not to fall."""
    sets = {name: load_cases(path) for name, path in WRITERS}
    reads = {name: [lw.read(c) for c in cases] for name, cases in sets.items()}
    exs = {name: [ex for c in cases for ex in examples(c)] for name, cases in sets.items()}
    pooled = {th: [0, 0] for th in CURVE}
    for held in sets:
        model = lw.train([ex for n in sets if n != held for ex in exs[n]])
        scored = [lw.score(r, model) for r in reads[held]]
        rules = lw.tallies(scored, lw.RULES_ONLY, model.tags)[None]
        cells = []
        for th in CURVE:
            got = lw.tallies(scored, lw.Setting((th,) * len(lw.TYPES)), model.tags)[None]
            tp, fp = got.tp - rules.tp, got.fp - rules.fp
            pooled[th][0] += tp
            pooled[th][1] += fp
            cells.append(f"{th}: +{tp}/+{fp}")
        print(f"{held:<10} rules {rules.tp}/{rules.fp}/{rules.fn} | added tp/fp " + "  ".join(cells), flush=True)
    print("pooled     added tp/fp " + "  ".join(f"{th}: +{tp}/+{fp}" for th, (tp, fp) in pooled.items()))


# --- the stage trained on all six writers, for the held-out scoring (`make eval ARGS=--learned`) ----------------

WEIGHTS = Path(__file__).resolve().parent / "learned_lowo_weights.json"


def fit_all(variant: str = "per type") -> None:
    """Train on all six writers, choose the setting by leaving each of them out in turn (as inside each fold of
    `run`), and write the weights and the setting to WEIGHTS."""
    sets = {name: load_cases(path) for name, path in WRITERS}
    reads = {name: [lw.read(c) for c in cases] for name, cases in sets.items()}
    exs = {name: [ex for c in cases for ex in examples(c)] for name, cases in sets.items()}
    groups = []
    for inner in sets:
        model = lw.train([ex for n in sets if n != inner for ex in exs[n]])
        groups.append(([lw.score(r, model) for r in reads[inner]], model.tags))
    setting = lw.choose(groups, variant)
    model = lw.train([ex for n in sets for ex in exs[n]])
    print(f"chosen ({variant}): {lw._fmt(setting)}; many={setting.many}")
    raw = {"setting": {"add": setting.add, "correct": setting.correct, "many": setting.many}, **model.to_dict()}
    WEIGHTS.write_text(json.dumps(raw, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {WEIGHTS}")


@cache
def _stage() -> tuple[Model, lw.Setting]:
    raw = json.loads(WEIGHTS.read_text(encoding="utf-8"))
    s = raw["setting"]
    return Model.from_dict(raw), lw.Setting(tuple(s["add"]), tuple(s["correct"]), bool(s["many"]))


def with_stage(text: str, source: MemorySource) -> list[Candidate]:
    """The rules' candidates and the stage's, with the weights and setting of `fit_all`."""
    model, setting = _stage()
    return lw.decide(lw.score(lw.read(Case(text, source, ())), model), setting, model.tags)


if __name__ == "__main__":
    args = sys.argv[1:]
    lw.MAX_INNER_PRECISION_DROP = float(args[args.index("--drop") + 1]) if "--drop" in args else 0.0
    chosen_variants = tuple(args[args.index("--variants") + 1].split(",")) if "--variants" in args else lw.VARIANTS
    only = tuple(args[args.index("--held") + 1].split(",")) if "--held" in args else ()
    if "--curve" in args:
        curve()
    elif "--fit" in args:
        fit_all(chosen_variants[0])
    else:
        run(chosen_variants, only)
