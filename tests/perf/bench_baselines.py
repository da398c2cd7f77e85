"""The naive and physical comparisons, measured in this run on this disk (tests/perf/baselines.py):
raw single-row INSERT + COMMIT on SQLite (the app's PRAGMAs) and PostgreSQL, a LIKE '%word%'
scan over the shared generated data set (1,000,000 memories; 50,000 in quick mode) for a common
and a rare word, and OFFSET against keyset paging deep into one athlete's list.

The benches of the real paths print their own figures; these are what those figures are read
against. Nothing is asserted.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from persistence.engine import make_engine
from tests.perf import baselines, dataset
from tests.perf.figures import record


def _size(spec: dataset.Spec) -> str:
    return f"{spec.memories // 1_000_000}m" if spec.memories >= 1_000_000 else f"{spec.memories // 1_000}k"


def run(quick: bool = False) -> None:
    commits = 300 if quick else 2_000
    with tempfile.TemporaryDirectory(prefix="bench-raw-", dir=dataset.cache.CACHE.parent) as tmp:
        sqlite_rate = baselines.sqlite_commit_rate(Path(tmp), commits)
    print(f"raw INSERT+COMMIT, SQLite (WAL, synchronous=FULL): {sqlite_rate:,.0f}/s  (load {os.getloadavg()[0]:.2f})")
    record("raw_commit_per_s_sqlite", sqlite_rate)
    with dataset.postgres_database() as pg:
        if pg is not None:
            pg_rate = baselines.postgres_commit_rate(pg, commits)
            print(
                f"raw INSERT+COMMIT, PostgreSQL:                      {pg_rate:,.0f}/s  (load {os.getloadavg()[0]:.2f})"
            )
            record("raw_commit_per_s_postgres", pg_rate)

    spec = dataset.standard(quick)
    path, loaded = dataset.cached(spec)
    size = _size(spec)
    engine = make_engine(f"sqlite:///{path}")
    try:
        ordinary = loaded.athlete_ids[len(spec.heavy)]
        print(f"data set: {spec.memories:,} memories, {spec.athletes:,} athletes; LIKE scans, 20 runs each:")
        for kind, word in (("common", dataset.COMMON_WORDS[0]), ("rare", dataset.RARE_WORDS[0])):
            for scope, athlete in (("athlete", ordinary), ("heavy_athlete", loaded.heavy[0]), ("all", None)):
                timing = baselines.like_search(engine, word, athlete_id=athlete, runs=5 if scope == "all" else 20)
                print(
                    f"  LIKE '%{word}%' ({kind}), {scope.replace('_', ' ')}: p50 {timing.p50_ms:.1f} ms, "
                    f"p95 {timing.p95_ms:.1f} ms, {timing.rows} rows  (load {os.getloadavg()[0]:.2f})"
                )
                record(f"search_like_{scope}_p95_ms_{size}_{kind}", timing.p95_ms)
        deepest = loaded.heavy[-1]
        depth = (spec.heavy[-1] * 8 // 10) // 50 * 50
        offset = baselines.offset_page(engine, deepest, depth)
        keyset = baselines.keyset_page(engine, deepest, depth)
        print(
            f"list page {depth:,} rows deep (athlete with {spec.heavy[-1]:,} memories): "
            f"OFFSET p50 {offset.p50_ms:.2f} ms, keyset p50 {keyset.p50_ms:.2f} ms  (load {os.getloadavg()[0]:.2f})"
        )
        record(f"list_offset_page_ms_depth_{depth}", offset.p50_ms)
        record(f"list_keyset_page_ms_depth_{depth}", keyset.p50_ms)
    finally:
        engine.dispose()


if __name__ == "__main__":
    run(quick=True)
