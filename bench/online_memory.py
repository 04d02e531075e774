"""Where the embedded API's memory goes while it ingests and judges OTLP spans (issue 26).

The same service, spans and 10% rule as bench/online_ingest.py (embedded mode: SQLite and the
in-process worker), with bench/memory_probe/sitecustomize.py on the served process's
PYTHONPATH. At each checkpoint (after the warm-up, then after every `--step` spans once every
sampled call is judged and the workers are idle) the probe reports live objects by type, RSS,
SQLite's own allocations (sqlite3_memory_used: its page caches, which tracemalloc does not
see) and glibc malloc's figures (in use, free in its arenas), at the last one RSS after
malloc_trim too; from `--trace-from` spans on, a tracemalloc snapshot as well (tracing slows
the service ~20x). Printed per step: the figures, growth by object type, by traceback.

    .venv/bin/python bench/online_memory.py --spans 300000 --step 100000
    .venv/bin/python bench/online_memory.py --spans 20480 --step 5120 --trace-from 5120
"""

import argparse
import json
import random
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import online_ingest as ingest  # noqa: E402

from bench.procs import pythonpath  # noqa: E402

PROBE = Path(__file__).resolve().parent / "memory_probe"


def checkpoint(
    folder: Path, label: str, trace: bool = False, trim: bool = False
) -> tuple[tracemalloc.Snapshot | None, dict]:
    (folder / f"{label}.req").write_text(json.dumps({"trace": trace, "trim": trim}))
    deadline = time.monotonic() + 300
    while not (folder / f"{label}.done").exists():
        if time.monotonic() > deadline:
            raise SystemExit(f"the probe did not answer {label}")
        time.sleep(0.2)
    snap = folder / f"{label}.snap"
    return (
        tracemalloc.Snapshot.load(str(snap)) if snap.exists() else None,
        json.loads((folder / f"{label}.json").read_text()),
    )


def judged_all(client, rule: str, timeout: float = 900) -> dict:
    """Wait until every sampled call is judged (or errored) and the workers are idle."""
    deadline = time.monotonic() + timeout
    while True:
        found = ingest.counts(client, rule)
        if found["judged"] + found["errored"] >= found["sampled"] or time.monotonic() > deadline:
            time.sleep(2)
            return ingest.counts(client, rule)
        time.sleep(0.5)


def mib(n: float) -> str:
    return f"{n / 1024**2:.1f}"


def show(label: str, data: dict) -> None:
    if "error" in data:
        print(f"  {label}: probe error {data['error']}")
        return
    m = data["malloc"]
    traced = (
        f"traced by tracemalloc {mib(data['traced'][0])} MiB (tracemalloc's own "
        f"{mib(data['tracemalloc_overhead'])}); "
        if data["traced"]
        else ""
    )
    trimmed = (
        f" (after malloc_trim {data['rss_kib_after_trim'] / 1024:.1f})"
        if "rss_kib_after_trim" in data
        else ""
    )
    print(
        f"  {label}: RSS {data['rss_kib'] / 1024:.1f} MiB{trimmed}; {traced}"
        f"SQLite's allocations {mib(data['sqlite_memory_used'])} MiB (high "
        f"{mib(data['sqlite_memory_highwater'])}) over {data['sqlite_connections']} connections, "
        f"cache_size {sorted(set(map(str, data['sqlite_cache_size'])))}; malloc in use "
        f"{mib(m['uordblks'] + m['hblkhd'])} MiB, free in arenas {mib(m['fordblks'])}, "
        f"arenas {mib(m['arena'])}, mmapped {mib(m['hblkhd'])}; threads {data['threads']}; "
        f"gc objects {sum(data['objects'].values()):,}, of them sqlite3 Statements "
        f"{data['objects'].get('Statement', 0)}",
        flush=True,
    )
    per = data.get("sqlite_db_status", [])
    if per:
        print(
            "    SQLite per connection (KiB page cache / schema / prepared statements): "
            + ", ".join(
                f"{d.get('cache', 0) // 1024}/{d.get('schema', 0) // 1024}/"
                f"{d.get('statements', 0) // 1024}"
                for d in per
            )
        )


def compare(
    before: tuple[tracemalloc.Snapshot, dict], after: tuple[tracemalloc.Snapshot, dict], top: int
) -> None:
    filters = [
        tracemalloc.Filter(False, tracemalloc.__file__),
        tracemalloc.Filter(False, "<frozen importlib._bootstrap>"),
        tracemalloc.Filter(False, "<frozen importlib._bootstrap_external>"),
    ]
    objects_before, objects_after = before[1].get("objects", {}), after[1].get("objects", {})
    grown = sorted(
        ((objects_after.get(k, 0) - objects_before.get(k, 0), k) for k in objects_after),
        reverse=True,
    )
    print(
        "    live objects grown by type: "
        + ", ".join(f"{name} {count:+,}" for count, name in grown[:top] if count > 0)
    )
    if before[0] is None or after[0] is None:
        return
    old, new = before[0].filter_traces(filters), after[0].filter_traces(filters)
    diff = new.compare_to(old, "traceback")
    growth = sum(stat.size_diff for stat in diff)
    print(f"    traced growth {mib(growth)} MiB; top by traceback:")
    for stat in sorted(diff, key=lambda s: -s.size_diff)[:top]:
        if stat.size_diff <= 0:
            break
        frames = [
            f"{Path(frame.filename).name}:{frame.lineno}"
            for index, frame in enumerate(stat.traceback)
            if "site-packages" not in frame.filename or index == 0
        ]
        print(
            f"    {stat.size_diff / 1024:+9.1f} KiB {stat.count_diff:+7d} blocks  "
            + " <- ".join(frames[:6])
        )
    print("    top by file:line:")
    for stat in new.compare_to(old, "lineno")[:top]:
        if stat.size_diff <= 0:
            break
        frame = stat.traceback[0]
        print(
            f"    {stat.size_diff / 1024:+9.1f} KiB {stat.count_diff:+7d} blocks  "
            f"{frame.filename.replace(str(ingest.ROOT) + '/', '')}:{frame.lineno}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--spans", type=int, default=300_000)
    parser.add_argument("--step", type=int, default=100_000)
    parser.add_argument("--batch", type=int, default=512)
    parser.add_argument("--rate", type=float, default=0.1)
    parser.add_argument("--frames", type=int, default=12, help="tracemalloc frames a traceback")
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument(
        "--trace-from",
        type=int,
        default=-1,
        help="start tracemalloc at the checkpoint of this many spans (it slows the service ~20x)",
    )
    parser.add_argument("--malloc-arena-max", default="", help="MALLOC_ARENA_MAX for the service")
    args = parser.parse_args()
    clock = ingest.ArrivalClock()
    with (
        tempfile.TemporaryDirectory(prefix="loupe-memory-") as directory,
        ingest.ScriptedJudge() as judge,
    ):
        folder = Path(directory)
        judge.script(clock)
        settings = {
            "PYTHONPATH": pythonpath(PROBE),
            "BENCH_MEMORY_DIR": directory,
            "BENCH_MEMORY_FRAMES": str(args.frames),
        }
        if args.malloc_arena_max:
            settings["MALLOC_ARENA_MAX"] = args.malloc_arena_max
        with ingest.service("embedded", judge, **settings) as (base_url, env, pid, _):
            client = ingest.tenant_client(base_url, env, "ten")
            rule = ingest.make_rule(client, args.rate)
            ingest.send(client, pid, 4, args.batch, seed=99, rate=args.rate)
            judged_all(client, rule)
            points = [checkpoint(folder, "0", trace=args.trace_from == 0)]
            show("0 spans", points[-1][1])
            requests = args.step // args.batch
            sent = 0
            seed = 7
            while sent + requests * args.batch <= args.spans:
                started = time.perf_counter()
                row = ingest.send(client, pid, requests, args.batch, seed=seed, rate=args.rate)
                seed += 1
                sent += row["spans"]
                found = judged_all(client, rule)
                last = sent + requests * args.batch > args.spans
                points.append(
                    checkpoint(folder, str(sent), trace=0 <= args.trace_from <= sent, trim=last)
                )
                print(
                    f"after {sent:,} spans ({row['spans'] / row['seconds']:.0f} spans/s, "
                    f"{time.perf_counter() - started:.0f} s with judging; counts "
                    f"{json.dumps(found)})"
                )
                show(f"{sent:,} spans", points[-1][1])
                compare(points[-2], points[-1], args.top)
            print(f"from 0 to {sent:,} spans:")
            compare(points[0], points[-1], args.top)
            traced = [point for point in points if point[0] is not None]
            if len(traced) > 2:
                print("from the first traced checkpoint to the last:")
                compare(traced[0], traced[-1], args.top)


if __name__ == "__main__":
    random.seed(0)
    main()
