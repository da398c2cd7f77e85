"""The rule extractor, the pluggable extractor protocol, and merging equal facts."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace

from domain.content import MAX_CONTENT, normalize
from domain.enums import CONFIDENCE_RANK, MemoryConfidence, MemorySource, MemoryType
from domain.extraction.candidate import Candidate, Extractor
from domain.extraction.clauses import Span, SpanSet, sentences, statement_clauses
from domain.extraction.facts import RESPONSE_CONTEXT_TAGS, Fact, rule_facts
from domain.extraction.folding import Folded
from domain.extraction.habit import habit_span, text_has_habit
from domain.extraction.injuries import Carry, body_mentions, injuries, session_soreness, sessions_and_habit
from domain.extraction.lexicon import ANY_BODY_PART, ANY_TIME, CONTEXT, INTENSITY, THIS_DAY, all_tags, tags_in
from domain.extraction.lexicon import APOSTROPHE as _A
from domain.extraction.places import place_facts
from domain.extraction.prefilter import fast_pattern
from domain.extraction.rules import I_AM, PRONOUN_LIKE, RUN_OBJECT_RE, STIMULUS
from domain.extraction.subject import CHILD_SAID_RE, REPORTING_LEAD_RE, People
from domain.extraction.tidy import about_the_athlete, content
from domain.vocabulary import CONTEXT_TOPICS, with_implied

_CONTEXT_WORDS = "|".join(CONTEXT_TOPICS.values())
# A sentence without any of these words cannot yield a fact; most of a long note is skipped at once.
_TRIGGER_RE = re.compile(
    r"\b(?:i|my|we|remember|note|keep|forget|record|takes?|took|heat|humidity|fan|favou?rite|bores?|boring|worst|he"
    r"|she|they|them|his|her|their|reminder|heads|legs|heart|hr|nothing|give|hotels?|job|shifts?|office|school|kids|children|twins|baby"
    r"|toddler|away|nearest|love|hate|always|never|prefer|racing|work|rather|would|find|mum|mom|dad|our|single|sucker"
    r"|altitude|studying|going|weekends?|weekdays?|any|anything|more|sleep|training|booked|me|torture|nemesis|kryptonite"
    r"|best|worst|into|happiest|wish|under|caring|looking|keen|bored|least|owner|own"
    r"|feel|feels|person|thrive|sleeper|goals?|targets?|aim|dream|planning|heading|altitude|away|leave"
    r"|fifo|rota|roster|freelanc\w*|redundant|based|stationed|here|home|air|pollution|smog|winters?|summers?|wants?|aim\w*"
    r"|champs|championships?|nationals|regionals|trials|duathlon|aquathlon"
    r"|hoping|break|enjoy\w*|adore|loathe|dread|unemployed|play|plays|playing|played|league|footy|gaelic|xv|gk"
    + _A
    + r"s|"
    + ANY_BODY_PART
    + r"|"
    + ANY_TIME
    + r"|"
    + STIMULUS
    + r"|"
    + _CONTEXT_WORDS
    + r")\b|"
    + I_AM
    + r"|\bi"
    + _A
    + r"\w|>",
    re.IGNORECASE,
)
_TRIGGER_LOW_RE = fast_pattern(_TRIGGER_RE.pattern)  # for the lower-cased text: several times faster
_EXPLICIT_RE = Folded(
    r"(?:\W|(?:please|pls|also|and|oh|btw|just|hey|coach)\b)*(?:remember|note|keep\s+in\s+mind|don"
    + _A
    + r"?t\s+forget|do\s+not\s+forget|for\s+the\s+record|for\s+future\s+reference|make\s+a\s+note"
    r"|(?:a\s+)?(?:quick\s+|friendly\s+)?reminder|(?:a\s+)?heads[-\s]up|fyi)\b(?:\s+(?:that|this)"
    r"\b)?\W*(?!to\b)(?=\w)",
)
# A reminder of a one-off: "remember my mother-in-law is staying this week" (but a trip "all next week" is travel)
_ONE_OFF_RE = re.compile(r"\b(?:" + THIS_DAY + r")\b", re.IGNORECASE)
_LEAVES_THEM_RE = re.compile(
    r"\b(leaves?|left|makes?|made|gets?|wipes?|knocks?|wrecks?|kills?|destroys?|drains?|gives?|takes\s+it\s+out\s+of)"
    r"\s+them\b",
    re.IGNORECASE,
)
_THEM_RE = re.compile(r"\bthem\b", re.IGNORECASE)  # in a note about the athlete, "leave them wrecked"
INJURY, RESPONSE = MemoryType.INJURY_HISTORY, MemoryType.TRAINING_RESPONSE
HIGH = MemoryConfidence.HIGH


class RuleExtractor:
    """The seed's extraction patterns, clause-aware."""

    name: str = "rules"

    def extract(self, text: str, source: MemorySource, source_reference: str | None = None) -> list[Candidate]:
        if not text or not text.strip():
            return []
        people = People(text)
        found: list[Candidate] = []
        carry: Carry | None = None
        restated: dict[MemoryType, int] = {}  # the previous sentence's preference and response, by index in found
        habits = text_has_habit(people.lower)
        quiet: Span | None = None  # the previous sentence, when it stated nothing
        for sentence, is_question in sentences(text):
            before = restated
            restated = {}
            previous, quiet, stated = quiet, sentence, len(found)
            habitual = habit_span(people.lower, sentence, previous) if habits and not is_question else None
            if (
                carry is None
                and habitual is None
                and not _TRIGGER_LOW_RE.search(people.lower, sentence.start, sentence.end)
            ):
                continue
            clauses = statement_clauses(text, sentence, is_question)
            lead = REPORTING_LEAD_RE.match(text, sentence.start, sentence.end) if people.third_person else None
            if lead is not None:  # "She says ..." relays what the athlete said: the content is what follows
                clauses = [Span(max(c.start, lead.end()), c.end) for c in clauses if c.end > lead.end()]
            explicit = _EXPLICIT_RE.match(text, sentence.start, sentence.end) if clauses else None
            if explicit is not None:
                clauses = [Span(max(c.start, explicit.end()), c.end) for c in clauses if c.end > explicit.end()]
            facts = _with_objects(people.lower, sentence, previous, self._facts(people, sentence, clauses, carry))
            if any(not f.background for f in facts):
                facts = [f for f in facts if not f.background]
            carry = self._carry(people.lower, clauses, facts) if not is_question else None
            if explicit is not None:
                facts = [replace(f, confidence=HIGH) for f in facts] or self._explicit_context(text, clauses)
            if habitual is not None and not any(f.type in (INJURY, RESPONSE) for f in facts):
                facts.append(Fact(RESPONSE, habitual, (), MemoryConfidence.LOW))
            merged = _merge_within_sentence(text, facts)
            aside = _asides(clauses, merged)
            for fact in merged:
                said, span = content(text, fact.span, clauses, fact.type)
                if people.for_child:  # "my son would rather do hill sprints": the son is the athlete
                    said = CHILD_SAID_RE.sub("the athlete", said)
                    said = said[:1].upper() + said[1:]
                if people.third_person:
                    said = about_the_athlete(_THEM_RE.sub("the athlete", said))
                elif fact.type is RESPONSE:  # a coach's "Intervals always leave them wrecked, so we ..."
                    said = _LEAVES_THEM_RE.sub(r"\1 the athlete", said)
                said = said[:MAX_CONTENT]  # the replacements above may lengthen it past the limit
                if said:
                    said_tags = _tags_said(fact.type, people.lower, fact.span)
                    if fact.type in _ONE_PER_SENTENCE and aside:  # "I prefer running by feel, no watch on easy days"
                        said_tags += _aside_tags(fact.type, people.lower, aside, [*fact.tags, *said_tags])
                    elif explicit is not None and fact.type is MemoryType.CONTEXT and aside:
                        # a reminder is one thing to remember: "Remember I can only run 4 days a week max, the other
                        # days are for my family"
                        said_tags += [t for c in aside for t in CONTEXT.tags(people.lower[c.start : c.end])]
                    tags = tuple(sorted(with_implied([*fact.tags, *said_tags])))
                    candidate = Candidate(fact.type, said, fact.confidence, tags, span.start, span.end, self.name)
                    kept = before.get(fact.type)
                    if kept is not None and not tags:  # "I can't stand treadmills. I'd rather run in the rain."
                        found[kept] = _restating(found[kept], candidate)
                        restated[fact.type] = kept
                        continue
                    if fact.type in _ONE_PER_SENTENCE:
                        restated[fact.type] = len(found)
                    found.append(candidate)
            if len(found) > stated or restated:
                quiet = None
        return merge_duplicates(_within(found))

    @staticmethod
    def _facts(people: People, sentence: Span, clauses: Sequence[Span], carry: Carry | None) -> list[Fact]:
        """Injuries first; a training response in a clause that states an injury is that injury, and
        soreness that a kind of session always brings is a training response."""
        facts = []
        habit: bool | None = None
        for i in injuries(people, sentence, clauses, carry):
            if not i.tags:
                # an injury with no part of the body named: "I have rheumatoid arthritis" is context:health, "before
                # the gallbladder surgery", "the high volume blocks always leave me injured" are no injury a coach can
                # file (issue 13, round 7: none of the six such on the six development sets was labelled one)
                continue
            if habit is None:
                habit = sessions_and_habit(people.text, sentence)
            if session_soreness(people.text, i.span, habit):
                sore = people.text[i.span.start : i.span.end]
                tags = (*i.tags, *INTENSITY.tags(sore), *(t for t in CONTEXT.tags(sore) if t in RESPONSE_CONTEXT_TAGS))
                facts.append(Fact(RESPONSE, i.span, tuple(dict.fromkeys(tags)), MemoryConfidence.MEDIUM))
            else:
                facts.append(Fact(INJURY, i.span, i.tags, i.confidence))
        injured = SpanSet(f.span for f in facts)
        for clause in clauses:
            said = rule_facts(people, sentence, clause)
            facts += [f for f in said if f.type is not RESPONSE or not injured.overlaps(clause)]
        located = SpanSet(f.span for f in facts if "context:location" in f.tags)
        facts += [f for f in place_facts(people, sentence, clauses) if not located.overlaps(f.span)]
        return facts

    @staticmethod
    def _carry(low: str, clauses: Sequence[Span], facts: Sequence[Fact]) -> Carry | None:
        """A body part mentioned without a symptom at the end of a sentence, for "Knee. Sore again."."""
        if not clauses or any(f.type is INJURY for f in facts):
            return None
        bodies = body_mentions(low, clauses[-1])
        return (clauses[-1], bodies) if bodies else None

    @staticmethod
    def _explicit_context(text: str, clauses: Sequence[Span]) -> list[Fact]:
        """What follows "remember" when no rule reads a fact in it; a one-off ("remember my mother-in-law is
        staying this week", "I can't do the club session this Tuesday") is not worth remembering."""
        if not clauses:
            return []
        span = Span(clauses[0].start, clauses[-1].end)
        if _ONE_OFF_RE.search(text, span.start, span.end) is not None:
            return []
        return [Fact(MemoryType.CONTEXT, span, tuple(all_tags(text[span.start : span.end])), HIGH)]


# The vocabulary's kinds a preference or a training response is filtered by, besides the tags its rule
# gives: everything it names ("prefer soft trails for my knees", "knackered after night shifts"). "after
# work" is a time, not the job, and "family" comes only from a family rule ("my mum" is often someone
# else's news). An injury keeps its body part only: domain.dedup reads any shared tag of a type as the
# same thing, and "knee pain on the long run" must not replace "calf tight after long runs".
_KINDS_SAID = {
    RESPONSE: ("body", "time", "intensity", "context"),
    MemoryType.PREFERENCE: ("body", "time", "intensity", "context"),
}
# "family" comes only from a family rule; "goal" is a context of its own ("training for a marathon"), while a
# marathon in a preference or a response is a race (intensity:race).
_NOT_SAID = frozenset({"context:family", "context:goal"})
_WORK_AS_TIME_RE = re.compile(r"\b(?:before|after)[-\s]work\b", re.IGNORECASE)


_PRONOUN_LIKE_RE = re.compile(PRONOUN_LIKE)  # for the lower-cased text


# What the coaching itself is called is no object of a liking: "Thanks for the new plan. I love it."
_NOT_LIKED = frozenset({"plan", "plans", "structure", "training", "session", "sessions", "workout", "workouts", "pace"})


def _liked_object(low: str, start: int, end: int) -> bool:
    return any(m.group() not in _NOT_LIKED for m in RUN_OBJECT_RE.finditer(low, start, end))


def _with_objects(low: str, sentence: Span, previous: Span | None, facts: list[Fact]) -> list[Fact]:
    """A liking of "it" or "them" (`PRONOUN_LIKE`) takes its object from earlier in the sentence ("I've been going since
    spring and love it"), or else from the sentence before when that one stated nothing ("Treadmill. Hate it."); without
    one it says nothing worth keeping ("I love it when the plan comes early"), unless its clause names its own."""
    kept = []
    for fact in facts:
        said = low[fact.span.start : fact.span.end]
        if fact.type is not MemoryType.PREFERENCE or _PRONOUN_LIKE_RE.search(said) is None:
            kept.append(fact)
            continue
        for start in (sentence.start, previous.start if previous is not None else None):
            if start is not None and start < fact.span.start and _liked_object(low, start, fact.span.start):
                kept.append(replace(fact, span=Span(start, fact.span.end)))
                break
        else:  # "I like it for tempo": the clause names its own object
            if RUN_OBJECT_RE.search(low, fact.span.start, fact.span.end) is not None:
                kept.append(fact)
    return kept


def _asides(clauses: Sequence[Span], facts: Sequence[Fact]) -> list[Span]:
    """The clauses of a sentence that state no fact of their own: what they name belongs to the sentence's
    preference or response ("I prefer running by feel, no watch on easy days", "Recovery runs feel pointless to me,
    I'd rather just take the day off")."""
    if not facts:
        return []
    stated = SpanSet(f.span for f in facts)
    return [c for c in clauses if not stated.overlaps(c)]


_ASIDE_KINDS = ("time", "intensity")


def _aside_tags(type_: MemoryType, text: str, aside: Sequence[Span], tags: Sequence[str]) -> list[str]:
    """The times and kinds of session the asides name, of the kinds the fact's own words do not: a time beside a time
    is a contrast ("Evenings work best for me, the mornings are too rushed") and says nothing new. A job or a family
    named beside a preference is its reason, not what it is about ("I prefer morning runs, the evenings after a late
    shift are a write-off")."""
    kinds = {t.partition(":")[0] for t in tags}
    wanted = tuple(kind for kind in _ASIDE_KINDS if kind not in kinds)
    return [t for clause in aside for t in tags_in(text[clause.start : clause.end], wanted)] if wanted else []


def _tags_said(type_: MemoryType, text: str, span: Span) -> list[str]:
    kinds = _KINDS_SAID.get(type_)
    if kinds is None:
        return []
    said = _WORK_AS_TIME_RE.sub(lambda m: " " * len(m.group()), text[span.start : span.end])
    return [t for t in tags_in(said, kinds) if t not in _NOT_SAID]


# A clause that opens with "I", or with a verb of liking whose subject is the athlete ("Love swimming, hate
# running in the heat"), states a fact of its own.
_OWN_SUBJECT_RE = re.compile(
    r"(?:i(?:\b|" + _A + r")|(?:love|hate|loathe|detest|dislike|adore|prefer|enjoy|can" + _A + r"?t\s+stand)\b)",
    re.IGNORECASE,
)


# A preference or a training response is stated once per sentence: a contrast ("Not a fan of early starts, I'm
# much better in the afternoon", "I can handle intervals fine but long tempos cook me") or a restatement is one
# memory with the tags of both sides, as the outside writers label it (tests/data/extraction_cases.yaml, header);
# so is an untagged restatement in the next sentence ("Trail over road, always. Road running bores me stiff.").
_ONE_PER_SENTENCE = frozenset({MemoryType.PREFERENCE, RESPONSE})


def _restating(kept: Candidate, more: Candidate) -> Candidate:
    """`kept` with the statement of the next sentence that restates it."""
    said = f"{kept.content.rstrip('.')}; {more.content[:1].lower()}{more.content[1:]}"
    if len(said) > MAX_CONTENT:
        said = kept.content
    confidence = max(kept.confidence, more.confidence, key=CONFIDENCE_RANK.__getitem__)
    return replace(kept, content=said, confidence=confidence, evidence_end=max(kept.evidence_end, more.evidence_end))


def _one_fact(text: str, kept: Fact, fact: Fact) -> bool:
    """Whether two facts of a sentence are one: a preference or a response always (`_ONE_PER_SENTENCE`); a
    context when they share a tag, or both have none, or one has none and does not open with "I"."""
    if kept.type is not fact.type:
        return False
    if fact.type in _ONE_PER_SENTENCE:
        return True
    if set(_kin(kept.tags)) & set(_kin(fact.tags)) or not (kept.tags or fact.tags):
        return True
    if kept.tags and fact.tags:
        return False
    bare = fact if not fact.tags else kept
    return _OWN_SUBJECT_RE.match(text, bare.span.start, bare.span.end) is None


# Tags of one thing said two ways: where the athlete lives is often why they are at altitude ("We moved to Denver
# last year, still adjusting to the altitude").
_KIN = {"context:altitude": "context:location"}


def _kin(tags: Sequence[str]) -> list[str]:
    return [_KIN.get(t, t) for t in tags]


def _merge_within_sentence(text: str, facts: Sequence[Fact]) -> list[Fact]:
    """Facts of one type in one sentence that are one fact read across clauses (`_one_fact`): "I travel for
    work, so it's hotel gyms most months" is one travel context tagged travel, work and gym."""
    merged: list[Fact] = []
    for fact in facts:
        for i, kept in enumerate(merged):
            if _one_fact(text, kept, fact):
                span = Span(min(kept.span.start, fact.span.start), max(kept.span.end, fact.span.end))
                tags = tuple(dict.fromkeys([*kept.tags, *fact.tags]))
                confidence = max(kept.confidence, fact.confidence, key=CONFIDENCE_RANK.__getitem__)
                merged[i] = Fact(fact.type, span, tags, confidence)
                break
        else:
            merged.append(fact)
    return merged


def _within(found: list[Candidate]) -> list[Candidate]:
    """One injury per part of the body in a text: an injury whose parts another injury of the text names too, and
    more, is that injury said again ("My plantar fasciitis is back - left foot again")."""
    injured = [set(c.tags) for c in found if c.type is INJURY]
    if len(injured) < 2:
        return found
    return [c for c in found if c.type is not INJURY or not any(set(c.tags) < tags for tags in injured)]


def merge_duplicates(candidates: Iterable[Candidate]) -> list[Candidate]:
    """One candidate per fact: same type and same tags (or same content when untagged)."""
    kept: dict[tuple[MemoryType, tuple[str, ...], str], Candidate] = {}
    for c in candidates:
        key = (c.type, c.tags, "" if c.tags else normalize(c.content))
        previous = kept.get(key)
        if previous is None:
            kept[key] = c
        elif CONFIDENCE_RANK[c.confidence] > CONFIDENCE_RANK[previous.confidence]:
            kept[key] = replace(previous, confidence=c.confidence)
    return list(kept.values())


_DEFAULT_EXTRACTORS: tuple[Extractor, ...] = (RuleExtractor(),)


def default_extractors() -> list[Extractor]:
    return list(_DEFAULT_EXTRACTORS)


def extract_memories(text: str, source: MemorySource, source_reference: str | None = None) -> list[Candidate]:
    """Candidates from every default extractor, one per fact."""
    try:
        found = [c for e in _DEFAULT_EXTRACTORS for c in e.extract(text, source, source_reference)]
    except RecursionError:  # pragma: no cover - defensive: extraction must never break ingestion
        return []
    return merge_duplicates(found)
