"""`make bench`: runs every tests/perf/bench_*.py module's run() and prints its figures."""

from __future__ import annotations

import importlib
import pkgutil
import sys
import time

import tests.perf


def main(selected: list[str]) -> int:
    names = sorted(m.name for m in pkgutil.iter_modules(tests.perf.__path__) if m.name.startswith("bench_"))
    if selected:
        names = [n for n in names if any(s in n for s in selected)]
    for name in names:
        print(f"\n== {name.removeprefix('bench_')} ==", flush=True)
        started = time.perf_counter()
        importlib.import_module(f"tests.perf.{name}").run()
        print(f"({time.perf_counter() - started:.1f} s)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
