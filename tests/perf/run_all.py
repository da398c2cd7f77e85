"""`make bench`: runs every tests/perf/bench_*.py module's run() and prints its figures.

`make bench ARGS=--quick` runs each module with quick=True (smaller data sets, under three
minutes in all); `make bench ONLY=search` runs the modules whose names contain "search".
Modules print their own lines as they go and call `record(name, value)` (tests/perf/figures.py)
for the figures that matter; at the end one table lists them with the load average at the time
each was measured, and .bench/results.json holds the same figures (name → number, units in the
names). Nothing is asserted: a module that fails is reported and the others still run.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import json
import os
import pkgutil
import sys
import time
import traceback
from pathlib import Path

import tests.perf
from tests.perf.figures import Figure, record, recorded

__all__ = ["main", "record"]

RESULTS = Path(__file__).resolve().parents[2] / ".bench" / "results.json"


def _run_module(name: str, quick: bool) -> bool:
    run = importlib.import_module(f"tests.perf.{name}").run
    if "quick" in inspect.signature(run).parameters:
        run(quick=quick)
    else:
        run()  # a module without a quick mode runs as it is
    return True


def _table(figures: list[Figure]) -> str:
    width = max([len(f.name) for f in figures] + [6])
    lines = [f"{'figure':<{width}}  {'value':>12}  {'unit':<4}  load avg", "-" * (width + 32)]
    for f in figures:
        value = f"{f.value:,.0f}" if abs(f.value) >= 100 else f"{f.value:,.2f}"
        lines.append(f"{f.name:<{width}}  {value:>12}  {f.unit:<4}  {f.load:.2f}")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="make bench", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller data sets, under three minutes")
    parser.add_argument("only", nargs="*", help="run the modules whose names contain one of these")
    args = parser.parse_args(argv)
    names = sorted(m.name for m in pkgutil.iter_modules(tests.perf.__path__) if m.name.startswith("bench_"))
    if args.only:
        names = [n for n in names if any(s in n for s in args.only)]
    mode = "quick" if args.quick else "full"
    print(f"make bench ({mode}): {len(names)} modules; load average {os.getloadavg()[0]:.2f}", flush=True)
    started = time.perf_counter()
    failed = []
    for name in names:
        print(f"\n== {name.removeprefix('bench_')} ==", flush=True)
        module_started = time.perf_counter()
        try:
            _run_module(name, args.quick)
        except Exception:  # one broken bench must not hide the others' figures
            traceback.print_exc()
            failed.append(name)
        seconds = time.perf_counter() - module_started
        record(f"bench_{name.removeprefix('bench_')}_duration_s", seconds)
        print(f"({seconds:.1f} s)", flush=True)
    total = time.perf_counter() - started
    record(f"make_bench_{mode}_duration_s", total)
    figures = recorded()
    print(f"\n== figures ({mode} mode, {total / 60:.1f} min) ==\n{_table(figures)}")
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps({f.name: f.value for f in figures}, indent=1) + "\n")
    print(f"written to {RESULTS.relative_to(Path.cwd()) if RESULTS.is_relative_to(Path.cwd()) else RESULTS}")
    if failed:
        print(f"failed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
