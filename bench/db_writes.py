"""CPU per stored row of a job's writes on PostgreSQL: results and cache answers through the
pipelined INSERT (`likely_new=False`) against COPY in a savepoint (`likely_new=True`).

A throwaway PostgreSQL on loopback; batches of 100 rows as a job writes them (results of the
four seed metrics' shape, with their JSON logs), alternating the two paths so the machine's
speed moves both alike. The figure is the writing thread's CPU (`time.thread_time`), the
rows' making excluded.

    .venv/bin/python bench/db_writes.py                 # 5 rounds of 30 batches of 100
    .venv/bin/python bench/db_writes.py --rounds 3
"""

import argparse
import itertools
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sqlalchemy import text  # noqa: E402

from app import migrate  # noqa: E402
from app.config import Settings  # noqa: E402
from app.db import (  # noqa: E402
    add_into,
    insert_ignoring_duplicates,
    make_engine,
    make_sessionmaker,
    utcnow,
)
from app.ids import new_id  # noqa: E402
from app.models import JudgeCacheEntry, Result  # noqa: E402
from tests.fixtures.services import running_postgres  # noqa: E402

_counter = itertools.count()


def result_rows(n: int) -> list[dict]:
    rows = []
    for _ in range(n):
        i = next(_counter)
        rows.append(
            {
                "id": new_id("res"),
                "evaluation_id": "evn_bench",
                "test_case_index": i // 4,
                "test_case_id": str(i // 4),
                "metric_index": i % 4,
                "metric": "Faithfulness",
                "type": "faithfulness",
                "score": 0.75,
                "passed": True,
                "threshold": 0.5,
                "reason": "The output agrees with three of the four claims the context makes. " * 3,
                "error": None,
                "judge_calls": 2,
                "judge_failed_calls": 0,
                "prompt_tokens": 1200,
                "completion_tokens": 80,
                "judge_model": "judge-model",
                "logs": {
                    "judge_json": {"claims": ["a", "b"], "verdicts": [{"verdict": "yes"}]},
                    "judge": {"model": "judge-model", "host": "127.0.0.1"},
                    "media": [{"field": "input", "sha256": "ab" * 32, "bytes": 1234}],
                },
                "created_at": utcnow(),
            }
        )
    return rows


def cache_rows(n: int) -> list[dict]:
    return [
        {
            "scope": "ten_bench",
            "key": f"{next(_counter):064x}",
            "content": json.dumps({"verdicts": [{"verdict": "yes", "reason": "It says so."}]}),
            "logprobs": None,
            "created_at": utcnow(),
        }
        for _ in range(n)
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--batches", type=int, default=30)
    args = parser.parse_args()
    figures: dict[tuple[str, bool], list[float]] = {}
    with running_postgres() as postgres:
        settings = Settings(database_url=postgres.create_database("writes"))
        migrate.upgrade(settings)
        sessions = make_sessionmaker(make_engine(settings))

        def write(kind: str, copy: bool) -> float:
            spent = 0.0
            for _ in range(args.batches):
                rows = result_rows(100) if kind == "results" else cache_rows(100)
                with sessions() as session:
                    # No evaluation row for the results' foreign key: its check is the
                    # server's work, the same on both paths.
                    session.execute(text("SET LOCAL session_replication_role = replica"))
                    started = time.thread_time()
                    if kind == "results":
                        stored = insert_ignoring_duplicates(
                            session, Result, rows, returning=Result.id, likely_new=copy
                        )
                    else:
                        add_into(
                            session,
                            JudgeCacheEntry,
                            rows,
                            keys=("scope", "key"),
                            replaced=("content", "logprobs", "created_at"),
                            likely_new=copy,
                        )
                        stored = rows
                    session.commit()
                    spent += time.thread_time() - started
                    assert len(stored) == 100
            return 1e6 * spent / (100 * args.batches)

        for _ in range(args.rounds):
            for kind, copy in itertools.product(("results", "cache"), (False, True)):
                figures.setdefault((kind, copy), []).append(write(kind, copy))
    print(f"{'rows':8} {'path':7} {'µs CPU/row (median)':>20} {'runs':>40}")
    out = {}
    for (kind, copy), runs in figures.items():
        path = "COPY" if copy else "INSERT"
        print(
            f"{kind:8} {path:7} {statistics.median(runs):20.1f} "
            f"{' '.join(f'{r:.1f}' for r in runs):>40}"
        )
        out[f"{kind}_{path.lower()}_us_per_row"] = statistics.median(runs)
    for kind in ("results", "cache"):
        ratio = out[f"{kind}_copy_us_per_row"] / out[f"{kind}_insert_us_per_row"]
        print(f"{kind}: COPY costs {ratio:.2f} of the INSERT's CPU per row")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
