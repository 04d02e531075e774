"""Ids per second: the seeded Mersenne Twister Loupe used before, against os.urandom (now).

    python bench/ids.py [--count N]

Prints each source's rate (best of 5 runs of N ids) and the ratio; results go to
docs/benchmarks.md.
"""

import argparse
import random
import secrets
import time
import timeit

from app.ids import new_id

_twister = random.Random(secrets.randbits(128))


def twister_id(prefix: str) -> str:
    """The id as app/ids.py made it before: 64 bits from a seeded random.Random."""
    return f"{prefix}_{int(time.time() * 1000):012x}{_twister.getrandbits(64):016x}"


def rate(make: object, count: int) -> float:
    best = min(timeit.repeat(lambda: make("res"), number=count, repeat=5))  # type: ignore[operator]
    return count / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=200_000)
    count = parser.parse_args().count
    before = rate(twister_id, count)
    now = rate(new_id, count)
    print(f"Mersenne Twister (before): {before:,.0f} ids/s ({1e6 / before:.2f} µs an id)")
    print(f"os.urandom (app/ids.py):   {now:,.0f} ids/s ({1e6 / now:.2f} µs an id)")
    print(f"ratio: {before / now:.2f}x; extra cost {1e6 / now - 1e6 / before:.2f} µs an id")


if __name__ == "__main__":
    main()
