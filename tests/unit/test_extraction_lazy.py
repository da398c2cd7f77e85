"""Importing the extraction package compiles no rule: a server or the desktop app imports it at start and serves its
first page without a second of regex compiling; the first extraction compiles them, once, whoever asks first."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _run(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def test_the_importers_at_start_compile_no_rule() -> None:
    out = _run(
        """
        import sys
        import domain.ingest, domain.import_parse
        from domain.extraction import Candidate, Extractor, default_extractors, extract_memories, suggest
        print(sorted(m for m in sys.modules if m.startswith("domain.extraction.")))
        """
    )
    assert out == "['domain.extraction.candidate']"


def test_two_threads_extracting_first_at_once_get_the_same_memories() -> None:
    out = _run(
        """
        import threading
        from domain.enums import MemorySource
        from domain.extraction import extract_memories, suggest
        text = "My left knee hurts after long runs. I prefer morning runs."
        results = [None, None]
        def work(i):
            results[i] = (extract_memories(text, MemorySource.ACTIVITY_NOTE), suggest("Prefers morning runs"))
        threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
        for t in threads: t.start()
        for t in threads: t.join()
        found, suggested = results[0]
        print(results[0] == results[1], [(c.type.value, c.tags) for c in found], suggested[0].value, suggested[1])
        """
    )
    assert out == (
        "True [('injury_history', ('body:knee',)), ('preference', ('time:morning',))] preference ('time:morning',)"
    )


def test_suggest_stays_a_function_after_the_rules_are_loaded() -> None:
    out = _run(
        """
        import domain.extraction
        domain.extraction.prepare()
        from domain.extraction import RuleExtractor, suggest
        print(callable(suggest), type(suggest).__name__, RuleExtractor.name)
        """
    )
    assert out == "True function rules"
