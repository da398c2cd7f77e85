"""assets/app.css and the UI code agree: every `mr-` class the code uses is defined, every one
defined is used, and the theme has one block of variables for light and one for dark."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STYLESHEET = ROOT / "assets" / "app.css"
# A class in code: "mr-card"; one built in an f-string ends in "-" before the "{", e.g. "mr-outcome-{…}".
# Not a CSS variable such as "var(--mr-brand-text)".
USED = re.compile(r"(?<![\w-])mr-[a-z][a-z0-9_-]*")
DEFINED = re.compile(r"\.(mr-[a-z][a-z0-9_-]*)")


def used_classes() -> set[str]:
    found: set[str] = set()
    for path in [*(ROOT / "ui").rglob("*.py"), *(ROOT / "assets" / "components").glob("*.js")]:
        found.update(USED.findall(path.read_text(encoding="utf-8")))
    return found


def defined_classes() -> set[str]:
    css = re.sub(r"/\*.*?\*/", "", STYLESHEET.read_text(encoding="utf-8"), flags=re.DOTALL)
    return set(DEFINED.findall(css))


def covers(used: str, defined: str) -> bool:
    """A prefix such as "mr-outcome-" (from an f-string) covers the classes it can build."""
    return defined == used or (used.endswith("-") and defined.startswith(used))


def test_every_class_used_in_code_is_defined() -> None:
    defined = defined_classes()
    undefined = sorted(used for used in used_classes() if not any(covers(used, d) for d in defined))
    assert undefined == []


def test_every_class_defined_is_used() -> None:
    used = used_classes()
    unused = sorted(defined for defined in defined_classes() if not any(covers(u, defined) for u in used))
    assert unused == []


def test_one_root_block_and_one_dark_block() -> None:
    css = STYLESHEET.read_text(encoding="utf-8")
    assert len(re.findall(r"^:root\s*\{", css, flags=re.MULTILINE)) == 1
    assert len(re.findall(r"body\.body--dark", css)) == 1


def test_no_important_overrides() -> None:
    """Quasar's colours come from app.colors, so nothing needs to fight its !important classes."""
    css = STYLESHEET.read_text(encoding="utf-8")
    assert "!important" not in css
    assert "@layer" not in css


# Classes that come from Quasar or NiceGUI themselves (app.colors makes text-<colour> for ours).
FRAMEWORK_CLASSES = {
    "row", "column", "no-wrap", "absolute-center", "text-weight-bold", "text-white", "text-negative",
    "text-positive", "text-danger", "text-brand", "text-meta",
}  # fmt: skip
CLASS_LISTS = re.compile(
    r"\.classes\(\s*f?[\"']([^\"']*)[\"']"  # .classes("a b")
    r"|\.classes\(\s*(?:add|replace|remove)=f?\"([^\"]*)\""  # .classes(add="a")
    r"|(?<![@:\w-])class=\"([^\"]*)\""  # a template's class="a b" (not a bound :class)
    r"|\bwidth(?:: str)?\s*=\s*\"([^\"]*)\""  # a helper's width class: live_text(..., width="w-48")
)


def utility_classes_used() -> set[str]:
    found: set[str] = set()
    for path in [*(ROOT / "ui").rglob("*.py"), *(ROOT / "assets" / "components").glob("*.js")]:
        for match in CLASS_LISTS.finditer(path.read_text(encoding="utf-8")):
            words = next(group for group in match.groups() if group is not None).split()
            found.update(w for w in words if "{" not in w and not w.startswith(("mr-", "q-", "nicegui-")))
    return found


def test_every_utility_class_used_is_in_base_css() -> None:
    """The page has no Tailwind compiler: a utility class the code uses and base.css lacks does nothing."""
    css = re.sub(r"/\*.*?\*/", "", (ROOT / "assets" / "base.css").read_text(encoding="utf-8"), flags=re.DOTALL)
    defined = {name.replace("\\", "") for name in re.findall(r"\.((?:[a-z0-9-]|\\.)+)\s*\{", css)}
    missing = sorted(utility_classes_used() - defined - FRAMEWORK_CLASSES)
    assert missing == []
