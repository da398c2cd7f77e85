"""No text from a user ever goes into a NiceGUI props string: the props parser reads a quote in it as the end of a
value, so a memory like 'x" innerHTML="<img onerror=…>' added properties to a button (the account page's Restore
button, fixed in 872fe52). A props string in ui/ may interpolate only constants (UPPER_CASE names) and the few
code-given names listed here; user text is set as a value: `element.props["aria-label"] = text`."""

from __future__ import annotations

import re
from pathlib import Path

UI = Path(__file__).resolve().parents[2] / "ui"
PROPS_FSTRING = re.compile(r"""\.props\(\s*f(?P<q>['"])(?P<body>.*?)(?P=q)""")
FIELD = re.compile(r"\{([^{}!:]+)")
CODE_GIVEN = {
    "autocomplete",  # ui/pages/account.py's _password_input: the browser's field kind, from our code
    "page.total",  # ui/components/review.py: a count (int)
}


def interpolated() -> list[tuple[str, str]]:
    found = []
    for path in sorted(UI.rglob("*.py")):
        for match in PROPS_FSTRING.finditer(path.read_text(encoding="utf-8")):
            for name in FIELD.findall(match.group("body")):
                found.append((f"{path.relative_to(UI.parent)}", name.strip()))
    return found


def test_props_strings_interpolate_only_constants() -> None:
    fields = interpolated()
    assert fields, "the scan found no f-string props at all: has the pattern stopped matching?"
    loose = [(where, name) for where, name in fields if not re.fullmatch(r"[A-Z][A-Z0-9_]*", name)]
    assert [name for _, name in loose if name not in CODE_GIVEN] == [], loose
