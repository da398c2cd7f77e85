"""`memory-review export` and `memory-review import`: a file out, proposals in, one-line errors."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tests.integration.test_cli import run


def test_export_to_a_file_and_import_it_as_proposals(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db, other = f"sqlite:///{tmp_path / 'a.sqlite3'}", f"sqlite:///{tmp_path / 'b.sqlite3'}"
    for url in (db, other):
        assert (
            run(
                ["user", "create", "jo", "--role", "athlete", "--password-stdin", "--db", url],
                capsys,
                "pw long enough\n",
            )[0]
            == 0
        )
    ingest = ["ingest", "--athlete", "jo", "--kind", "user_message", "--ref", "m1", "-", "--db", db]
    assert run(ingest, capsys, "I prefer morning runs.")[0] == 0
    notes = tmp_path / "notes.txt"
    notes.write_text("[2026-03-01] - Prefers morning runs\n[2026-03-02] - Climbs twice a week\n")
    code, out, _ = run(["import", "--athlete", "jo", str(notes), "--db", other], capsys)
    assert code == 0 and "2 proposals to review from notes.txt (plain text)." in out

    target = tmp_path / "jo.yaml"
    code, _, err = run(["export", "--athlete", "jo", "-o", str(target), "--db", db], capsys)
    assert code == 0 and "Wrote 0 memories of 'jo'" in err  # the ingested fact is still a proposal
    assert yaml.safe_load(target.read_text())["_schema"]["format_version"] == "1.0.0"
    code, _, err = run(["export", "--athlete", "jo", "-o", str(target), "--db", db], capsys)
    assert code == 1 and "File exists" in err  # never overwritten
    code, out, _ = run(["export", "--athlete", "jo", "--format", "pam", "--db", db], capsys)
    assert code == 0 and '"schema": "portable-ai-memory"' in out


def test_a_bad_file_is_one_line_and_imports_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = f"sqlite:///{tmp_path / 'a.sqlite3'}"
    run(["user", "create", "jo", "--role", "athlete", "--password-stdin", "--db", db], capsys, "pw long enough\n")
    bad = tmp_path / "memories.yaml"
    bad.write_text("_schema:\n  format_version: '1.0.0'\nmemories:\n  - id: a\n    type: preference\n    content: ''\n")
    code, out, err = run(["import", "--athlete", "jo", str(bad), "--db", db], capsys)
    assert (code, out) == (1, "")
    assert err.strip() == "error: memories entry 1 (a): Content: must not be empty"
    code, _, err = run(["import", "--athlete", "nobody", str(bad), "--db", db], capsys)
    assert code == 1 and "Unknown athlete 'nobody'" in err
