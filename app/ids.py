"""Prefixed, time-sortable identifiers (`eval_0193c4...`)."""

import secrets
import time


def new_id(prefix: str) -> str:
    """A new id: prefix, millisecond timestamp and 64 random bits, sortable by creation time."""
    return f"{prefix}_{int(time.time() * 1000):012x}{secrets.token_hex(8)}"
