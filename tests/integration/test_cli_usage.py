"""The command line explains itself: help for every command and option, --version, no tracebacks."""

from __future__ import annotations

import argparse
import ast
import graphlib
import pkgutil
import subprocess
import sys
from collections.abc import Iterator
from importlib.metadata import version
from pathlib import Path

import pytest

from ui.cli import build_parser, main

ROOT = Path(__file__).parents[2]
SCRIPT = Path(sys.executable).parent / "memory-review"
CLI_DIR = ROOT / "ui" / "cli"
CLI_MODULES = ["ui.cli", *sorted(f"ui.cli.{info.name}" for info in pkgutil.iter_modules([str(CLI_DIR)]))]
COMMANDS = ("serve", "db", "user", "audit", "ingest", "purge")


def test_version_comes_from_the_installed_distribution() -> None:
    result = subprocess.run([str(SCRIPT), "--version"], capture_output=True, text=True, check=False)
    assert (result.returncode, result.stdout) == (0, f"memory-review {version('memory-review')}\n")


def test_no_command_prints_the_help_and_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: memory-review") and all(f"    {command} " in err for command in COMMANDS)
    assert main(["user"]) == 2
    assert "create    create an athlete or admin account" in capsys.readouterr().err


def test_every_command_and_option_has_help() -> None:
    missing = []
    for parser in _parsers(build_parser()):
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                missing += [f"{parser.prog} {choice.dest}" for choice in action._choices_actions if not choice.help]
            elif not action.help:
                missing.append(f"{parser.prog} {action.dest}")
    assert missing == []


def _parsers(parser: argparse.ArgumentParser) -> Iterator[argparse.ArgumentParser]:
    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for subparser in action.choices.values():
                yield from _parsers(subparser)


def test_user_create_without_a_terminal_says_to_use_password_stdin(tmp_path: Path) -> None:
    database = tmp_path / "users.sqlite3"
    result = subprocess.run(
        [str(SCRIPT), "user", "create", "kim", "--role", "athlete", "--db", f"sqlite:///{database}"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 1
    assert result.stderr == "error: No terminal to ask for the password on: pipe it in and add --password-stdin.\n"
    assert not database.exists()


def test_an_unreachable_database_is_one_line_without_its_password(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", "verify", "--db", "postgresql+psycopg://postgres:secret@127.0.0.1:1/none"]) == 1
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith("error: Cannot open the database postgresql+psycopg://postgres:***@127.0.0.1:1/none: ")
    assert "secret" not in line


def test_a_bad_setting_names_its_variable(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMORY_REVIEW_PORT", "eighty")
    assert main(["db", "upgrade", "--db", f"sqlite:///{tmp_path / 'x.sqlite3'}"]) == 1
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith("error: MEMORY_REVIEW_PORT: Input should be a valid integer")


@pytest.mark.parametrize("module", CLI_MODULES)
def test_each_module_imports_first_in_a_fresh_interpreter(module: str) -> None:
    result = subprocess.run(
        [sys.executable, "-c", f"import {module}"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr


def test_no_cli_module_imports_one_that_imports_it_back() -> None:
    graph = {module: _cli_imports(module) for module in CLI_MODULES}
    try:
        list(graphlib.TopologicalSorter(graph).static_order())
    except graphlib.CycleError as cycle:
        pytest.fail(f"import cycle: {' -> '.join(cycle.args[1])}")


def _cli_imports(module: str) -> set[str]:
    """The modules of ui.cli that `module` imports anywhere in its text (functions included)."""
    relative = module.removeprefix("ui.cli").lstrip(".") or "__init__"
    tree = ast.parse((CLI_DIR / f"{relative}.py").read_text())
    imported: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                submodule = f"{node.module}.{alias.name}"
                imported.add(submodule if submodule in CLI_MODULES else node.module)
    return {name for name in imported if name in CLI_MODULES and name != module}
