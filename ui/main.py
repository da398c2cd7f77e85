"""Entry file: starts the app from the environment (MEMORY_REVIEW_*).

NiceGUI's `User` test fixture executes this file (`main_file` in the pytest config).
"""

from __future__ import annotations

import os

from persistence.settings import Settings
from ui.server import run

settings = Settings()
run(settings, demo=os.environ.get("MEMORY_REVIEW_DEMO") == "1", host=settings.host, port=settings.port)
