"""When the garbage collector walks everything the server holds.

Every open page keeps a few thousand objects (its elements, their props and listeners) for as long
as it is open, so each page built adds to the interpreter's oldest generation. The interpreter runs
a full collection whenever that generation has grown by a quarter: in a burst of 50 pages opening
with 50 already open, twice, 60-190 ms each with the event loop stopped, a fifth of the burst's CPU
(`make bench ONLY=clients`). Here the interpreter's own full collections are pushed far back, and
the server runs one on a timer instead, at most every FULL_COLLECTION_INTERVAL_S and only when the
interpreter would have been due one. The garbage of pages that were closed is still collected
within that interval.
"""

from __future__ import annotations

import gc

from nicegui import app

FULL_COLLECTION_INTERVAL_S = 30.0
DUE_AFTER_YOUNGER_COLLECTIONS = 10  # the interpreter's own default for a full collection
INTERPRETER_FULL_AFTER = 100  # its own full collections still happen, ten times less often


def install() -> None:
    app.on_startup(start)


def start() -> None:
    """What the process built to start (modules, NiceGUI, SQLAlchemy's mappers: hundreds of thousands
    of objects that live as long as it does) is taken out of the collector's reach first."""
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, INTERPRETER_FULL_AFTER)
    app.timer(FULL_COLLECTION_INTERVAL_S, collect_if_due, immediate=False)


def collect_if_due() -> bool:
    """A full collection if enough younger ones ran since the last: True when it ran."""
    if gc.get_count()[2] < DUE_AFTER_YOUNGER_COLLECTIONS:
        return False
    gc.collect()
    return True
