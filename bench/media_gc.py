"""Deleting an evaluation with images: how long the DELETE takes as the database grows.

Loupe in RQ mode (PostgreSQL, Redis, `loupe serve`, one `loupe worker`). An evaluation of
IMAGES test cases, each with its own image, is scored (exact_match) and deleted; the DELETE's
latency includes collecting the now unreferenced blobs. Measured first on an empty database,
then after FILLER text-only test cases have been stored by other evaluations. For comparison,
the same run times the check the collection made before `blob_ref` existed (a search of every
test case's content for each digest, tenant-scoped and global) on the filled database.

    .venv/bin/python bench/media_gc.py                     # 200,000 filler cases
    .venv/bin/python bench/media_gc.py --filler 50000
"""

import argparse
import base64
import io
import json
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import sqlalchemy as sa
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.rate_limit import new_key, service  # noqa: E402
from tests.fixtures.judge import ScriptedJudge  # noqa: E402

OLD_CHECK = """
SELECT EXISTS (
  SELECT 1 FROM test_case t JOIN evaluation e ON e.id = t.evaluation_id
  WHERE e.tenant_id = :tenant AND (
    CAST(t.input AS TEXT) LIKE :pattern OR CAST(t.actual_output AS TEXT) LIKE :pattern OR
    CAST(t.expected_output AS TEXT) LIKE :pattern OR CAST(t.context AS TEXT) LIKE :pattern OR
    CAST(t.retrieval_context AS TEXT) LIKE :pattern OR CAST(t.messages AS TEXT) LIKE :pattern)
) OR EXISTS (
  SELECT 1 FROM test_case t WHERE
    CAST(t.input AS TEXT) LIKE :pattern OR CAST(t.actual_output AS TEXT) LIKE :pattern OR
    CAST(t.expected_output AS TEXT) LIKE :pattern OR CAST(t.context AS TEXT) LIKE :pattern OR
    CAST(t.retrieval_context AS TEXT) LIKE :pattern OR CAST(t.messages AS TEXT) LIKE :pattern
)
"""


def image(seed: int) -> str:
    picture = Image.new("RGB", (64, 64), ((seed * 37) % 256, (seed * 91) % 256, seed % 256))
    buffer = io.BytesIO()
    picture.save(buffer, format="PNG")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode()


def wait(client: httpx.Client, evaluation_id: str) -> None:
    while client.get(f"/v1/evaluations/{evaluation_id}").json()["status"] != "completed":
        time.sleep(0.2)


def with_images(client: httpx.Client, count: int, seed: int) -> str:
    cases = [
        {
            "input": "What is shown?",
            "actual_output": [{"type": "image_url", "image_url": {"url": image(seed + i)}}],
            "expected_output": "a square",
        }
        for i in range(count)
    ]
    response = client.post(
        "/v1/evaluations", json={"test_cases": cases, "metrics": [{"type": "exact_match"}]}
    )
    response.raise_for_status()
    evaluation_id = response.json()["id"]
    wait(client, evaluation_id)
    return evaluation_id


def timed_delete(client: httpx.Client, evaluation_id: str) -> float:
    started = time.perf_counter()
    response = client.delete(f"/v1/evaluations/{evaluation_id}")
    elapsed = time.perf_counter() - started
    assert response.status_code == 204, response.text
    return elapsed


def fill(client: httpx.Client, total: int) -> None:
    text = "lorem ipsum dolor sit amet " * 20
    for start in range(0, total, 10_000):
        cases = [
            {"input": f"{i} {text}", "actual_output": text, "expected_output": text}
            for i in range(start, min(total, start + 10_000))
        ]
        response = client.post(
            "/v1/evaluations", json={"test_cases": cases, "metrics": [{"type": "exact_match"}]}
        )
        response.raise_for_status()
        wait(client, response.json()["id"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--filler", type=int, default=200_000)
    parser.add_argument("--images", type=int, default=10)
    args = parser.parse_args()
    rows: list[dict[str, Any]] = []
    with ScriptedJudge() as judge, service(judge, 1, 1000) as (base_url, env):
        key = new_key(env)
        headers = {"Authorization": f"Bearer {key}"}
        with httpx.Client(base_url=base_url, headers=headers, timeout=600, trust_env=False) as c:
            for label, filler in (("empty", 0), ("filled", args.filler)):
                if filler:
                    fill(c, filler)
                evaluation_id = with_images(c, args.images, seed=len(rows) * 100)
                rows.append(
                    {
                        "database": label,
                        "filler_cases": filler,
                        "delete_s": timed_delete(c, evaluation_id),
                    }
                )
                print(json.dumps(rows[-1]), flush=True)
        engine = sa.create_engine(env["LOUPE_DATABASE_URL"])
        with engine.connect() as connection:
            # The bench's one tenant (the key's), as the deleting request's collection checks.
            tenant = connection.scalar(sa.text("SELECT tenant_id FROM api_key LIMIT 1"))
            started = time.perf_counter()
            for digest in range(args.images):
                connection.execute(
                    sa.text(OLD_CHECK),
                    {"tenant": tenant, "pattern": f"%blob:sha256:{digest:064x}%"},
                ).scalar()
            old = time.perf_counter() - started
        engine.dispose()
        rows.append(
            {"database": "filled", "filler_cases": args.filler, "old_reference_checks_s": old}
        )
        print(json.dumps(rows[-1]), flush=True)
    print(json.dumps(rows))


if __name__ == "__main__":
    main()
