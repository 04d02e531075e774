"""The cyclic garbage collector, set for a long-lived service process (`loupe serve`, `loupe
worker`).

With CPython's defaults a worker spent about a third of its CPU per judge call in the
collector: a young collection every 700 allocations, and full ones that walk every object the
process holds (the imported libraries, the app and its routes: some 350,000). After start-up
those objects live as long as the process, so they are frozen (never walked again), and young
collections wait for LOUPE_GC_YOUNG_THRESHOLD allocations. Garbage without cycles is freed at
once as always; only cycles wait a little longer. Tests that build apps in one process are left
alone: freezing there would keep every earlier test's cycles.
"""

import gc


def settle(young_threshold: int) -> None:
    """Freeze what start-up left alive and space young collections `young_threshold`
    allocations apart; 0 leaves CPython's collector as it is."""
    if young_threshold <= 0:
        return
    # Start-up's own garbage goes first: frozen, it would never be freed.
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(young_threshold, middle, old)
