"""Generated SQLite databases kept between bench modules and runs: a million memories take
minutes to load, so each `Spec` is built once and reused until the schema or the generator changes.

The key covers the spec, the migrations' source and the generator's source; a build holds a
lock, so two benches (or two engineers) asking for the same data set build it once. Files live
in .bench/data/ (ignored by git). Open a cached file read-only, or work on a `copy_to` copy.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy import Engine

from persistence.engine import make_engine
from persistence.migrate import MIGRATIONS, upgrade

ROOT = Path(__file__).resolve().parents[3]
CACHE = ROOT / ".bench" / "data"
KEEP = 4  # newest cached files kept; older ones are removed when a new one is built


def _sources_digest() -> str:
    digest = hashlib.sha256()
    for folder in (MIGRATIONS / "versions", Path(__file__).parent):
        for path in sorted(folder.glob("*.py")):
            digest.update(path.name.encode() + path.read_bytes())
    return digest.hexdigest()[:12]


def cached_sqlite(
    spec: object, build: Callable[[Engine, Any], dict[str, Any]], *, log: Callable[[str], None] = print
) -> tuple[Path, dict[str, Any]]:
    """A migrated SQLite file holding `spec`'s data, and what `build(engine, spec)` said about it
    (kept beside it as JSON) when it was built."""
    key = hashlib.sha256(f"{spec!r}|{_sources_digest()}".encode()).hexdigest()[:16]
    path = CACHE / f"{key}.sqlite3"
    CACHE.mkdir(parents=True, exist_ok=True)
    with (CACHE / f"{key}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        about = path.with_suffix(".json")
        if path.exists() and about.exists():
            log(f"(reusing the generated data set .bench/data/{path.name})")
            return path, json.loads(about.read_text())
        started = time.perf_counter()
        building = path.with_suffix(".building")
        _remove(building)
        engine = make_engine(f"sqlite:///{building}")
        upgrade(engine)
        engine.dispose()  # the build's connection is then the file's only one
        facts = build(engine, spec)
        with engine.connect() as connection:
            raw = connection.connection.dbapi_connection  # autocommit: no transaction around these
            assert raw is not None
            raw.execute("ANALYZE")
            raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the engine's connect set WAL again
        engine.dispose()
        building.rename(path)
        _remove(building)
        about.write_text(json.dumps(facts))
        log(f"(generated .bench/data/{path.name} in {time.perf_counter() - started:.0f} s)")
    _prune()
    return path, facts


def copy_to(cached: Path, target: Path) -> Path:
    """A private copy to write to (the cached file is checkpointed: one file, no WAL)."""
    shutil.copyfile(cached, target)
    return target


def _remove(path: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def _prune() -> None:
    files = sorted(CACHE.glob("*.sqlite3"), key=lambda p: p.stat().st_mtime, reverse=True)
    for old in files[KEEP:]:
        _remove(old)
        for suffix in (".lock", ".json"):
            old.with_suffix(suffix).unlink(missing_ok=True)
