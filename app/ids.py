"""Prefixed, time-sortable identifiers (`evn_0193c4...`): one prefix per entity.

Prefixes: `evn` evaluation, `run` dataset run, `ds` dataset, `model` candidate model, `cmp`
comparison, `we` webhook endpoint, `msg` webhook event, `whd` webhook delivery, `res` result,
`ten` tenant, `key` API key, `rule` online rule, `lbl` label; and OpenAI's shapes on the
OpenAI-compatible routes: `eval` eval, `evalrun` eval run, `file` file
(`tests/test_id_prefixes.py` checks they stay distinct).
"""

import os
import time
from datetime import datetime

# Loupe evaluations. Until 2026-11 they were `eval_`, as OpenAI evals still are, so a cursor
# could not tell the two apart; the ids already issued keep resolving (lookups take the whole
# id, and an evaluations cursor takes either prefix: `eval_` ids sort before every `evn_` one,
# as they were all issued before it).
EVALUATION_PREFIX = "evn"
EVALUATION_PREFIXES = (EVALUATION_PREFIX, "eval")


def new_id(prefix: str) -> str:
    """A new id: prefix, millisecond timestamp and 64 random bits, sortable by creation time.

    The random bits come from the kernel's CSPRNG: ids are seen by clients, and a seeded PRNG's
    output (the Mersenne Twister) predicts the next id from a few hundred observed ones. The
    cost is about 0.3 µs an id (bench/ids.py), nothing beside the row the id is written in; and
    a forked child cannot replay its parent's sequence.
    """
    return f"{prefix}_{int(time.time() * 1000):012x}{os.urandom(8).hex()}"


def id_floor(prefix: str, moment: datetime) -> str:
    """The lowest id `new_id(prefix)` can issue at `moment`: every id issued before it sorts
    below this one, so "created before" is a range of the primary key."""
    return f"{prefix}_{max(int(moment.timestamp() * 1000), 0):012x}"
