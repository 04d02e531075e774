"""Reads and retention on a year of results: p50/p95 of each read, then a retention pass
deleting ~10% of the results (on a copy of the data) while a writer keeps storing results.

Runs on the database bench/large_data.py made (its data dir, reused; or `--database-url` with
`--manifest`). `loupe serve` answers the reads (PostgreSQL, no Redis: its ticker runs no
retention, LOUPE_RETENTION_DAYS being unset); each read is requested `--repeat` times in a row
after one warm-up. Then, in this process, the ticker's retention code (`recovery.prune_expired`,
called until it finds nothing, as successive ticks would) runs with LOUPE_RETENTION_DAYS set so
that ~10% of the results are past it, while a thread stores batches of 10 results into the
open online evaluation of the day the way a scoring job does (hold, insert, summaries, the
kind's rollups, commit): the pass's duration and the writer's latencies are printed.

    flock /tmp/bench.lock .venv/bin/python bench/storage_scale.py --data-dir /tmp/loupe-large-1m
    ... --skip-retention          # reads only (the data stay as they are)
    ... --skip-retention --only usage,comparison --before <checkout> \
        --before-revision scale_indexes
    ... --cold 20 --processes 20  # reads a fresh process makes first, and 20 processes' first
"""

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sqlalchemy import text  # noqa: E402

from app.config import Settings  # noqa: E402
from app.db import make_engine, make_sessionmaker  # noqa: E402
from app.evaluations import kinds as evaluation_kinds  # noqa: E402
from app.evaluations import recovery  # noqa: E402
from app.ids import new_id  # noqa: E402
from app.kinds import install  # noqa: E402
from app.runtime import Runtime  # noqa: E402
from app.unscoped.evaluation_jobs import UnscopedJobRepository  # noqa: E402
from bench.large_data import (  # noqa: E402
    LOUPE,
    SECRET_KEY,
    persistent_postgres,
    serve,
    settle_intervals,
)
from bench.procs import pythonpath  # noqa: E402


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


class Reads:
    """Timed GETs against the service; one row of figures per read (`only`: the reads whose
    label holds it, the others skipped)."""

    only: list[str] | None = None

    @classmethod
    def skipped(cls, label: str) -> bool:
        return cls.only is not None and not any(part in label for part in cls.only)

    def __init__(self, client: httpx.Client, repeat: int) -> None:
        self.client, self.repeat, self.rows = client, repeat, []

    def time(self, label: str, method: str, url: str, **kwargs: Any) -> httpx.Response | None:
        if Reads.skipped(label):
            return None
        response = self.client.request(method, url, **kwargs)  # warm-up (and the check)
        if response.status_code >= 400:
            raise RuntimeError(f"{label}: {response.status_code} {response.text[:500]}")
        took = []
        repeat = self.repeat
        for n in range(repeat):
            started = time.perf_counter()
            self.client.request(method, url, **kwargs)
            took.append((time.perf_counter() - started) * 1000)
            if n == 4 and statistics.median(took) > 2000:
                break  # slow enough to say so in five
        row = {
            "read": label,
            "n": len(took),
            "p50_ms": statistics.median(took),
            "p95_ms": percentile(took, 0.95),
        }
        self.rows.append(row)
        print(
            f"  {label:52} n={row['n']:3} p50 {row['p50_ms']:8.1f} ms  p95 {row['p95_ms']:8.1f} ms"
        )
        return response

    def stream(self, label: str, url: str, times: int = 3) -> None:
        if Reads.skipped(label):
            return
        first, total, size = [], [], 0
        for _ in range(times):
            started = time.perf_counter()
            with self.client.stream("GET", url) as response:
                iterator = response.iter_bytes()
                size = len(next(iterator, b""))
                first.append((time.perf_counter() - started) * 1000)
                for chunk in iterator:
                    size += len(chunk)
            total.append((time.perf_counter() - started) * 1000)
        row = {
            "read": label,
            "n": times,
            "p50_ms": statistics.median(first),
            "p95_ms": max(first),
            "total_ms": statistics.median(total),
            "bytes": size,
        }
        self.rows.append(row)
        print(
            f"  {label:52} n={times:3} first byte {row['p50_ms']:8.1f} ms, all "
            f"{row['total_ms'] / 1000:6.1f} s ({size / 2**20:.0f} MiB)"
        )


def once(client: httpx.Client, label: str, urls: list[str]) -> dict[str, Any]:
    """Each URL read once (a process that never read it): p50/p95 over them."""
    took = []
    for url in urls:
        started = time.perf_counter()
        response = client.get(url)
        took.append((time.perf_counter() - started) * 1000)
        if response.status_code >= 400:
            raise RuntimeError(f"{label}: {response.status_code} {response.text[:500]}")
    row = {
        "read": label,
        "n": len(took),
        "p50_ms": statistics.median(took),
        "p95_ms": percentile(took, 0.95),
    }
    print(f"  {label:52} n={row['n']:3} p50 {row['p50_ms']:8.1f} ms  p95 {row['p95_ms']:8.1f} ms")
    return row


def measure_cold_reads(base_url: str, libpq: str, manifest: dict, count: int) -> list[dict]:
    """Reads a fresh `loupe serve` makes for the first time: the console's list, the big
    evaluation, `count` pages of the evaluations list (their cursors from the database), then
    `count` of the oldest completed evaluations (on none of those pages), each once."""
    key = manifest["key"]
    big = manifest["big_evaluations"][0]
    acme = "FROM evaluation e JOIN tenant t ON t.id = e.tenant_id WHERE t.name = 'acme'"
    with psycopg.connect(libpq) as db:
        newest = [
            row[0]
            for row in db.execute(f"SELECT e.id {acme} ORDER BY e.id DESC LIMIT %s", [20 * count])
        ]
        older = [
            row[0]
            for row in db.execute(
                f"SELECT e.id {acme} AND e.status = 'completed' AND e.id <> %s "
                "ORDER BY e.id LIMIT %s",
                [big, count],
            )
        ]
    client = httpx.Client(
        base_url=base_url, headers={"Authorization": f"Bearer {key}"}, timeout=600, trust_env=False
    )
    console = httpx.Client(base_url=base_url, timeout=600, trust_env=False)
    sign_in(console, key)
    cursors = [None, *newest[19::20]][:count]
    return [
        once(console, "cold: console evaluations list", ["/console/evaluations"]),
        once(client, "cold: big evaluation, first read", [f"/v1/evaluations/{big}"]),
        once(
            client,
            "cold: evaluations list pages, each once",
            [f"/v1/evaluations?limit=20{f'&after={c}' if c else ''}" for c in cursors],
        ),
        once(
            client,
            "cold: evaluation reads, each once",
            [f"/v1/evaluations/{evaluation_id}" for evaluation_id in older],
        ),
    ]


def measure_first_requests(url: str, manifest: dict, processes: int) -> list[dict]:
    """The first requests of `processes` fresh `loupe serve` processes, one after another on
    the same database: an API key's first request (a list page), then the console's list
    right after signing in; p50/p95 over the processes."""
    key = manifest["key"]
    took: dict[str, list[float]] = {"api": [], "console": []}
    for _ in range(processes):
        with serve(url) as (base_url, _):
            client = httpx.Client(
                base_url=base_url,
                headers={"Authorization": f"Bearer {key}"},
                timeout=600,
                trust_env=False,
            )
            console = httpx.Client(base_url=base_url, timeout=600, trust_env=False)
            for label, session, path in (
                ("api", client, "/v1/evaluations?limit=20"),
                ("console", console, "/console/evaluations"),
            ):
                if label == "console":
                    sign_in(session, key)
                started = time.perf_counter()
                response = session.get(path)
                took[label].append((time.perf_counter() - started) * 1000)
                if response.status_code >= 400:
                    raise RuntimeError(f"{path}: {response.status_code} {response.text[:500]}")
    rows = []
    for label, read in (
        ("api", "first request of a process: evaluations list"),
        ("console", "console list after signing in, in a fresh process"),
    ):
        values = took[label]
        row = {
            "read": read,
            "n": len(values),
            "p50_ms": statistics.median(values),
            "p95_ms": percentile(values, 0.95),
            "max_ms": max(values),
        }
        print(
            f"  {read:52} n={row['n']:3} p50 {row['p50_ms']:8.1f} ms  p95 {row['p95_ms']:8.1f} ms"
            f"  max {row['max_ms']:8.1f} ms"
        )
        rows.append(row)
    return rows


def sign_in(client: httpx.Client, key: str) -> None:
    form = client.get("/console/sign-in")
    token = re.search(r'name="csrf_token" value="([^"]+)"', form.text)
    assert token, "no CSRF token on the sign-in form"
    answer = client.post(
        "/console/sign-in",
        data={"api_key": key, "csrf_token": token.group(1), "next": "/console/evaluations"},
    )
    assert answer.status_code == 303, answer.text[:300]


def measure_reads(base_url: str, libpq: str, manifest: dict, repeat: int) -> list[dict]:
    key = manifest["key"]
    big, other = manifest["big_evaluations"]
    rule = manifest["rules"][0]
    with psycopg.connect(libpq) as db:
        (results_of_big,) = db.execute(
            "SELECT count(*) FROM result WHERE evaluation_id = %s", [big]
        ).fetchone()
        deep = db.execute(
            "SELECT id FROM result WHERE evaluation_id = %s "
            "ORDER BY test_case_index, metric_index OFFSET %s LIMIT 1",
            [big, int(results_of_big * 0.9)],
        ).fetchone()[0]
        deep_score = db.execute(
            "SELECT id FROM result WHERE evaluation_id = %s AND score IS NOT NULL "
            "ORDER BY score DESC, test_case_index, metric_index OFFSET %s LIMIT 1",
            [big, int(results_of_big * 0.9)],
        ).fetchone()[0]
        (evaluations,) = db.execute(
            "SELECT count(*) FROM evaluation e JOIN tenant t ON t.id = e.tenant_id "
            "WHERE t.name = 'acme'"
        ).fetchone()
        middle = db.execute(
            "SELECT e.id FROM evaluation e JOIN tenant t ON t.id = e.tenant_id "
            "WHERE t.name = 'acme' AND e.kind = 'evaluation' ORDER BY e.id DESC OFFSET 60 LIMIT 1"
        ).fetchone()[0]
    print(f"big evaluation {big}: {results_of_big:,} results; acme has {evaluations:,} evaluations")
    client = httpx.Client(
        base_url=base_url,
        headers={"Authorization": f"Bearer {key}"},
        timeout=600,
        trust_env=False,
    )
    reads = Reads(client, repeat)
    results = f"/v1/evaluations/{big}/results"
    reads.time("results: first page (100)", "GET", f"{results}?limit=100")
    reads.time("results: deep keyset page (90%)", "GET", f"{results}?limit=100&after={deep}")
    reads.time(
        "results: metric=helpfulness, status=failed",
        "GET",
        f"{results}?metric=helpfulness&status=failed",
    )
    reads.time("results: status=errored", "GET", f"{results}?status=errored")
    reads.time("results: status=passed", "GET", f"{results}?status=passed")
    reads.time("results: order=score_desc", "GET", f"{results}?order=score_desc")
    reads.time("results: order=score_asc", "GET", f"{results}?order=score_asc")
    reads.time(
        "results: order=score_desc, deep page",
        "GET",
        f"{results}?order=score_desc&after={deep_score}",
    )
    reads.time(
        "results: metric=correctness, order=score_asc",
        "GET",
        f"{results}?metric=correctness&order=score_asc",
    )
    reads.time("test cases: first page", "GET", f"/v1/evaluations/{big}/test_cases")
    reads.time("evaluation read (summaries, intervals)", "GET", f"/v1/evaluations/{big}")
    reads.time("evaluations list: first page", "GET", "/v1/evaluations?limit=20")
    reads.time("evaluations list: page after 60", "GET", f"/v1/evaluations?limit=20&after={middle}")
    reads.time("evaluations list: kind=online", "GET", "/v1/evaluations?limit=20&kind=online")
    reads.time(
        "evaluations list: completed_with_errors=true",
        "GET",
        "/v1/evaluations?limit=20&completed_with_errors=true",
    )
    reads.time("online rule results (newest)", "GET", f"/v1/online_rules/{rule}/results")
    since = (datetime.now(UTC) - timedelta(days=90)).date().isoformat()
    reads.time(
        "online rule trend: 90 days by day",
        "GET",
        f"/v1/online_rules/{rule}/trend?bucket=day&since={since}",
    )
    reads.time(
        "online rule trend: one metric, 90 days by day",
        "GET",
        f"/v1/online_rules/{rule}/trend?bucket=day&since={since}&metric=helpfulness",
    )
    reads.time("online rule trend: 48 hours by hour", "GET", f"/v1/online_rules/{rule}/trend")
    start = (datetime.now(UTC) - timedelta(days=29)).date().isoformat()
    reads.time("usage: 30 days by day", "GET", f"/v1/usage?start={start}")
    reads.time("usage: 30 days by model", "GET", f"/v1/usage?start={start}&group_by=model")
    comparisons = max(3, repeat // 10)
    compare = Reads(client, comparisons)
    compare.time(
        "comparison of the two big evaluations",
        "POST",
        "/v1/comparisons",
        json={"baseline_id": big, "candidate_id": other},
    )
    reads.rows += compare.rows
    reads.stream("export: JSON Lines, big evaluation", f"{results}/export")
    console = httpx.Client(base_url=base_url, timeout=600, trust_env=False)
    sign_in(console, key)
    pages = Reads(console, repeat)
    pages.time("console: evaluations list", "GET", "/console/evaluations")
    pages.time("console: evaluation page (big)", "GET", f"/console/evaluations/{big}")
    pages.time("console: online rules", "GET", "/console/online_rules")
    pages.time("console: online rule page (trend)", "GET", f"/console/online_rules/{rule}")
    pages.time("console: online rule, 90 days", "GET", f"/console/online_rules/{rule}?bucket=day")
    return reads.rows + pages.rows


def retention_cutoff_days(libpq: str, share: float) -> tuple[float, int]:
    """LOUPE_RETENTION_DAYS past which about `share` of the results are (finished evaluations
    completed before it); and how many results that is."""
    with psycopg.connect(libpq) as db:
        (total,) = db.execute("SELECT count(*) FROM result").fetchone()
        rows = db.execute(
            "SELECT e.completed_at, count(r.id) FROM evaluation e "
            "JOIN result r ON r.evaluation_id = e.id WHERE e.completed_at IS NOT NULL "
            "GROUP BY e.id ORDER BY e.completed_at"
        ).fetchall()
    running = 0
    for completed_at, count in rows:
        running += count
        if running >= total * share:
            age = datetime.now(UTC) - completed_at
            return age.total_seconds() / 86400 - 1e-4, running
    raise RuntimeError("no finished evaluations")


def writer(url: str, stop: threading.Event, latencies: list[float], errors: list[str]) -> None:
    """Store 10 results at a time into today's open online evaluation, as a scoring job's
    write does (hold the evaluation, insert, add to summaries and the kind's sums, commit)."""
    settings = Settings(database_url=url, secret_key=SECRET_KEY)
    engine = make_engine(settings)
    runtime = Runtime(settings=settings, engine=engine, sessions=make_sessionmaker(engine))
    with runtime.session() as session:
        evaluation_id, start = session.execute(
            text(
                "SELECT e.id, e.total_test_cases FROM evaluation e WHERE e.kind = 'online' AND "
                "e.status = 'in_progress' ORDER BY e.total_test_cases DESC LIMIT 1"
            )
        ).one()
        template = session.execute(
            text(
                "SELECT metric_index, metric, type, threshold, reason, logs, judge_calls, "
                "prompt_tokens, completion_tokens, judge_cost_usd, judge_model, metric_version "
                "FROM result WHERE evaluation_id = :id AND test_case_index = 0 "
                "ORDER BY metric_index"
            ),
            {"id": evaluation_id},
        ).all()
    index = start + 1000
    while not stop.is_set():
        rows = [
            {
                "id": new_id("res"),
                "evaluation_id": evaluation_id,
                "test_case_index": index,
                "test_case_id": f"writer-{index}",
                "metric_index": t.metric_index,
                "metric": t.metric,
                "type": t.type,
                "score": 0.8,
                "passed": True,
                "threshold": t.threshold,
                "reason": t.reason,
                "error": None,
                "judge_calls": t.judge_calls,
                "judge_failed_calls": 0,
                "prompt_tokens": t.prompt_tokens,
                "completion_tokens": t.completion_tokens,
                "judge_cost_usd": t.judge_cost_usd,
                "judge_model": t.judge_model,
                "candidate_model": None,
                "candidate_calls": 0,
                "candidate_failed_calls": 0,
                "candidate_prompt_tokens": 0,
                "candidate_completion_tokens": 0,
                "candidate_cost_usd": None,
                "stability": None,
                "fragile": None,
                "logs": t.logs,
                "metric_version": t.metric_version,
                "created_at": datetime.now(UTC),
            }
            for t in template
        ]
        index += 1
        started = time.perf_counter()
        try:
            with runtime.session() as session:
                repo = UnscopedJobRepository(session)
                if not repo.hold(evaluation_id):
                    raise RuntimeError("the open evaluation is gone")
                inserted = repo.insert_results(rows)
                repo.add_to_summaries(evaluation_id, inserted)
                if hasattr(repo, "add_to_usage"):  # not in a checkout before usage_day
                    repo.add_to_usage(evaluation_id, inserted)
                evaluation = repo.get(evaluation_id)
                assert evaluation is not None
                evaluation_kinds.kind_of(evaluation).tally(session, evaluation_id, inserted)
                session.commit()
        except Exception as exc:  # noqa: BLE001 - reported, the bench goes on
            errors.append(repr(exc))
        latencies.append((time.perf_counter() - started) * 1000)
        time.sleep(0.01)
    runtime.close()


def measure_retention(url: str, libpq: str, share: float) -> dict[str, Any]:
    install()
    days, expiring = retention_cutoff_days(libpq, share)
    print(f"retention: LOUPE_RETENTION_DAYS={days:.2f} (~{expiring:,} results past it)")
    settings = Settings(database_url=url, secret_key=SECRET_KEY, retention_days=days)
    engine = make_engine(settings)
    runtime = Runtime(settings=settings, engine=engine, sessions=make_sessionmaker(engine))
    latencies: list[float] = []
    errors: list[str] = []
    stop = threading.Event()
    thread = threading.Thread(target=writer, args=(url, stop, latencies, errors), daemon=True)
    thread.start()
    time.sleep(3)
    before = len(latencies)
    started = time.perf_counter()
    deleted = 0
    ticks = 0
    while True:
        pruned = recovery.prune_expired(runtime)
        ticks += 1
        deleted += len(pruned)
        if not pruned:
            break
    duration = time.perf_counter() - started
    during = latencies[before:]
    stop.set()
    thread.join(timeout=30)
    runtime.close()
    with psycopg.connect(libpq) as db:
        (left,) = db.execute(
            "SELECT count(*) FROM evaluation WHERE completed_at < now() - %s * interval '1 day'",
            [days],
        ).fetchone()
    figures = {
        "retention_days": days,
        "results_deleted": expiring,
        "evaluations_deleted": deleted,
        "ticks": ticks,
        "seconds": duration,
        "writes": len(during),
        "write_p50_ms": statistics.median(during) if during else None,
        "write_p99_ms": percentile(during, 0.99) if during else None,
        "write_max_ms": max(during) if during else None,
        "writer_errors": errors[:3],
        "expired_left": left,
    }
    print(
        f"retention: {deleted:,} evaluations ({expiring:,} results) in {duration:.1f} s over "
        f"{ticks} ticks; writer: {len(during):,} writes, p50 {figures['write_p50_ms']:.1f} ms, "
        f"p99 {figures['write_p99_ms']:.1f} ms, max {figures['write_max_ms']:.1f} ms; "
        f"errors {len(errors)}; expired left {left}"
    )
    return figures


def schema(url: str, before: str | None) -> float:
    """The schema of the code measured: `loupe migrate` (building scale_indexes' index
    concurrently, summing usage_day), or back to the revision `before`; returns the seconds it
    took."""
    env = {
        **os.environ,
        "PYTHONPATH": pythonpath(),
        "LOUPE_DATABASE_URL": url,
        "LOUPE_SECRET_KEY": SECRET_KEY,
    }
    command = [str(LOUPE), "migrate", *(["--downgrade", before] if before else [])]
    started = time.perf_counter()
    subprocess.run(command, env=env, check=True, capture_output=True)
    return time.perf_counter() - started


def retention_on_copy(data_dir: Path, code: Path, share: float) -> dict[str, Any]:
    """The retention pass with `code`'s retention (a checkout: its `app`), on a copy of the
    data (the pass deletes what later runs read)."""
    copy = data_dir.with_name(data_dir.name + "-retention")
    shutil.rmtree(copy, ignore_errors=True)
    subprocess.run(["cp", "-a", str(data_dir), str(copy)], check=True)
    out = copy.with_suffix(".json")
    try:
        subprocess.run(
            [
                sys.executable,
                str(code / "bench" / "storage_scale.py"),
                "--retention-here",
                "--data-dir",
                str(copy),
                "--share",
                str(share),
                "--out",
                str(out),
            ],
            env={**os.environ, "PYTHONPATH": str(code)},
            cwd=code,
            check=True,
        )
        return json.loads(out.read_text())["retention"]
    finally:
        shutil.rmtree(copy, ignore_errors=True)
        out.unlink(missing_ok=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, default=Path("/tmp/loupe-large"))
    parser.add_argument("--repeat", type=int, default=50)
    parser.add_argument("--skip-retention", action="store_true")
    parser.add_argument("--skip-reads", action="store_true")
    parser.add_argument(
        "--before",
        type=Path,
        help="a checkout of the code before the fixes (git worktree add): its reads (without "
        "the scale_indexes index) and retention are measured first, in the same run",
    )
    parser.add_argument(
        "--before-revision",
        default="scale_append",
        help="the schema the --before checkout reads (loupe migrate --downgrade to it)",
    )
    parser.add_argument(
        "--only",
        help="only the reads whose label holds one of these comma-separated texts "
        "(e.g. 'usage,console: evaluation page')",
    )
    parser.add_argument("--retention-here", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument(
        "--retention-in-place",
        action="store_true",
        help="the after run's retention on the data itself (no copy; the data lose ~10%%)",
    )
    parser.add_argument("--share", type=float, default=0.1, help="of the results to expire")
    parser.add_argument("--out", type=Path, help="write the figures here as JSON")
    parser.add_argument(
        "--cold",
        type=int,
        metavar="N",
        help="only reads a fresh service makes for the first time (N list pages, N evaluations), "
        "before and after the completed evaluations' intervals are stored (as the service "
        "stores them on completion; data generated before that lack them)",
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=10,
        help="with --cold: fresh processes whose first requests are timed",
    )
    args = parser.parse_args()
    if args.retention_here:
        with persistent_postgres(args.data_dir) as target:
            figures = {"retention": measure_retention(target.url, target.libpq, args.share)}
        args.out.write_text(json.dumps(figures, default=str))
        return
    Reads.only = args.only.split(",") if args.only else None
    manifest = json.loads((args.data_dir / "manifest.json").read_text())
    figures: dict[str, Any] = {"results": manifest["results"]}
    if args.cold:
        with persistent_postgres(args.data_dir) as target:
            figures["migrate_seconds"] = schema(target.url, None)
            for label in ("as_generated", "intervals_stored"):
                if label == "intervals_stored":
                    settled, seconds = settle_intervals(target.url)
                    print(f"intervals of {settled:,} evaluations stored in {seconds:.0f} s")
                    figures["settled"] = {"evaluations": settled, "seconds": seconds}
                print(f"== cold reads, {label}", flush=True)
                with serve(target.url) as (base_url, _):
                    figures[f"cold_{label}"] = measure_cold_reads(
                        base_url, target.libpq, manifest, args.cold
                    )
                figures[f"first_{label}"] = measure_first_requests(
                    target.url, manifest, args.processes
                )
        if args.out:
            args.out.write_text(json.dumps(figures, indent=2, default=str))
        return
    runs = [("before", args.before), ("after", ROOT)] if args.before else [("after", ROOT)]
    for label, code in runs:
        print(f"== {label}: {code}", flush=True)
        if not args.skip_reads:
            with persistent_postgres(args.data_dir) as target:
                took = schema(target.url, args.before_revision if label == "before" else None)
                print(f"schema of {label}: {took:.1f} s", flush=True)
                figures[f"migrate_{label}_seconds"] = took
                with serve(target.url, {"PYTHONPATH": str(code)}) as (base_url, _):
                    figures[f"reads_{label}"] = measure_reads(
                        base_url, target.libpq, manifest, args.repeat
                    )
        if args.retention_in_place and label == "after":
            with persistent_postgres(args.data_dir) as target:
                figures["retention_after"] = measure_retention(target.url, target.libpq, args.share)
        elif not args.skip_retention:
            figures[f"retention_{label}"] = retention_on_copy(args.data_dir, code, args.share)
        if args.out:
            args.out.write_text(json.dumps(figures, indent=2, default=str))


if __name__ == "__main__":
    main()
