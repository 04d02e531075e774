"""Evaluations and runs with planted differences, for the comparison and gate tests."""

import math
from typing import Any

import httpx
from statsmodels.stats.proportion import proportion_confint

from tests.fixtures.api import Api
from tests.runs.helpers import upload, wait_run
from tests.runs.test_error_bars import IMAGES, mcq_zip


def newcombe(
    both: int, candidate_only: int, baseline_only: int, neither: int
) -> tuple[float, float]:
    """Newcombe's paired square-and-add 95% interval of the candidate's pass rate minus the
    baseline's, as Fagerland, Lydersen and Laake's `contingencytables` computes it (R,
    `Newcombe_square_and_add_CI_paired_2x2`), each side's Wilson interval from statsmodels."""
    n = both + candidate_only + baseline_only + neither
    p1, p2 = (both + candidate_only) / n, (both + baseline_only) / n
    l1, u1 = proportion_confint(both + candidate_only, n, alpha=0.05, method="wilson")
    l2, u2 = proportion_confint(both + baseline_only, n, alpha=0.05, method="wilson")
    rows = (both + candidate_only, baseline_only + neither)
    columns = (both + baseline_only, candidate_only + neither)
    psi = 0.0
    if 0 not in rows + columns:
        a = both * neither - candidate_only * baseline_only
        product = math.sqrt(rows[0] * rows[1] * columns[0] * columns[1])
        psi = (a - n / 2) / product if a > n / 2 else 0.0 if a >= 0 else a / product
    low = p1 - p2 - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2 - 2 * psi * (p1 - l1) * (u2 - p2))
    high = p1 - p2 + math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2 - 2 * psi * (p2 - l2) * (u1 - p1))
    return low, high


CASES = 20
# Cases 0..7 are answered wrongly on the planted side.
PLANTED = range(8)
METRICS = [{"type": "exact_match"}, {"type": "bleu"}]


def reference(index: int) -> str:
    return f"the cat sat on the mat number {index}"


def evaluation(api: Api, client: httpx.Client, wrong: set[int], extra_id: str | None = None) -> str:
    """A completed evaluation over cases `case-0..19` (plus `extra_id`), wrong on `wrong`."""
    cases: list[dict[str, Any]] = [
        {
            "id": f"case-{index}",
            "input": f"Repeat sentence {index}.",
            "actual_output": "a dog ran away" if index in wrong else reference(index),
            "expected_output": reference(index),
        }
        for index in range(CASES)
    ]
    if extra_id is not None:
        cases.append({"id": extra_id, "input": "q", "actual_output": "x", "expected_output": "x"})
    response = client.post("/v1/evaluations", json={"test_cases": cases, "metrics": METRICS})
    assert response.status_code == 202, response.text
    final = api.wait(client, response.json()["id"])
    assert final["status"] == "completed"
    return final["id"]


def compare(client: httpx.Client, baseline: str, candidate: str, **extra: Any) -> httpx.Response:
    return client.post(
        "/v1/comparisons", json={"baseline_id": baseline, "candidate_id": candidate, **extra}
    )


def quiz_dataset(client: httpx.Client, rows: int = 12) -> str:
    response = upload(
        client, "quiz.zip", mcq_zip([IMAGES[i % 3] for i in range(rows)]), "general_vmcq"
    )
    assert response.status_code == 201, response.text
    return response.json()["id"]


def run(api: Api, client: httpx.Client, dataset_id: str, wrong: set[int], rows: int = 12) -> str:
    """A completed predictions run over the first `rows` samples, wrong on `wrong`."""
    predictions = [
        {"index": index, "prediction": "ANSWER: B" if index in wrong else "ANSWER: A"}
        for index in range(rows)
    ]
    response = client.post(
        "/v1/runs", json={"dataset_id": dataset_id, "predictions": predictions, "limit": rows}
    )
    assert response.status_code == 202, response.text
    final = wait_run(api, client, response.json()["id"])
    assert final["status"] == "completed"
    return final["id"]


def outcomes(
    api: Api, client: httpx.Client, correct: list[bool], metrics: list[dict] | None = None
) -> str:
    """A completed evaluation over cases `c0..`: exact_match (or `metrics`) right where
    `correct` says so."""
    cases = [
        {
            "id": f"c{index}",
            "input": "q",
            "actual_output": "a",
            "expected_output": "a" if ok else "b",
        }
        for index, ok in enumerate(correct)
    ]
    response = client.post(
        "/v1/evaluations",
        json={"test_cases": cases, "metrics": metrics or [{"type": "exact_match"}]},
    )
    assert response.status_code == 202, response.text
    final = api.wait(client, response.json()["id"])
    assert final["status"] == "completed"
    return final["id"]
