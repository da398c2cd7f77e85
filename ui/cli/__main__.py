"""`python -m ui.cli`, the same as the `memory-review` console script."""

from ui.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
