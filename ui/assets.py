"""Paths of the static assets and the app stylesheet."""

from __future__ import annotations

from functools import cache
from pathlib import Path

ASSETS = Path(__file__).resolve().parent.parent / "assets"


@cache
def stylesheet() -> str:
    return (ASSETS / "app.css").read_text(encoding="utf-8")
