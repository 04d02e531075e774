"""What a bounded interval costs: app.stats's intervals by n, made and then kept.

In process, no service: for n scores (Beta(2, 5) in [0, 1], so between the bounds: a
bootstrap), times `mean_interval` on a miss (the scores read and bootstrapped) and on a hit (the
same key and sums, as a poll with no new result), the paired interval of n differences, and the
cluster bootstrap of n scores in n/4 clusters; binary scores (Wilson, from the sums) for scale.
Median of `--repeats` runs each, in ms.

    .venv/bin/python bench/intervals.py
"""

import argparse
import random
import statistics
import time
from collections.abc import Callable

from app.stats import _bounded, clustered_spread, compare_metric, mean_interval


def timed(call: Callable[[], object], repeats: int) -> float:
    """Median wall time of `call` in ms."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def row(n: int, generator: random.Random, repeats: int) -> str:
    """One table row: the figures for n scores."""
    scores = [generator.betavariate(2, 5) for _ in range(n)]
    sums = (n, sum(scores), sum(x * x for x in scores))

    def miss() -> object:
        _bounded._CACHE.clear()
        return mean_interval(*sums, (0.0, 1.0), lambda: scores, cache_key="bench")

    method = mean_interval(*sums, (0.0, 1.0), lambda: scores).method
    hit = timed(lambda: mean_interval(*sums, (0.0, 1.0), list, cache_key="bench"), 50)
    baseline = [generator.betavariate(2, 5) for _ in range(n)]
    groups = [i // 4 for i in range(n)]
    binary = [float(generator.random() < 0.7) for _ in range(n)]
    binary_sums = (n, sum(binary), sum(binary))
    paired = timed(lambda: compare_metric(baseline, scores, None, None, 0.05), repeats)
    clustered = timed(lambda: clustered_spread(scores, groups), repeats)
    wilson = timed(lambda: mean_interval(*binary_sums, (0.0, 1.0), list), 50)
    return (
        f"| {n:,} | {method} | {timed(miss, repeats):.1f} | {hit:.3f} | {paired:.1f} | "
        f"{clustered:.1f} | {wilson:.3f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--sizes", default="10,100,1000,1001,3000,10000")
    args = parser.parse_args()
    generator = random.Random(1)
    print("| n | method | miss ms | hit ms | compare_metric ms | clustered ms | Wilson ms |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for n in (int(size) for size in args.sizes.split(",")):
        print(row(n, generator, args.repeats))


if __name__ == "__main__":
    main()
