"""Turn an activity note or chat message into candidate memories (M13 seed §5.1, improved).

The seed matched its regexes against the whole text, so "no knee pain today" became an
injury and one fact matched by two patterns became two memories. Here the text is cut into
sentences and clauses first (`clauses`); every rule then looks at one clause, and a clause is
skipped when it is a question, about someone else (`subject`), negated, recovered or
hypothetical (`injuries`). Each clause yields at most one candidate per memory type
(`facts`, `rules`), its content tidied into a third-person statement (`tidy`), and equal facts
within one text are merged (`extractor`).

Confidence follows the seed's `_assess_confidence`: explicit statements (I prefer, my job,
history of / chronic, explicit "remember that") are high; preferences and training responses
are medium; everything else (a body part with a symptom, family, other sports, recovery rate)
is low.

Tags come from one vocabulary (domain/vocabulary.py); `suggest(text)` gives the Add dialog a type and
tags from the same rules.

Every pattern and every loop is linear in the length of the text: tests/unit/test_extraction_linear.py.
"""

from domain.content import MAX_CONTENT as MAX_CONTENT_CHARS
from domain.extraction.extractor import (
    Candidate,
    Extractor,
    RuleExtractor,
    default_extractors,
    extract_memories,
    merge_duplicates,
)
from domain.extraction.suggest import suggest

__all__ = [
    "MAX_CONTENT_CHARS",
    "Candidate",
    "Extractor",
    "RuleExtractor",
    "default_extractors",
    "extract_memories",
    "merge_duplicates",
    "suggest",
]
