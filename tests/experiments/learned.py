"""Experiment for issue 13, not in the app: a small learned stage for the clauses the rules say nothing about.

The rules read phrasings they know; an athlete says the same things in many other ways. Here a
clause that no rule candidate covers is scored by one logistic regression per memory type over its
words and word pairs (`features`), and the best type whose probability reaches the threshold
becomes a low-confidence candidate. Its statement is the clause tidied the way the rules tidy
theirs (`tidy.content`: third person, filler stripped), its tags the vocabulary's words in the
clause for that type.

The clauses it may read are the rules' own: questions, clauses about someone else and clauses
about a single day ("this morning") are skipped before the model is asked.

The weights are trained offline on the development set and the outside development set
(tests/experiments/learned_clauses.py, which also picks a threshold per type by cross-validation) and kept
as `learned_weights.json` beside this module; inference is plain Python (no scikit-learn) and reads that
file once. Nothing is downloaded. What it adds names "the athlete" (never "they" or "them") or no subject.

Blind-scored twice, each time once, aggregates only (`python -m tests.experiments.learned`):
- trained on dev only (older rules): precision 0.808 -> 0.783, recall 0.475 -> 0.562, F1 0.598 -> 0.655.
- trained on dev + outside, word stems added, thresholds per type (injury 0.90, preference 0.97, training
  response 0.75, context never): P 0.869 -> 0.853, R 0.619 -> 0.641, F1 0.723 -> 0.732 (tp +8, fp +6 of 354
  expected); per type injury 0.919/0.878 -> 0.921/0.911, training response 0.956/0.512 -> 0.857/0.571,
  preference and context unchanged. Cross-validated on dev + outside it looked safe (held-out additions
  +4 tp / +0 fp, the stage alone P 0.94 at 0.75; trained on dev, read on the outside writer's texts, 0.89),
  but on the blind writer's phrasing only 8 of its 14 additions matched a label.
Both times precision fell by more than 0.01 (and the second time F1 rose by less than 0.02), so the stage is
not wired in: `with_learned` runs it beside the rules for experiments only. With four writers' sets, left out
one writer at a time (tests/experiments/learned_writers.py), it adds F1 +0.002 to +0.008 on the held-out writer
at precision -0.003 to -0.008: still short of the bar. Beside the rules, not folded into
their clause loop, it also costs throughput (dev + outside texts at load 6: 4,795 -> 3,720 texts/s).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

from domain.enums import MemoryConfidence, MemorySource, MemoryType
from domain.extraction import Candidate, extract_memories, merge_duplicates
from domain.extraction.clauses import Span, SpanSet, sentences, statement_clauses
from domain.extraction.facts import RESPONSE_CONTEXT_TAGS
from domain.extraction.lexicon import BODY, CONTEXT, INTENSITY, TIME
from domain.extraction.subject import REPORTING_LEAD_RE, People
from domain.extraction.tidy import about_the_athlete, content

WEIGHTS_FILE = "learned_weights.json"
STEM = 5  # a word longer than this is also read by its first STEM letters ("seizes", "seizing")
EXTRACTOR_NAME = "learned"
_TOKEN_RE = re.compile(r"[a-z0-9]+(?:['’][a-z]+)?")
_DIGITS_RE = re.compile(r"[0-9]+")
_TRANSIENT_RE = re.compile(
    r"\b(?:today|tomorrow|tonight|yesterday|this\s+(?:morning|afternoon|evening|week|weekend|time|run)"
    r"|next\s+(?:week|time|year|run)|last\s+(?:night|week|run))\b"
)
# "knee wasn't sore", "no pain", "calf is fine now": the rules' negation and recovery, for a learned injury.
_NEGATED_RE = re.compile(
    r"\b(?:no|not|never|without|zero|nothing|none|\w+n['’]t|fine|better|gone|healed|recovered|okay|ok)\b"
)
_THEM_RE = re.compile(r"\bthem\b", re.IGNORECASE)
# The rules may write "they" for the athlete; what the stage adds names "the athlete" or no subject at all.
_THEIR_RE = re.compile(r"\b(?:(T)|t)heir\b")
_THEY_RE = re.compile(r"\b(?:they|them|themselves|theirs)\b|\bthey['’]", re.IGNORECASE)
# A clause that opens like the tail of a sentence is not a statement ("Which back hates", "As usual after ...").
_TAIL_RE = re.compile(r"(?:which|who|whom|whose|that|as|and|but|or|so|because|if|when|whenever|while|than)\b", re.I)
# A note about the athlete ("she hates hills") reads as one in the first person ("i hates hills").
_AS_FIRST_PERSON = {"he": "i", "she": "i", "they": "i", "his": "my", "her": "my", "their": "my", "them": "me"}


def features(clause: str, third_person: bool = False) -> list[str]:
    """The words of a lower-cased clause and its pairs of neighbouring words, the ends marked."""
    tokens = [_DIGITS_RE.sub("0", t.replace("’", "'")) for t in _TOKEN_RE.findall(clause)]
    if third_person:
        tokens = [_AS_FIRST_PERSON.get(t, t) for t in tokens]
    pairs = [f"{a} {b}" for a, b in zip(["<s>", *tokens], [*tokens, "</s>"], strict=True)]
    stems = [f"{t[:STEM]}~" for t in tokens if len(t) > STEM]
    return tokens + pairs + stems


@dataclass(frozen=True)
class Model:
    """One logistic regression per type over the same features: probability = sigmoid(bias + sum of weights);
    and one per tag, for the tags a clause means without naming the vocabulary's words ("I'm a postdoc" is
    context:work), asked only about a clause that carries a memory."""

    types: tuple[MemoryType, ...]
    bias: tuple[float, ...]
    weights: Mapping[str, Sequence[float]]
    threshold: float
    tags: tuple[str, ...] = ()
    tag_bias: tuple[float, ...] = ()
    tag_weights: Mapping[str, Sequence[float]] = field(default_factory=dict)
    # A type that needs more than `threshold`: a context names a life topic ("kids", "work") that small talk
    # names too ("Two kids overtook me on the last lap").
    strict: Mapping[MemoryType, float] = field(default_factory=dict)

    @classmethod
    def from_dict(cls, raw: Mapping[str, object]) -> Model:
        types = tuple(MemoryType(t) for t in raw["types"])  # type: ignore[attr-defined]
        bias = tuple(float(b) for b in raw["bias"])  # type: ignore[attr-defined]
        weights = {str(f): tuple(float(w) for w in ws) for f, ws in raw["weights"].items()}  # type: ignore[attr-defined]
        tags = tuple(str(t) for t in raw.get("tags", ()))  # type: ignore[attr-defined]
        tag_bias = tuple(float(b) for b in raw.get("tag_bias", ()))  # type: ignore[attr-defined]
        tag_weights = {
            str(f): tuple(float(w) for w in ws)
            for f, ws in raw.get("tag_weights", {}).items()  # type: ignore[attr-defined]
        }
        strict = {MemoryType(t): float(v) for t, v in raw.get("strict", {}).items()}  # type: ignore[attr-defined]
        threshold = float(raw["threshold"])  # type: ignore[arg-type]
        return cls(types, bias, weights, threshold, tags, tag_bias, tag_weights, strict)

    def to_dict(self) -> dict[str, object]:
        return {
            "types": [t.value for t in self.types],
            "threshold": self.threshold,
            "strict": {t.value: v for t, v in self.strict.items()},
            "bias": list(self.bias),
            "weights": {f: list(ws) for f, ws in sorted(self.weights.items())},
            "tags": list(self.tags),
            "tag_bias": list(self.tag_bias),
            "tag_weights": {f: list(ws) for f, ws in sorted(self.tag_weights.items())},
        }

    def probabilities(self, feats: Iterable[str], of_tags: bool = False) -> list[float]:
        bias, weights = (self.tag_bias, self.tag_weights) if of_tags else (self.bias, self.weights)
        get = weights.get
        rows = [ws for ws in map(get, feats) if ws is not None]
        return [1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, sum(s))))) for s in zip(bias, *rows, strict=True)]

    def classify(self, clause: str, third_person: bool = False) -> tuple[MemoryType, tuple[str, ...]] | None:
        """The most probable type of a lower-cased clause when it reaches the threshold, with the tags the
        model reads in it (probability >= 0.5), else None."""
        feats = features(clause, third_person)
        probs = self.probabilities(feats)
        best = max(range(len(probs)), key=probs.__getitem__)
        if probs[best] < max(self.threshold, self.strict.get(self.types[best], 0.0)):
            return None
        tags = tuple(t for t, p in zip(self.tags, self.probabilities(feats, True), strict=True) if p >= 0.5)
        return self.types[best], tags


@cache
def default_model() -> Model:
    """The trained weights, read once from beside this module."""
    raw = resources.files("tests.experiments").joinpath(WEIGHTS_FILE).read_text(encoding="utf-8")
    return Model.from_dict(json.loads(raw))


_KINDS = {MemoryType.INJURY_HISTORY: ("body:",), MemoryType.CONTEXT: ("context:", "time:")}


def _tags(type_: MemoryType, said: str, learned: Sequence[str]) -> tuple[str, ...]:
    """The vocabulary's tags of a clause, the kinds a rule of that type would give, and the learned tags of
    those kinds."""
    if type_ is MemoryType.INJURY_HISTORY:
        tags = BODY.tags(said)
    elif type_ is MemoryType.CONTEXT:
        tags = CONTEXT.tags(said)
        if "context:kids" in tags and "context:family" not in tags:
            tags.append("context:family")
    else:
        tags = BODY.tags(said) + TIME.tags(said) + INTENSITY.tags(said)
        tags += [t for t in CONTEXT.tags(said) if t != "context:family"]
        if type_ is MemoryType.TRAINING_RESPONSE:
            tags = [t for t in tags if not t.startswith("context:") or t in RESPONSE_CONTEXT_TAGS]
    kinds = _KINDS.get(type_, ("body:", "time:", "intensity:", "context:"))
    tags += [t for t in learned if t.startswith(kinds)]
    return tuple(sorted(dict.fromkeys(tags)))


Read = Sequence[tuple[Span, Sequence[Span]]]  # the sentences the rules read, each with its statement clauses


def learned_candidates(
    text: str, people: People, read: Read, found: Sequence[Candidate], model: Model
) -> list[Candidate]:
    """Candidates for the clauses the rules read in `text` that none of `found` covers, at most one per type."""
    covered = SpanSet(Span(c.evidence_start, c.evidence_end) for c in found)
    ruled = {c.type for c in found}
    added: dict[MemoryType, Candidate] = {}
    for sentence, clauses in read:
        for clause in clauses:
            if covered.overlaps(clause):
                continue
            low = people.lower[clause.start : clause.end]
            if _TRANSIENT_RE.search(low):
                continue
            verdict = model.classify(low, people.third_person)
            if verdict is None or verdict[0] in added or verdict[0] in ruled:
                continue
            type_ = verdict[0]
            if type_ is MemoryType.INJURY_HISTORY and _NEGATED_RE.search(low):
                continue
            if people.about_someone_else(sentence, clause, clause.end):
                continue
            said, span = content(text, clause, clauses, type_)
            if people.third_person:
                said = about_the_athlete(_THEM_RE.sub("the athlete", said))
            said = _neutral(said)
            if said:
                tags = _tags(type_, text[clause.start : clause.end], verdict[1])
                added[type_] = Candidate(type_, said, MemoryConfidence.LOW, tags, span.start, span.end, EXTRACTOR_NAME)
    return list(added.values())


def _neutral(said: str) -> str:
    """The statement with "their" as "the athlete's"; empty when it still says "they" or "them" (a verb
    would not agree with "the athlete") or opens like the tail of a sentence."""
    said = _THEIR_RE.sub(lambda m: "The athlete's" if m.group(1) else "the athlete's", said)
    if _THEY_RE.search(said) or _TAIL_RE.match(said):
        return ""
    return said


def read_clauses(text: str, people: People) -> Read:
    """Every sentence of `text` with its statement clauses (questions' interrogative parts dropped), a
    coach's "He says ..." left out as the rules leave it out."""
    read = []
    for sentence, is_question in sentences(text):
        clauses = statement_clauses(text, sentence, is_question)
        lead = REPORTING_LEAD_RE.match(text, sentence.start, sentence.end) if people.third_person else None
        if lead is not None:
            clauses = [Span(max(c.start, lead.end()), c.end) for c in clauses if c.end > lead.end()]
        read.append((sentence, clauses))
    return read


def with_learned(text: str, source: MemorySource, model: Model | None = None) -> list[Candidate]:
    """The rules' candidates and the learned stage's for the clauses the rules read nothing in."""
    found = extract_memories(text, source)
    if not text or not text.strip():
        return found
    people = People(text)
    extra = learned_candidates(text, people, read_clauses(text, people), found, model or default_model())
    return merge_duplicates([*found, *extra])


def main() -> None:
    """Aggregates of rules + learned on the blind set (per type, no case shown), as `make eval` prints them."""
    from tests.extraction_eval import BLIND_PATH, _table, _types_only, load_cases, per_type

    blind = load_cases(BLIND_PATH)
    tallies, _ = per_type(blind, with_learned)
    print("\n".join(_table(f"BLIND set, rules + learned ({len(blind)} texts; aggregates only)", tallies)))
    print(_types_only(blind, with_learned))


if __name__ == "__main__":
    main()
