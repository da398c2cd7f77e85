"""Text helpers: inline elements (always sent as text, never parsed as HTML) and clipping."""

from __future__ import annotations

from nicegui.elements.mixins.text_element import TextElement


class Inline(TextElement):
    """A <span>, <mark>, <del>, <ins> or other inline tag holding plain text."""

    def __init__(self, text: str, *, tag: str = "span") -> None:
        super().__init__(tag=tag, text=text)


def span(text: str, classes: str = "") -> Inline:
    return Inline(text).classes(classes)


def mark(text: str) -> Inline:
    return Inline(text, tag="mark").classes("mr-mark")


def clip(text: str, limit: int = 60) -> str:
    """One line of at most `limit` characters: runs of white space become one space, a cut ends in '…'."""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"
