"""Metric versions (issue 29): a judged metric's verdict-changing definition hashed into an id
per tenant, recorded on every result and metric summary of evaluations, dataset runs and
OpenAI eval runs, and read through /v1/metric_versions; through the HTTP API against the
scripted judge."""

import csv
import io
import threading
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from app.models import Result
from tests.evals.helpers import CRITERIA, ITEM_SCHEMA, ROWS, grading
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge, plausible_answer
from tests.online.test_receiver import judged_results, make_rule, model_and_judge, semconv_span
from tests.runs.helpers import register_model, wait_run
from tests.runs.test_endpoints import start, vqa_dataset
from tests.runs.test_judged_metrics import judge_and_candidate

G_EVAL = {
    "type": "g_eval",
    "name": "helpful",
    "criteria": "Is the answer helpful?",
    "evaluation_steps": ["Check the answer addresses the question."],
    "evaluation_params": ["input", "actual_output"],
}
CASES = [
    {"id": "a", "input": "question a", "actual_output": "answer a", "expected_output": "answer a"},
    {"id": "b", "input": "question b", "actual_output": "answer b", "expected_output": "other"},
]


@pytest.fixture(autouse=True)
def answering(judge: ScriptedJudge) -> None:
    """The judge answers every task (a test may script its own)."""
    judge.script(plausible_answer)


def submit(client: httpx.Client, metrics: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    response = client.post(
        "/v1/evaluations", json={"test_cases": CASES, "metrics": metrics, **extra}
    )
    assert response.status_code == 202, response.text
    return response.json()


def evaluated(api: Api, client: httpx.Client, metrics: list[dict[str, Any]], **extra: Any) -> dict:
    final = api.wait(client, submit(client, metrics, **extra)["id"])
    assert final["status"] == "completed", final
    return final


def versions_of(final: dict[str, Any]) -> list[str | None]:
    """Per metric, its summary's version."""
    return [row["metric_version"] for row in final["per_metric"]]


def results(client: httpx.Client, evaluation_id: str) -> list[dict[str, Any]]:
    page = client.get(f"/v1/evaluations/{evaluation_id}/results", params={"limit": 100})
    assert page.status_code == 200, page.text
    return page.json()["data"]


def version_of(api: Api, client: httpx.Client, metric: dict[str, Any], **extra: Any) -> str:
    (version,) = versions_of(evaluated(api, client, [metric], **extra))
    assert version is not None and version.startswith("mv_") and len(version) == 27
    return version


class TestSameAndChanged:
    def test_one_definition_is_one_version_in_results_summaries_and_the_version_route(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        client = api.tenant_client()
        first = evaluated(api, client, [G_EVAL, {"type": "exact_match"}])
        second = evaluated(api, client, [G_EVAL, {"type": "exact_match"}])
        version, none = versions_of(first)
        assert none is None  # exact_match has no judge, so no version
        assert versions_of(second) == [version, None]
        for final in (first, second):
            rows = results(client, final["id"])
            assert len(rows) == 4
            assert [row["error"] for row in rows] == [None] * 4
            assert {row["metric"]: row["metric_version"] for row in rows} == {
                "helpful": version,
                "exact_match": None,
            }
        # The CSV export carries it too.
        exported = client.get(
            f"/v1/evaluations/{first['id']}/results/export", params={"format": "csv"}
        )
        assert exported.status_code == 200, exported.text
        table = list(csv.DictReader(io.StringIO(exported.text)))
        assert {row["metric"]: row["metric_version"] for row in table} == {
            "helpful": version,
            "exact_match": "",
        }
        shown = client.get(f"/v1/metric_versions/{version}")
        assert shown.status_code == 200, shown.text
        body = shown.json()
        assert body["id"] == version
        assert body["type"] == "g_eval"
        assert body["name"] == "helpful"
        assert body["status"] == "active"
        assert body["parent_id"] is None
        assert body["definition"]["options"]["criteria"] == G_EVAL["criteria"]
        assert body["definition"]["judge"] == {"model": api.settings.judge_model}
        assert "threshold" not in body["definition"]["options"]
        listed = client.get("/v1/metric_versions").json()
        assert [row["id"] for row in listed["data"]] == [version]
        assert listed["has_more"] is False

    def test_what_changes_verdicts_makes_a_new_version_and_the_threshold_does_not(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        client = api.tenant_client()
        base = version_of(api, client, G_EVAL)
        # A threshold, a name or a default spelled out changes no verdict.
        assert version_of(api, client, {**G_EVAL, "threshold": 0.9}) == base
        assert version_of(api, client, {**G_EVAL, "name": "renamed"}) == base
        assert version_of(api, client, {**G_EVAL, "strict_mode": False}) == base
        changed = [
            {**G_EVAL, "criteria": "Is the answer correct?"},
            {**G_EVAL, "evaluation_steps": ["Check the answer is polite."]},
            {**G_EVAL, "model": "another-judge"},
            {**G_EVAL, "judge": {"samples": 3}},
            {**G_EVAL, "strict_mode": True},
        ]
        seen = {base}
        for metric in changed:
            version = version_of(api, client, metric)
            assert version not in seen, metric
            seen.add(version)
        # The evaluation's default judge model counts as the judge's model.
        assert version_of(api, client, G_EVAL, judge={"model": "another-judge"}) in seen
        panel = {
            **G_EVAL,
            "judge": {"panel": [{"model": "judge-one"}, {"model": "judge-two"}]},
        }
        reordered = {
            **G_EVAL,
            "judge": {"panel": [{"model": "judge-two"}, {"model": "judge-one"}]},
        }
        weighted = {
            **G_EVAL,
            "judge": {"panel": [{"model": "judge-one", "weight": 2}, {"model": "judge-two"}]},
        }
        with_panel = version_of(api, client, panel)
        assert with_panel not in seen
        # A panel's members are aggregated, not ordered; their weights count.
        assert version_of(api, client, reordered) == with_panel
        assert version_of(api, client, weighted) not in seen | {with_panel}
        listed = client.get("/v1/metric_versions", params={"limit": 100}).json()["data"]
        assert len(listed) == len(seen) + 2
        created = [row["created_at"] for row in listed]
        assert created == sorted(created, reverse=True)

    def test_the_list_filters_and_pages(self, api: Api, judge: ScriptedJudge) -> None:
        client = api.tenant_client()
        evaluated(api, client, [G_EVAL, {**G_EVAL, "name": "other", "criteria": "Polite?"}])
        evaluated(api, client, [{"type": "answer_relevancy"}])
        everything = client.get("/v1/metric_versions").json()["data"]
        assert len(everything) == 3
        by_type = client.get("/v1/metric_versions", params={"type": "g_eval"}).json()["data"]
        assert {row["name"] for row in by_type} == {"helpful", "other"}
        by_name = client.get("/v1/metric_versions", params={"name": "other"}).json()["data"]
        assert [row["name"] for row in by_name] == ["other"]
        first = client.get("/v1/metric_versions", params={"limit": 2}).json()
        assert first["has_more"] is True
        rest = client.get(
            "/v1/metric_versions", params={"limit": 2, "after": first["data"][-1]["id"]}
        ).json()
        assert rest["has_more"] is False
        assert [row["id"] for row in first["data"] + rest["data"]] == [
            row["id"] for row in everything
        ]
        unknown = client.get("/v1/metric_versions", params={"after": "mv_" + "0" * 24})
        assert unknown.status_code == 400
        assert unknown.headers["content-type"].startswith("application/problem+json")
        assert [error["loc"] for error in unknown.json()["errors"]] == ["query.after"]


class TestTenants:
    def test_two_tenants_same_definition_different_ids_neither_reads_the_other(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        one, two = api.tenant_client(), api.tenant_client()
        mine, theirs = version_of(api, one, G_EVAL), version_of(api, two, G_EVAL)
        assert mine != theirs
        assert one.get(f"/v1/metric_versions/{mine}").status_code == 200
        refused = one.get(f"/v1/metric_versions/{theirs}")
        assert refused.status_code == 404
        assert refused.headers["content-type"].startswith("application/problem+json")
        assert two.get(f"/v1/metric_versions/{mine}").status_code == 404
        assert [row["id"] for row in one.get("/v1/metric_versions").json()["data"]] == [mine]
        assert [row["id"] for row in two.get("/v1/metric_versions").json()["data"]] == [theirs]


class TestConcurrency:
    def test_concurrent_submissions_of_one_definition_both_succeed(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        key = api.new_key()
        barrier = threading.Barrier(4)
        answers: list[httpx.Response] = []
        lock = threading.Lock()

        def post() -> None:
            with api.client(key) as client:
                barrier.wait()
                response = client.post(
                    "/v1/evaluations", json={"test_cases": CASES, "metrics": [G_EVAL]}
                )
            with lock:
                answers.append(response)

        threads = [threading.Thread(target=post) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert [response.status_code for response in answers] == [202] * 4, [
            response.text for response in answers
        ]
        with api.client(key) as client:
            finals = [api.wait(client, response.json()["id"]) for response in answers]
            assert len({versions_of(final)[0] for final in finals}) == 1
            assert len(client.get("/v1/metric_versions").json()["data"]) == 1


class TestOtherKinds:
    def test_dataset_runs_record_versions(self, api: Api, judge: ScriptedJudge) -> None:

        judge.script(judge_and_candidate)
        client = api.tenant_client()
        metric = {**G_EVAL, "criteria": "Does the answer address the question?"}
        run = start(
            client,
            {
                "dataset_id": vqa_dataset(client),
                "model_id": register_model(client, judge.base_url),
                "metrics": [metric],
            },
        )
        final = wait_run(api, client, run["id"])
        assert final["status"] == "completed", final
        # The run's g_eval is the tenant's one version of that definition.
        (shown,) = client.get("/v1/metric_versions").json()["data"]
        assert shown["name"] == "helpful"
        # Runs show no result rows through the API: their stored results are read here.
        with api.served.runtime.session() as session:
            stored = session.execute(
                select(Result.metric, Result.metric_version).where(
                    Result.evaluation_id == run["id"]
                )
            ).all()
        versions = {metric: version for metric, version in stored}
        assert versions.pop("helpful") == shown["id"]
        # EvalScope's own scorers have no judge.
        assert set(versions.values()) <= {None}
        # The same metric in a plain evaluation of the tenant is the same version.
        assert version_of(api, client, metric) == shown["id"]

    def test_eval_runs_record_their_model_graders_versions(
        self, api: Api, judge: ScriptedJudge
    ) -> None:

        judge.script(grading)
        client = api.tenant_client()
        created = client.post(
            "/v1/evals",
            json={
                "name": "versions",
                "data_source_config": {
                    "type": "custom",
                    "item_schema": ITEM_SCHEMA,
                    "include_sample_schema": True,
                },
                "testing_criteria": CRITERIA,
            },
        )
        assert created.status_code in (200, 201), created.text
        eval_id = created.json()["id"]
        versions = []
        for _ in range(2):
            run = client.post(
                f"/v1/evals/{eval_id}/runs",
                json={
                    "data_source": {
                        "type": "jsonl",
                        "source": {"type": "file_content", "content": ROWS},
                    }
                },
            )
            assert run.status_code in (200, 201), run.text
            final = api.wait(client, run.json()["id"])
            assert final["status"] == "completed", final
            by_type = {row["type"]: row["metric_version"] for row in final["per_metric"]}
            # The graders that ask a model have a version; string and fuzzy checks have none.
            assert by_type["string_check"] is None
            assert by_type["text_similarity"] is None
            assert by_type["label_model"] is not None
            assert by_type["score_model"] is not None
            assert by_type["label_model"] != by_type["score_model"]
            rows = results(client, run.json()["id"])
            assert {row["metric_version"] for row in rows if row["type"] == "label_model"} == {
                by_type["label_model"]
            }
            versions.append(by_type)
        assert versions[0] == versions[1]
        shown = client.get(f"/v1/metric_versions/{versions[0]['score_model']}").json()
        assert shown["definition"]["judge"] == {"model": "judge-model"}
        assert "pass_threshold" not in shown["definition"]["options"]

    def test_online_rules_days_record_versions(self, api: Api, judge: ScriptedJudge) -> None:
        judge.script(model_and_judge)
        client = api.tenant_client()
        rule = make_rule(client, metrics=[{"type": "answer_relevancy"}])
        body = {"resourceSpans": [semconv_span("00f067aa0ba902b7", "app", "Capital of France?")]}
        assert client.post("/v1/traces", json=body).status_code == 200
        [result] = judged_results(api, client, rule["id"], 1)
        (version,) = client.get("/v1/metric_versions").json()["data"]
        assert version["type"] == "answer_relevancy"
        assert result["metric_version"] == version["id"]
        # The rule's day is an evaluation whose summary names the version too.
        day = client.get(f"/v1/evaluations/{result['evaluation_id']}")
        assert day.status_code == 200, day.text
        assert versions_of(day.json()) == [version["id"]]
