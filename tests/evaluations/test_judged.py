"""The four judged metrics through the HTTP API and the workers, against the scripted judge."""

import base64
import io
import json

from PIL import Image

from tests.fixtures.api import Api
from tests.fixtures.judge import (
    JUDGED_METRICS as METRICS,
)
from tests.fixtures.judge import Reply, ScriptedJudge, image_parts, plausible_answer, task_of
from tests.fixtures.metrics import user_text


def png(color: str, size: tuple[int, int] = (16, 12)) -> str:
    buffer = io.BytesIO()
    Image.new("RGB", size, color).save(buffer, format="PNG")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode()


RED, BLUE = png("red"), png("blue", (12, 16))


def image(url: str) -> dict:
    return {"type": "image_url", "image_url": {"url": url}}


def cases(count: int, tag: str = "") -> list[dict]:
    return [
        {
            "id": f"case-{i}",
            "input": ["What shape is shown?", image(RED)],
            "actual_output": f"A red circle{tag}, number {i}.",
            "expected_output": "A red circle.",
            "retrieval_context": [f"Doc {i}: the logo is a red circle{tag}.", [image(BLUE)]],
        }
        for i in range(count)
    ]


def submit(api: Api, client, body: dict) -> dict:
    response = client.post("/v1/evaluations", json=body)
    assert response.status_code == 202, response.text
    return api.wait(client, response.json()["id"])


def all_results(client, evaluation_id: str) -> list[dict]:
    return client.get(f"/v1/evaluations/{evaluation_id}/results", params={"limit": 1000}).json()[
        "data"
    ]


class TestJudgedMetrics:
    def test_four_metrics_with_images(self, api: Api, judge: ScriptedJudge) -> None:
        judge.script(plausible_answer)
        client = api.tenant_client()
        final = submit(
            api,
            client,
            {"test_cases": cases(3), "metrics": METRICS, "judge": {"model": "judge-large"}},
        )
        assert final["status"] == "completed"
        assert final["result_counts"] == {
            "total": 12,
            "passed": 12,
            "failed": 0,
            "errored": 0,
            "pending": 0,
        }
        summary = {m["metric"]: m["mean_score"] for m in final["per_metric"]}
        assert summary["helpfulness"] == 0.85  # (0.5·8 + 0.5·9) / 10
        assert summary["faithfulness"] == 1.0
        assert summary["contextual_precision"] == 1.0 and summary["contextual_recall"] == 1.0

        # 1 steps call for the evaluation + per case: truths, claims+verdicts, score, 2 verdicts.
        assert len(judge.requests) == 1 + 3 * 5
        assert final["usage"]["calls"] == len(judge.requests)
        assert final["usage"]["prompt_tokens"] == 100 * 3 + 10 * (len(judge.requests) - 3)
        assert {r["model"] for r in judge.requests} == {"judge-large"}

        rows = {(r["test_case_id"], r["metric"]): r for r in all_results(client, final["id"])}
        geval = rows[("case-0", "helpfulness")]
        assert geval["reason"] == "It names the shape correctly."
        assert geval["logs"]["score_mode"] == "logprob_weighted"
        assert geval["logs"]["steps"] == ["Check the shape.", "Check the colour."]
        faith = rows[("case-1", "faithfulness")]
        assert faith["logs"]["truths"] == ["The logo is a red circle."]
        assert [v["verdict"] for v in faith["logs"]["verdicts"]] == ["yes", "idk"]
        assert faith["reason"] == "Mostly supported." and faith["usage"]["calls"] in (1, 2)
        assert rows[("case-2", "contextual_precision")]["logs"]["nodes"] == 2

        # The judge saw the images: the question's with the score, the context's as a node.
        score_call = judge.calls_for("g_eval_score")[0]
        assert len(image_parts(score_call)) == 1 and image_parts(score_call)[0].startswith(
            "data:image/"
        )
        for task, count in (
            ("faithfulness_truths", 1),
            ("contextual_recall_verdicts", 1),
            ("contextual_precision_verdicts", 2),  # the input's image and the context's
        ):
            assert len(image_parts(judge.calls_for(task)[0])) == count
        assert "Node 2 (image):" in user_text(judge.calls_for("contextual_recall_verdicts")[0])
        assert "sk-test-secret" not in json.dumps(list(rows.values()))

    def test_resubmitting_makes_no_judge_calls(self, api: Api, judge: ScriptedJudge) -> None:
        judge.script(plausible_answer)
        client = api.tenant_client()
        body = {"test_cases": cases(2, " again"), "metrics": METRICS}
        first = submit(api, client, body)
        calls = len(judge.requests)
        assert calls > 0
        second = submit(api, client, body)
        assert len(judge.requests) == calls
        assert second["usage"]["calls"] == 0

        def scores(evaluation: dict) -> list[tuple]:
            return [
                (r["test_case_id"], r["metric"], r["score"], r["reason"])
                for r in all_results(client, evaluation["id"])
            ]

        assert scores(first) == scores(second)
        assert all(r["logs"]["cached_calls"] >= 1 for r in all_results(client, second["id"]))

        # The cache belongs to the tenant: another tenant pays for its own calls...
        other = api.tenant_client()
        submit(api, other, body)
        assert len(judge.requests) == 2 * calls
        # ...and `cache: false` opts out of reuse across evaluations.
        uncached = submit(api, client, {**body, "cache": False})
        assert uncached["usage"]["calls"] == calls and len(judge.requests) == 3 * calls


class TestJudgeFaults:
    def test_transient_faults_are_retried(self, api: Api, judge: ScriptedJudge) -> None:
        seen: dict[str, int] = {}
        faults = {
            "g_eval_score": Reply(
                status=429, headers={"Retry-After": "0.1"}, error_code="rate_limit_exceeded"
            ),
            "faithfulness_truths": Reply(status=500),
            "contextual_recall_verdicts": Reply(content="{}", delay=3.0),  # past the 2 s timeout
            "contextual_precision_verdicts": Reply(content="not json at all"),
        }

        def flaky(request: dict) -> Reply | dict:
            task = task_of(request)
            seen[task] = seen.get(task, 0) + 1
            if seen[task] == 1 and task in faults:
                return faults[task]
            return plausible_answer(request)

        judge.script(flaky)
        client = api.tenant_client()
        final = submit(api, client, {"test_cases": cases(1, " flaky"), "metrics": METRICS})
        assert final["result_counts"]["errored"] == 0 and final["result_counts"]["passed"] == 4
        assert all(seen[task] == 2 for task in faults)
        precision = next(
            r for r in all_results(client, final["id"]) if r["metric"] == "contextual_precision"
        )
        assert precision["usage"]["calls"] == 2  # the broken reply and its repair

    def test_persistent_faults_are_per_result_errors(self, api: Api, judge: ScriptedJudge) -> None:
        def poisoned(request: dict) -> Reply | dict:
            if "POISON" in user_text(request) and task_of(request) == "contextual_recall_verdicts":
                return Reply(status=500)
            if "POISON" in user_text(request) and task_of(request) == "g_eval_score":
                return Reply(content="never json")
            return plausible_answer(request)

        judge.script(poisoned)
        client = api.tenant_client()
        test_cases = cases(3, " poison-free")
        test_cases[1]["actual_output"] = "POISON output"
        test_cases[1]["expected_output"] = "POISON expected"
        final = submit(api, client, {"test_cases": test_cases, "metrics": METRICS})
        assert final["status"] == "completed"
        counts = final["result_counts"]
        assert (counts["errored"], counts["passed"], counts["pending"]) == (2, 10, 0)
        errors = {r["metric"]: r for r in all_results(client, final["id"]) if r["error"]}
        assert errors["contextual_recall"]["error"]["type"] == "judge_unavailable"
        assert errors["contextual_recall"]["test_case_id"] == "case-1"
        assert (
            errors["contextual_recall"]["score"] is None
            and errors["contextual_recall"]["passed"] is None
        )
        assert errors["helpfulness"]["error"]["type"] == "invalid_json"
        assert errors["helpfulness"]["usage"]["calls"] == 2
        summary = {m["metric"]: m for m in final["per_metric"]}
        assert (
            summary["contextual_recall"]["errored"] == 1
            and summary["contextual_recall"]["passed"] == 2
        )
