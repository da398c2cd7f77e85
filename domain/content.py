"""What a memory's content is, wherever it is checked or compared: its limit and its normal form."""

from __future__ import annotations

import re

MAX_CONTENT = 2000
"""Characters in a memory's or proposal's content, after trimming: the one limit (forms show it too)."""

_NON_WORD = re.compile(r"[^\w\s]")
_SPACE = re.compile(r"\s+")


def normalize(content: str) -> str:
    """The form two contents are compared in: lower case, no punctuation, single spaces."""
    return _NON_WORD.sub("", _SPACE.sub(" ", content.lower())).strip()
