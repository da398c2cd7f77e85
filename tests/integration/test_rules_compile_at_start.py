"""A server compiles the extraction rules in the background as it starts, so the first ingest or Add suggestion
after a start does not wait about a second for them; importing the server compiles nothing (its first page
does not wait either)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_server_compiles_the_rules_beside_its_start_not_on_import() -> None:
    code = """
        import sys
        import ui.server
        rules = "domain.extraction.extractor"
        before = rules in sys.modules
        thread = ui.server.compile_rules_in_background()
        thread.join()
        from domain.enums import MemorySource
        from domain.extraction import extract_memories
        found = extract_memories("My left knee hurts after long runs.", MemorySource.ACTIVITY_NOTE)
        print(before, rules in sys.modules, thread.daemon, [c.type.value for c in found])
        """
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "False True True ['injury_history']"
