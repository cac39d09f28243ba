"""The server process's garbage collector, tuned for many long-lived tables.

Every action creates and drops many small dicts (messages, observations); a full collection
walks every object alive, and with hundreds of tables in memory its pauses showed as the slow
tail of action latency (``meldhall bench server``). The objects alive at start move to the
permanent generation, and full collections come less often.
"""

from __future__ import annotations

import gc

THRESHOLDS = (50_000, 50, 100)
"""Allocations before a young collection, and young (then middle) collections before an
older one (CPython's defaults are 2,000, 10, 10)."""


def settle_memory() -> None:
    """Freeze what is alive now (the app, restored tables) and space out collections."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
