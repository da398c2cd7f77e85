"""Paths of the static assets and the app stylesheet."""

from __future__ import annotations

from functools import cache
from pathlib import Path

ASSETS = Path(__file__).resolve().parent.parent / "assets"
STYLESHEETS = ("base.css", "app.css")


@cache
def stylesheet() -> str:
    """base.css (a reset and the utility classes the pages use) and app.css, in that order."""
    return "\n".join((ASSETS / name).read_text(encoding="utf-8") for name in STYLESHEETS)
