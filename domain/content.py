"""What a memory's content is, wherever it is checked or compared: its limit and its normal form."""

from __future__ import annotations

import re
import unicodedata

MAX_CONTENT = 2000
"""Characters in a memory's or proposal's content, after trimming: the one limit (forms show it too)."""

_NON_WORD = re.compile(r"[^\w\s]")
_SPACE = re.compile(r"\s+")


def normalize(content: str) -> str:
    """The form two contents are compared in: lower case, no punctuation, single spaces."""
    return _NON_WORD.sub("", _SPACE.sub(" ", content.lower())).strip()


# One rule for every text a person or program sends in (domain.schemas, domain.users, reasons):
# NFC, and none of the characters that hide or disguise what is shown. Control characters (C0, C1,
# DEL; a newline or tab only where the field may hold several lines) and the bidirectional
# embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069: "\u202enimda" shows as "admin")
# are refused with a message; a lone surrogate is not text at all. PostgreSQL refuses NUL outright.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_MULTILINE_ALLOWED = frozenset("\n\t")


def _unsafe(ch: str, multiline: bool) -> str | None:
    if ch in BIDI_CONTROLS:
        return "must not contain characters that change the reading direction"
    category = unicodedata.category(ch)
    if category == "Cc" and not (multiline and ch in _MULTILINE_ALLOWED):
        return "must not contain control characters"
    if category == "Cs":
        return "must be valid text (it holds a broken character)"
    return None


def text_problem(text: str, *, multiline: bool = False) -> str | None:
    """What is wrong with `text` under the rule, in words for the person who typed it; None if nothing."""
    for ch in text:
        if ch.isprintable():  # every character the rule refuses is unprintable
            continue
        if (problem := _unsafe(ch, multiline)) is not None:
            return problem
    return None


def clean_text(text: str, *, multiline: bool = False) -> str:
    """The text in NFC; raises ValueError naming the problem when the rule refuses it."""
    if (problem := text_problem(text, multiline=multiline)) is not None:
        raise ValueError(problem)
    return unicodedata.normalize("NFC", text)


def scrub_text(text: str, *, multiline: bool = True) -> str:
    """The text in NFC without what the rule refuses: for text a program sends (a coach's note),
    which is kept as evidence rather than sent back."""
    kept = "".join(ch for ch in text if _unsafe(ch, multiline) is None)
    return unicodedata.normalize("NFC", kept)
