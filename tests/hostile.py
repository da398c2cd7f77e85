"""The hostile inputs of tests/data/hostile_inputs.txt, decoded (see the file's header for its escapes)."""

from __future__ import annotations

import codecs
from dataclasses import dataclass
from functools import cache
from pathlib import Path

FILE = Path(__file__).resolve().parent / "data" / "hostile_inputs.txt"


@dataclass(frozen=True)
class Hostile:
    line: int
    raw: str  # as written in the file
    value: str | bytes

    @property
    def text(self) -> str:
        """The input as a text field receives it (malformed bytes become lone surrogates)."""
        if isinstance(self.value, bytes):
            return self.value.decode("utf-8", "surrogateescape")
        return self.value

    @property
    def data(self) -> bytes:
        """The input as bytes (a file, a request body); lone surrogates kept as their UTF-8-like bytes."""
        if isinstance(self.value, bytes):
            return self.value
        return self.value.encode("utf-8", "surrogatepass")

    def __str__(self) -> str:
        return f"line {self.line}: {self.raw[:40]!r}"


def decode(raw: str) -> str | bytes:
    if raw.startswith("esc:"):
        return codecs.decode(raw[4:], "unicode_escape")
    if raw.startswith("bytes:"):
        return codecs.escape_decode(raw[6:].encode("ascii"))[0]  # type: ignore[attr-defined,no-any-return]
    if raw.startswith("repeat:"):
        _, count, rest = raw.split(":", 2)
        return rest * int(count)
    return raw


@cache
def hostile_inputs() -> tuple[Hostile, ...]:
    found = []
    for number, raw in enumerate(FILE.read_text(encoding="utf-8").split("\n"), start=1):
        if not raw or raw.startswith("#"):  # an empty input is written 'esc:'
            continue
        found.append(Hostile(number, raw, decode(raw)))
    return tuple(found)
