"""Prefixed, time-sortable identifiers (`eval_0193c4...`)."""

import os
import random
import secrets
import time

# Ids need to be unique, not secret (every read is tenant-scoped): a seeded PRNG spares a
# system call per id, which showed up when writing thousands of results a second.
_random = random.Random(secrets.randbits(128))
# A forked child must not replay its parent's sequence.
os.register_at_fork(after_in_child=lambda: _random.seed(secrets.randbits(128)))


def new_id(prefix: str) -> str:
    """A new id: prefix, millisecond timestamp and 64 random bits, sortable by creation time."""
    return f"{prefix}_{int(time.time() * 1000):012x}{_random.getrandbits(64):016x}"
