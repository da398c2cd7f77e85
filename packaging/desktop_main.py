"""Entry of the packaged desktop app: `memory-review-desktop [--demo|--empty] [--data-dir DIR]`."""

from __future__ import annotations

import multiprocessing
import sys

if __name__ == "__main__":
    multiprocessing.freeze_support()  # the window runs in a spawned child process of this executable
    from ui.cli import main

    sys.exit(main(["desktop", *sys.argv[1:]]))
