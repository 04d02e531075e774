"""What a rule judged is readable through the API as a client reads any evaluation: each result
of `GET /v1/online_rules/{id}/results` carries its call as a test case (input with its images,
output, retrieved documents), and the rule's day is an evaluation read through
`/v1/evaluations` (issue 26, items 3 and 5); managed through its rule, not cancelled there."""

import base64
import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.console.helpers import csrf_of, signed_in
from tests.fixtures.api import Api, side_app
from tests.fixtures.judge import ScriptedJudge
from tests.online.test_backfill import send
from tests.online.test_receiver import judged_results, make_rule, model_and_judge, semconv_span
from tests.otlp.capture import red_square_png

TRACE = "0af7651916cd43dd8448eb211c80319c"
CALL = "c0c0c0c0c0c0c0c0"
QUESTION = "What colour is this square?"
DOCUMENT = "The square on the shop's logo is red."


def call_with_image_and_document() -> list[dict[str, Any]]:
    """A retrieval span, then a chat call of `shop` whose user message holds a question and an
    image (a GenAI-conventions blob part), in the same trace."""
    call = semconv_span(CALL, "shop", QUESTION, TRACE)
    attributes = call["scopeSpans"][0]["spans"][0]["attributes"]
    image = {
        "type": "blob",
        "modality": "image",
        "mime_type": "image/png",
        "content": base64.b64encode(red_square_png()).decode("ascii"),
    }
    messages = [{"role": "user", "parts": [{"type": "text", "content": QUESTION}, image]}]
    [content] = [item for item in attributes if item["key"] == "gen_ai.input.messages"]
    content["value"] = {"stringValue": json.dumps(messages)}
    retrieval = semconv_span("d0d0d0d0d0d0d0d0", "shop", "unused", TRACE)
    span = retrieval["scopeSpans"][0]["spans"][0]
    span["name"] = "retrieval shop-docs"
    span["startTimeUnixNano"] = "1795685646148688092"
    span["endTimeUnixNano"] = "1795685646548688092"
    span["attributes"] = [
        {"key": "gen_ai.operation.name", "value": {"stringValue": "retrieval"}},
        {
            "key": "gen_ai.retrieval.documents",
            "value": {"stringValue": json.dumps([{"content": DOCUMENT}])},
        },
    ]
    return [retrieval, call]


def not_found(response: httpx.Response) -> None:
    assert response.status_code == 404, response.text
    assert response.headers["content-type"].startswith("application/problem+json")


def judged_call(api: Api, client: httpx.Client) -> tuple[dict[str, Any], dict[str, Any]]:
    """A rule of the client's tenant with the call above judged; the rule and its result."""
    rule = make_rule(client, filter=[{"attribute": "service.name", "op": "eq", "value": "shop"}])
    send(client, *call_with_image_and_document())
    [result] = judged_results(api, client, rule["id"], 1)
    return rule, result


class TestJudgedCalls:
    def test_each_result_carries_its_call_with_fetchable_images(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(model_and_judge)
        client = api.tenant_client()

        rule, result = judged_call(api, client)

        case = result["test_case"]
        assert case["object"] == "evaluation.test_case"
        assert case["id"] == result["test_case_id"] == CALL == result["span_id"]
        assert case["index"] == result["test_case_index"]
        text, picture = case["input"]
        assert text == QUESTION
        media_url = picture["image_url"]["url"]
        assert media_url.startswith(api.base_url + "/v1/media/")
        assert case["actual_output"] == "Paris."
        assert case["retrieval_context"] == [DOCUMENT]
        assert case["metadata"]["trace_id"] == TRACE
        fetched = client.get(media_url)
        assert fetched.status_code == 200
        assert fetched.headers["content-type"].startswith("image/")

        # Another tenant reads neither the rule's results nor the call's image.
        with api.tenant_client() as other:
            not_found(other.get(f"/v1/online_rules/{rule['id']}/results"))
            not_found(other.get(media_url))

    def test_the_rules_day_is_read_as_an_evaluation(self, api: Api, judge: ScriptedJudge) -> None:
        judge.script(model_and_judge)
        key = api.new_key()
        client = api.client(key)
        rule, result = judged_call(api, client)
        day_id = result["evaluation_id"]

        day = client.get(f"/v1/evaluations/{day_id}")

        assert day.status_code == 200, day.text
        body = day.json()
        assert body["kind"] == "online" and body["status"] == "in_progress"
        assert body["name"] == f"{rule['name']} · {result['day']}"
        [case] = client.get(f"/v1/evaluations/{day_id}/test_cases").json()["data"]
        assert case == result["test_case"]
        [stored] = client.get(f"/v1/evaluations/{day_id}/results").json()["data"]
        assert stored["id"] == result["id"] and stored["score"] == result["score"]
        assert stored["test_case_id"] == CALL
        exported = client.get(f"/v1/evaluations/{day_id}/results/export").text
        assert json.loads(exported.splitlines()[0])["test_case_id"] == CALL
        listed = client.get("/v1/evaluations", params={"kind": "online"}).json()["data"]
        assert [evaluation["id"] for evaluation in listed] == [day_id]
        # Plain evaluations are listed without it, as before.
        assert client.get("/v1/evaluations").json()["data"] == []

        # A day is managed through its rule: the evaluation routes, which read it, neither
        # cancel nor delete it, and say what it is and which routes do; the console's cancel
        # names the route that stops it.
        path = f"/v1/online_rules/{rule['id']}"
        managed = (
            f"{day_id} is a day of online rule {rule['id']}, managed through its rule: "
            f"POST {path}/disable stops it, DELETE {path} deletes the rule with its days."
        )
        for refused in (
            client.post(f"/v1/evaluations/{day_id}/cancel"),
            client.delete(f"/v1/evaluations/{day_id}"),
        ):
            assert refused.status_code == 409, refused.text
            assert refused.headers["content-type"].startswith("application/problem+json")
            assert refused.json()["detail"] == managed
            assert refused.json()["type"].endswith("/managed-elsewhere")
        console = signed_in(api, key)
        page = console.get(f"/console/evaluations/{day_id}")
        assert (
            page.status_code == 200
            and QUESTION in console.get(f"/console/evaluations/{day_id}/cases/{case['index']}").text
        )
        refused = console.post(
            f"/console/evaluations/{day_id}/cancel", data={"csrf_token": csrf_of(page.text)}
        )
        console.close()
        assert refused.status_code == 409, refused.text
        assert f"/v1/online_rules/{rule['id']}/disable stops it" in refused.text
        assert client.get(f"/v1/evaluations/{day_id}").json()["status"] == "in_progress"

        with api.tenant_client() as other:
            not_found(other.get(f"/v1/evaluations/{day_id}"))
            not_found(other.post(f"/v1/evaluations/{day_id}/cancel"))
            not_found(other.delete(f"/v1/evaluations/{day_id}"))
            not_found(other.get(f"/v1/evaluations/{day_id}/test_cases"))
            not_found(other.get(f"/v1/evaluations/{day_id}/results"))
            assert other.get("/v1/evaluations", params={"kind": "online"}).json()["data"] == []


class TestTheDocsSampleRule:
    def test_needs_a_judge_and_takes_a_tenants_own(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, judge: ScriptedJudge
    ) -> None:
        """docs/online.md's rule on a fresh install (no LOUPE_JUDGE_*): 422 naming the metric
        and the settings; with the tenant's registered model as its judge, created."""
        text = (Path(__file__).resolve().parents[2] / "docs" / "online.md").read_text()
        match = re.search(r"/v1/online_rules \\\n.*?-d '(\{.*?\})'", text, re.S)
        assert match, "no sample rule in docs/online.md"
        sample = json.loads(match.group(1))
        # The server's judge falls back to these; a developer's shell may have them set.
        monkeypatch.delenv("OPENAI_API_KEY", raising=False)
        monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
        with side_app(tmp_path, judge_api_key=None, judge_base_url=None) as app:
            client = app.tenant_client()

            refused = client.post("/v1/online_rules", json=sample)

            assert refused.status_code == 422, refused.text
            assert refused.headers["content-type"].startswith("application/problem+json")
            [error] = refused.json()["errors"]
            assert error["pointer"] == "/metrics/0"
            assert error["type"] == "judge_not_configured"
            assert "LOUPE_JUDGE_BASE_URL" in error["msg"]
            assert client.get("/v1/online_rules").json()["data"] == []
            model = client.post(
                "/v1/models", json={"base_url": judge.base_url, "model": "m", "api_key": "k"}
            )
            assert model.status_code == 201, model.text

            created = client.post(
                "/v1/online_rules", json={**sample, "judge": {"model_id": model.json()["id"]}}
            )

            assert created.status_code == 201, created.text
