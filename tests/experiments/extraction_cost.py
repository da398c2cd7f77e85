"""Extraction's cost per text, for a profiler: runs the development texts (the labelled sets but the held-out ones)
through the extractor after one warm-up pass.

Instructions per text (the figure that decides under load; texts/s is meaningless on a busy machine): the measured
passes stand between a call of getppid and one of getpgrp, so callgrind can count them alone,

    valgrind --tool=callgrind --zero-before=getppid --dump-before=getpgrp --callgrind-out-file=/tmp/cg.out \
        python -m tests.experiments.extraction_cost

and the "totals:" of the first dump (/tmp/cg.out.1) over the texts counted (printed) is the figure. `--profile`
prints cProfile's top functions for the measured passes instead.
"""

from __future__ import annotations

import argparse
import os
import pickle
import time
from pathlib import Path

from domain.enums import MemorySource
from domain.extraction import extract_memories
from tests.experiments.extraction_texts import labelled_texts


def _run(texts: list[str], passes: int) -> None:
    for _ in range(passes):
        for text in texts:
            extract_memories(text, MemorySource.ACTIVITY_NOTE)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--passes", type=int, default=1, help="measured passes over the texts, after the warm-up")
    parser.add_argument("--profile", action="store_true", help="print cProfile's top functions of the measured passes")
    parser.add_argument("--cache", type=Path, help="a pickle of the texts, written on first use (skips YAML parsing)")
    args = parser.parse_args()
    if args.cache is not None and args.cache.exists():
        texts = pickle.loads(args.cache.read_bytes())
    else:
        texts = labelled_texts(held_out=False)
        if args.cache is not None:
            args.cache.write_bytes(pickle.dumps(texts))
    _run(texts[:20], 1)  # the warm-up: compiles whatever is compiled on first use
    os.getppid()  # callgrind's --zero-before mark
    start = time.process_time()
    if args.profile:
        import cProfile
        import pstats

        profile = cProfile.Profile()
        profile.runcall(_run, texts, args.passes)
        pstats.Stats(profile).sort_stats("tottime").print_stats(40)
    else:
        _run(texts, args.passes)
    seconds = time.process_time() - start
    os.getpgrp()  # callgrind's --dump-before mark
    counted = len(texts) * args.passes
    print(f"texts counted: {counted}; {counted / max(seconds, 1e-9):,.0f} texts/s of CPU time")


if __name__ == "__main__":
    main()
