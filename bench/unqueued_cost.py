"""What recording a request's slices in its own transaction costs an append: one case appended
to an open evaluation (`POST /v1/evaluations/{id}/test_cases`), RQ mode on a throwaway
PostgreSQL and Redis on loopback, the app served in this process, with and without the
`unqueued_slice` INSERT in the request's transaction and the DELETE after its enqueue
(`unqueued.pending`, `unqueued.queued`; "without" is the code before they were added).

Rounds alternate which goes first, so the machine's load moves both alike; the figures are
the client's time per request, median and 90th percentile.

    .venv/bin/python bench/unqueued_cost.py                  # 20 rounds of 50 appends each
    .venv/bin/python bench/unqueued_cost.py --rounds 4 --per-round 20
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402

from app import migrate  # noqa: E402
from app.evaluations import unqueued  # noqa: E402
from app.tenants.service import create_key  # noqa: E402
from tests.fixtures.api import ServedApp, postgres_settings  # noqa: E402
from tests.fixtures.services import running_postgres, running_redis  # noqa: E402

RECORDING = (unqueued.pending, unqueued.queued)


def recording(on: bool) -> None:
    if on:
        unqueued.pending, unqueued.queued = RECORDING
    else:
        unqueued.pending = lambda *args, **kwargs: None
        unqueued.queued = lambda *args, **kwargs: None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--per-round", type=int, default=50)
    args = parser.parse_args()
    batch = {"test_cases": [{"input": "q", "actual_output": "a", "expected_output": "a"}]}
    times: dict[str, list[float]] = {"with": [], "without": []}
    with running_postgres() as postgres, running_redis() as redis:
        settings = postgres_settings(postgres, redis)
        migrate.upgrade(settings)
        with ServedApp(settings) as served:
            with served.runtime.session() as session:
                _, key = create_key(session, "bench")
                session.commit()
            client = httpx.Client(
                base_url=served.base_url,
                headers={"Authorization": f"Bearer {key}"},
                trust_env=False,
                timeout=60,
            )
            body = {"metrics": [{"type": "exact_match"}], "test_cases": [], "open": True}
            path = f"/v1/evaluations/{client.post('/v1/evaluations', json=body).json()['id']}"
            for _ in range(20):  # warm-up
                client.post(f"{path}/test_cases", json=batch)
            for round_ in range(args.rounds):
                order = ("with", "without") if round_ % 2 == 0 else ("without", "with")
                for name in order:
                    recording(name == "with")
                    for _ in range(args.per_round):
                        began = time.perf_counter()
                        answer = client.post(f"{path}/test_cases", json=batch)
                        times[name].append(time.perf_counter() - began)
                        assert answer.status_code in (200, 202), answer.text
            recording(True)
    for name, values in times.items():
        values.sort()
        median = 1000 * statistics.median(values)
        p90 = 1000 * values[int(len(values) * 0.9)]
        print(f"{name:8} {len(values)} appends  median {median:.2f} ms  p90 {p90:.2f} ms")


if __name__ == "__main__":
    main()
