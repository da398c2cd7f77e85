"""Whether two commits' extractors give the same candidates: prints only how many texts differ.

Every text of every labelled set (tests/data/extraction_*.yaml, the held-out sets too) and every hostile input is
run through this tree's extractor and through the extractor of `--old` (its domain/ package taken with `git
archive`, run in a process of its own); a text differs when its candidates' type, content, confidence, tags or
evidence span differ, or one side raised. No text is printed: the held-out sets are only ever counted.

Run from the project root: `python -m tests.experiments.extraction_equal --old <commit>`.
"""

from __future__ import annotations

import argparse
import io
import pickle
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from tests.experiments.extraction_texts import all_texts, repo_root

Outcome = tuple[tuple[object, ...], ...] | str


def _outcomes(texts: list[str], rules_only: bool) -> list[Outcome]:
    from domain.enums import MemorySource
    from domain.extraction import RuleExtractor, extract_memories, merge_duplicates

    def extract(text: str) -> list:  # type: ignore[type-arg]
        if rules_only:
            return merge_duplicates(RuleExtractor().extract(text, MemorySource.ACTIVITY_NOTE))
        return extract_memories(text, MemorySource.ACTIVITY_NOTE)

    found: list[Outcome] = []
    for text in texts:
        try:
            candidates = extract(text)
        except Exception as error:  # a raise is an outcome to compare like any other
            found.append(f"raised {type(error).__name__}")
            continue
        found.append(
            tuple(
                (c.type.value, c.content, c.confidence.value, c.tags, c.evidence_start, c.evidence_end)
                for c in candidates
            )
        )
    return found


def _old_outcomes(commit: str, texts: list[str], rules_only: bool) -> list[Outcome]:
    root = repo_root()
    archive = subprocess.run(["git", "archive", commit, "domain"], cwd=root, check=True, capture_output=True).stdout
    with tempfile.TemporaryDirectory() as tmp:
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(tmp, filter="data")
        texts_file, out_file = Path(tmp, "texts.pickle"), Path(tmp, "out.pickle")
        texts_file.write_bytes(pickle.dumps(texts))
        args = [sys.executable, "-m", "tests.experiments.extraction_equal", "--worker", str(texts_file), str(out_file)]
        # the old domain/ first on the path, this tree's tests/ after it
        env_path = f"{tmp}:{root}"
        subprocess.run(
            [*args, *(["--rules-only"] if rules_only else [])],
            cwd=tmp,
            check=True,
            env={"PYTHONPATH": env_path, "PATH": "/usr/bin:/bin"},
        )
        outcomes: list[Outcome] = pickle.loads(out_file.read_bytes())
        return outcomes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", help="the commit to compare this tree's extractor with")
    parser.add_argument("--rules-only", action="store_true", help="compare the rule extractor alone")
    parser.add_argument("--worker", nargs=2, metavar=("TEXTS", "OUT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        texts = pickle.loads(Path(args.worker[0]).read_bytes())
        Path(args.worker[1]).write_bytes(pickle.dumps(_outcomes(texts, args.rules_only)))
        return
    if not args.old:
        parser.error("--old is required")
    texts = all_texts(held_out=True)
    old = _old_outcomes(args.old, texts, args.rules_only)
    new = _outcomes(texts, args.rules_only)
    differing = sum(1 for a, b in zip(old, new, strict=True) if a != b)
    print(f"texts whose candidates differ: {differing} of {len(texts)}")


if __name__ == "__main__":
    main()
