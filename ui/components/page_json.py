"""Data for a browser-drawn element as one JSON string that keeps the page's element tree plain ASCII.

NiceGUI writes a page's element tree into its HTML and escapes it there with `str.translate`. That
call copies a string of plain ASCII without `& < > \\` $` at once, but once a single character outside
that set is anywhere in the tree (a "·" between words, an "×", an "é" in a memory) it looks up every
character in a table: about 2.5 ms of the event loop for a Context page, a tenth of what the page
costs the server. An element that sends its data through `page_json` sends those characters as
`\\uXXXX` escapes; the browser reads them back with `JSON.parse` and shows the same text.
"""

from __future__ import annotations

import json
from typing import Any

# Characters NiceGUI's HTML escaping would replace: sent escaped, so there is nothing left to replace.
_ESCAPES = (("&", "\\u0026"), ("<", "\\u003c"), (">", "\\u003e"), ("`", "\\u0060"), ("$", "\\u0024"))


def page_json(value: Any) -> str:
    """`value` as JSON in plain ASCII, with none of the characters HTML escaping replaces."""
    text = json.dumps(value, ensure_ascii=True, separators=(",", ":"))
    for char, escape in _ESCAPES:
        if char in text:
            text = text.replace(char, escape)
    return text
