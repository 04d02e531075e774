"""A call answered after a cancel is billed: its result is dropped, but the judge made (and its
provider charges) the call, so the evaluation's usage and the tenant's count it. Before, a
canceled evaluation said 0 calls while the judge had answered. So is a call answered before the
cancel whose result the cancel kept from being made. A call its items share (a G-Eval's steps, a
run's candidate answer) is not made again once the canceled job has stopped; one it cut off
then is counted as a failed call.

The scripted judge is the session's. The first tests count only the requests that carry their
own evaluation's marker, written when a call another test's evaluation made late could reach it
during them (tests/fixtures/strays.py keeps those out now)."""

import dataclasses
import json
import time
import uuid
from pathlib import Path

import pytest

from tests.evaluations.test_endpoints import judged_body
from tests.evaluations.test_judged import service
from tests.fixtures.judge import Reply, ScriptedJudge, plausible_answer, task_of
from tests.runs.helpers import register_model
from tests.runs.test_endpoints import vqa_dataset


def marked(body: dict) -> tuple[dict, str]:
    """`body` with a marker unique to this test in its first case's input (and its metrics'
    criteria, which a G-Eval's steps call sees without the case), and the marker."""
    marker = f"marker-{uuid.uuid4().hex}"
    body["test_cases"][0]["input"] = f"{body['test_cases'][0]['input']} {marker}"
    for metric in body["metrics"]:
        if "criteria" in metric:
            metric["criteria"] = f"{metric['criteria']} ({marker})"
    return body, marker


def criteria_body() -> dict:
    """One case and a G-Eval by criteria: its steps call, then one score call."""
    return {
        "test_cases": [{"input": "q", "actual_output": "a"}],
        "metrics": [
            {
                "type": "g_eval",
                "name": "judged",
                "criteria": "Does the output answer the input?",
                "evaluation_params": ["input", "actual_output"],
            }
        ],
    }


def ours(judge: ScriptedJudge, marker: str, task: str | None = None) -> list[dict]:
    """The judge requests made for the evaluation with `marker` (of `task`, if given)."""
    return [
        request
        for request in list(judge.requests)
        if marker in json.dumps(request) and (task is None or task_of(request) == task)
    ]


@pytest.mark.parametrize("mode", ["embedded", "distributed"])
def test_a_call_answered_after_a_cancel_is_billed(
    mode: str, request: pytest.FixtureRequest, tmp_path: Path, judge: ScriptedJudge
) -> None:
    judge.script(plausible_answer)
    judge.hold()
    # One case: exact_match, and one g_eval call held in flight until after the cancel (a
    # judge timeout long enough that the held call is answered, not retried). The job learns
    # of a cancel when it writes results, and then drops the calls in flight unanswered; with
    # no periodic write before the job's end it learns of this one only once the held call is
    # answered (with the default 0.1 s, a write could come between the cancel and the answer).
    with (
        service(
            mode, request, tmp_path, judge, judge_timeout_seconds=60, result_flush_seconds=60
        ) as api,
        api.tenant_client() as client,
    ):
        body, marker = marked(judged_body(1))
        try:
            evaluation_id = client.post("/v1/evaluations", json=body).json()["id"]
            deadline = time.monotonic() + 60
            while not ours(judge, marker):
                assert time.monotonic() < deadline, "the judge call was never made"
                time.sleep(0.02)
            response = client.post(f"/v1/evaluations/{evaluation_id}/cancel")
            assert response.status_code == 200, response.text
        finally:
            judge.release()
        deadline = time.monotonic() + 60
        while (final := client.get(f"/v1/evaluations/{evaluation_id}").json())["usage"][
            "calls"
        ] < 1:
            assert time.monotonic() < deadline, final["usage"]
            time.sleep(0.05)
        assert final["status"] == "canceled" and len(ours(judge, marker)) == 1
        assert final["usage"]["calls"] == 1 and final["usage"]["failed_calls"] == 0
        judged = next(m for m in final["per_metric"] if m["metric"] == "judged")
        assert judged["usage"]["calls"] == 1 and judged["usage"]["prompt_tokens"] > 0
        # Its result was not stored: the cancel came first.
        assert (judged["passed"], judged["failed"], judged["canceled"]) == (0, 0, 1)
        assert client.get("/v1/usage").json()["judge"]["calls"] == 1


@pytest.mark.parametrize("mode", ["embedded", "distributed"])
def test_calls_answered_before_a_cancel_count_though_no_result_is_stored(
    mode: str, request: pytest.FixtureRequest, tmp_path: Path, judge: ScriptedJudge
) -> None:
    """A G-Eval's steps are answered at once; its score call is still in flight when the
    evaluation is canceled, so no result of it is ever made. The steps call was billed: the
    evaluation's usage and the tenant's count it (they said 0 calls)."""

    def steps_now_score_late(body: dict) -> Reply | dict:
        answer = plausible_answer(body)
        if task_of(body) == "g_eval_steps":
            return answer
        if isinstance(answer, Reply):
            return dataclasses.replace(answer, delay=5)
        return Reply(content=json.dumps(answer), delay=5)

    judge.script(steps_now_score_late)
    body, marker = marked(criteria_body())
    with (
        service(mode, request, tmp_path, judge, judge_timeout_seconds=60) as api,
        api.tenant_client() as client,
    ):
        evaluation_id = client.post("/v1/evaluations", json=body).json()["id"]
        deadline = time.monotonic() + 60
        while not ours(judge, marker, "g_eval_score"):
            assert time.monotonic() < deadline, "the score call was never made"
            time.sleep(0.02)
        response = client.post(f"/v1/evaluations/{evaluation_id}/cancel")
        assert response.status_code == 200, response.text
        deadline = time.monotonic() + 60
        while (final := client.get(f"/v1/evaluations/{evaluation_id}").json())["usage"][
            "calls"
        ] < 1:
            assert time.monotonic() < deadline, final["usage"]
            time.sleep(0.05)
        assert final["status"] == "canceled"
        assert final["usage"]["calls"] == 1 and final["usage"]["prompt_tokens"] == 10
        # The score call the cancel cut off was sent and never answered: a failed call, as one
        # that timed out, whose tokens are not known.
        assert final["usage"]["failed_calls"] == 1
        judged = next(m for m in final["per_metric"] if m["metric"] == "judged")
        assert judged["usage"]["calls"] == 1 and judged["canceled"] == 1
        assert judged["usage"]["failed_calls"] == 1
        tenant_usage = client.get("/v1/usage").json()["judge"]
        assert (tenant_usage["calls"], tenant_usage["failed_calls"]) == (1, 1)
        assert judge.responder_errors == [] and len(ours(judge, marker)) == 2


def test_a_shared_call_in_flight_at_a_cancel_is_not_tried_again(
    request: pytest.FixtureRequest, tmp_path: Path, judge: ScriptedJudge
) -> None:
    """A G-Eval's steps are one call its items share, made by a task of its own on the judge
    loop. A cancel dropped the items but left that task running after the job had ended: past
    the judge timeout it made the call again, for an evaluation already canceled, billed and
    counted nowhere. Stopped when the job ends, it was sent and never answered: a failed call
    of the item that made it, in the evaluation's usage and the tenant's. (Both modes run jobs
    on the same judge loop: one mode is enough.)"""
    # Answered a second after the 2 s judge timeout: a caller still waiting asks again first.
    judge.script(lambda body: Reply(content="{}", delay=3.0))
    body, marker = marked(criteria_body())
    with service("embedded", request, tmp_path, judge) as api, api.tenant_client() as client:
        evaluation_id = client.post("/v1/evaluations", json=body).json()["id"]
        deadline = time.monotonic() + 60
        while not ours(judge, marker, "g_eval_steps"):
            assert time.monotonic() < deadline, "the steps call was never made"
            time.sleep(0.02)
        response = client.post(f"/v1/evaluations/{evaluation_id}/cancel")
        assert response.status_code == 200, response.text
        # Its answer comes at 3 s; a task still waiting for it would have asked again at 2 s.
        deadline = time.monotonic() + 60
        while judge.in_flight:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert [task_of(call) for call in ours(judge, marker)] == ["g_eval_steps"]
        deadline = time.monotonic() + 60
        while (final := client.get(f"/v1/evaluations/{evaluation_id}").json())["usage"][
            "failed_calls"
        ] < 1:
            assert time.monotonic() < deadline, final["usage"]
            time.sleep(0.05)
        assert final["status"] == "canceled"
        assert (final["usage"]["calls"], final["usage"]["failed_calls"]) == (0, 1)
        judged = next(m for m in final["per_metric"] if m["metric"] == "judged")
        assert judged["usage"]["failed_calls"] == 1
        tenant_usage = client.get("/v1/usage").json()["judge"]
        assert (tenant_usage["calls"], tenant_usage["failed_calls"]) == (0, 1)


def test_a_candidates_call_in_flight_at_a_cancel_is_not_tried_again(
    request: pytest.FixtureRequest, tmp_path: Path, judge: ScriptedJudge
) -> None:
    """So is a run's call to its candidate model, which the sample's metrics share: a cancel
    left it going, tried again past its timeout for a run already canceled. Stopped when the
    job ends, it is a failed candidate call in the run's usage and the tenant's."""
    # Answered a second after the 2 s candidate timeout: a caller still waiting asks again first.
    judge.script(lambda body: Reply(content="A circle", delay=3.0))
    with (
        service("embedded", request, tmp_path, judge, candidate_timeout_seconds=2.0) as api,
        api.tenant_client() as client,
    ):
        model_id = register_model(client, judge.base_url)
        body = {"dataset_id": vqa_dataset(client), "model_id": model_id, "limit": 1}
        run_id = client.post("/v1/runs", json=body).json()["id"]
        deadline = time.monotonic() + 60
        while not judge.requests:
            assert time.monotonic() < deadline, "the candidate was never called"
            time.sleep(0.02)
        response = client.post(f"/v1/runs/{run_id}/cancel")
        assert response.status_code == 200, response.text
        # Its answer comes at 3 s; a task still waiting for it would have asked again at 2 s.
        deadline = time.monotonic() + 60
        while judge.in_flight:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert [task_of(call) for call in judge.requests] == [None]
        deadline = time.monotonic() + 60
        while (final := client.get(f"/v1/runs/{run_id}").json())["candidate_usage"][
            "failed_calls"
        ] < 1:
            assert time.monotonic() < deadline, final["candidate_usage"]
            time.sleep(0.05)
        assert final["status"] == "canceled"
        assert (final["candidate_usage"]["calls"], final["candidate_usage"]["failed_calls"]) == (
            0,
            1,
        )
        assert final["usage"]["calls"] == 0
        tenant_usage = client.get("/v1/usage").json()["candidate"]
        assert (tenant_usage["calls"], tenant_usage["failed_calls"]) == (0, 1)
