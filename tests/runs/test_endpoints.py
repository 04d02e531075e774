"""Runs through the HTTP API: a loopback candidate model over the EvalScope examples, scored
with EvalScope's rules or an LLM judge, reported per subset, paged and exported."""

import csv
import io
import json

import pytest

from app.metrics._text_scores import text_scores
from tests.fixtures.api import Api
from tests.fixtures.judge import Reply, ScriptedJudge, image_parts, task_of
from tests.runs.helpers import (
    CANDIDATE,
    example_zip,
    register_model,
    report,
    samples,
    upload,
    wait_run,
)

VQA_ANSWERS = {
    "What shape is drawn in white?": "A white circle",
    "What is the background colour of this image?": "Green",
    "Compare the first image": "The first image contains a white square.",
    "Is the audio clip a pure tone?": "Yes, it is a pure tone; the image is red.",
    "图中的白色图形是什么形状": "圆形",
}


def user_text(request: dict) -> str:
    texts = []
    for message in request["messages"]:
        content = message["content"]
        if isinstance(content, str):
            texts.append(content)
        else:
            texts.extend(part.get("text", "") for part in content if part["type"] == "text")
    return " ".join(texts)


def vqa_candidate(request: dict) -> Reply | dict:
    if request["model"] != CANDIDATE:
        return {"reasoning": "matches the reference", "verdict": "A"}
    text = user_text(request)
    for question, answer in VQA_ANSWERS.items():
        if question in text:
            return Reply(content=answer)
    return Reply(content="I do not know")


def vqa_dataset(client) -> str:
    data = example_zip("vqa/example_vqa.jsonl", "vqa/example_vqa_tsv.tsv")
    response = upload(client, "vqa.zip", data, "general_vqa")
    assert response.status_code == 201, response.text
    return response.json()["id"]


def start(client, body: dict) -> dict:
    response = client.post("/v1/runs", json=body)
    assert response.status_code == 202, response.text
    assert response.headers["location"] == f"/v1/runs/{response.json()['id']}"
    return response.json()


class TestVqaRuns:
    def test_candidate_over_the_examples_with_rule_scoring(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(vqa_candidate)
        client = api.tenant_client()
        dataset_id = vqa_dataset(client)
        model_id = register_model(client, judge.base_url)
        run = start(
            client,
            {
                "dataset_id": dataset_id,
                "model_id": model_id,
                "generation": {"temperature": 0.3, "max_tokens": 64},
            },
        )
        final = wait_run(api, client, run["id"])
        assert final["status"] == "completed"
        assert final["sample_count"] == 7
        calls = [r for r in judge.requests if r["model"] == CANDIDATE]
        assert len(calls) == 7
        assert all(r["temperature"] == 0.3 and r["max_tokens"] == 64 for r in calls)
        assert all("response_format" not in r for r in calls)
        # Media reach the candidate in place: images as data URLs, audio as bare base64.
        audio_call = next(r for r in calls if "pure tone" in user_text(r))
        parts = audio_call["messages"][0]["content"]
        assert [p["type"] for p in parts] == ["text", "input_audio", "image_url"]
        assert parts[1]["input_audio"]["format"] == "wav"
        assert not parts[1]["input_audio"]["data"].startswith("data:")
        assert parts[2]["image_url"]["url"].startswith("data:image/png;base64,")
        system_call = next(r for r in calls if "Compare the first image" in user_text(r))
        assert system_call["messages"][0]["role"] == "system"
        assert len(image_parts(system_call)) == 2
        # The key never leaves the server except to the candidate itself.
        assert "sk-candidate-secret" not in json.dumps(final)

        rows = samples(client, run["id"])
        assert len(rows) == 7 and all(not row["errors"] for row in rows)
        by_subset: dict[str, list[dict]] = {}
        for row in rows:
            expected = text_scores(row["prediction"], row["reference"])
            assert row["scores"] == pytest.approx(expected)
            assert row["candidate"]["calls"] == 1
            by_subset.setdefault(row["subset"], []).append(expected)
        table = report(final)
        for subset, scores in by_subset.items():
            for key in ("bleu-1", "bleu-4", "Rouge-1-R", "Rouge-L-F"):
                mean = sum(s[key] for s in scores) / len(scores)
                assert table[(key, subset)] == (len(scores), round(mean, 4))
        assert table[("Rouge-L-R", "OVERALL")][0] == 7
        # The exact answers: ROUGE-L recall 1 (minus rouge_chinese's epsilon on F).
        chinese = next(row for row in rows if row["reference"] == "圆形")
        assert chinese["scores"]["Rouge-L-R"] == 1.0

    def test_scoring_given_predictions_calls_no_model(self, api: Api, judge: ScriptedJudge) -> None:
        client = api.tenant_client()
        dataset_id = vqa_dataset(client)
        predictions = [
            {"subset": "example_vqa", "index": 0, "prediction": "A circle"},
            {"subset": "example_vqa", "index": 1, "prediction": "green"},
        ]
        run = start(
            client,
            {
                "dataset_id": dataset_id,
                "predictions": predictions,
                "subsets": ["example_vqa"],
                "limit": 2,
            },
        )
        final = wait_run(api, client, run["id"])
        assert final["status"] == "completed"
        assert judge.requests == []
        rows = samples(client, run["id"])
        assert [row["prediction"] for row in rows] == ["A circle", "green"]
        assert rows[0]["scores"]["bleu-1"] == 1.0
        # Case-sensitive, as EvalScope: "green" shares no token with "Green".
        assert rows[1]["scores"]["bleu-1"] == 0.0
        assert report(final)[("bleu-1", "example_vqa")] == (2, 0.5)

    def test_limit_fraction_and_bad_requests(self, api: Api) -> None:
        client = api.tenant_client()
        dataset_id = vqa_dataset(client)
        body = {"dataset_id": dataset_id, "predictions": [], "limit": 0.5}
        response = client.post("/v1/runs", json=body)
        # int(5 * 0.5) + int(2 * 0.5) samples are selected, each needs a prediction.
        assert response.status_code == 422
        missing = [e for e in response.json()["errors"] if e["type"] == "missing"]
        assert len(missing) == 3
        bad = client.post("/v1/runs", json={"dataset_id": dataset_id})
        assert bad.status_code == 422 and "exactly one" in bad.text
        bad = client.post(
            "/v1/runs", json={"dataset_id": dataset_id, "model_id": "model_x", "subsets": ["zz"]}
        )
        locs = {e["loc"] for e in bad.json()["errors"]}
        assert locs == {"model_id", "subsets[0]"}
        bad = client.post(
            "/v1/runs",
            json={
                "dataset_id": dataset_id,
                "subsets": ["example_vqa"],
                "limit": 1,
                "predictions": [
                    {"index": 0, "prediction": "x"},
                    {"index": 3, "prediction": "y"},
                ],
            },
        )
        assert [e["loc"] for e in bad.json()["errors"]] == ["predictions[1]"]
        assert (
            client.post("/v1/runs", json={"dataset_id": "ds_nope", "predictions": []}).status_code
            == 422
        )

    def test_llm_judge_sees_images_and_parse_failures_are_errors(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        def responder(request: dict) -> Reply | dict:
            if request["model"] == CANDIDATE:
                return vqa_candidate(request)
            assert task_of(request) == "llm_accuracy"
            if "What is the background colour" in user_text(request):
                return Reply(content="no JSON here at all")
            verdict = "B" if "I do not know" in user_text(request) else "A"
            return {"reasoning": f"graded {verdict}", "verdict": verdict}

        judge.script(responder)
        client = api.tenant_client()
        dataset_id = vqa_dataset(client)
        model_id = register_model(client, judge.base_url)
        run = start(
            client,
            {
                "dataset_id": dataset_id,
                "model_id": model_id,
                "subsets": ["example_vqa"],
                "judge": {"strategy": "llm", "model": "judge-large"},
            },
        )
        final = wait_run(api, client, run["id"])
        assert final["status"] == "completed"
        judged = [r for r in judge.requests if task_of(r) == "llm_accuracy"]
        assert {r["model"] for r in judged} == {"judge-large"}
        # The judge sees the question's images (EvalScope's judge is text-only).
        shape = next(r for r in judged if "What shape is drawn" in user_text(r))
        assert len(image_parts(shape)) == 1
        rows = {row["row_index"]: row for row in samples(client, run["id"])}
        assert rows[0]["verdict"] == "A" and rows[0]["reasoning"] == "graded A"
        assert rows[0]["scores"]["acc"] == 1.0
        # Broken JSON twice: an error, not a zero; the rule scores are still there.
        assert "acc" not in rows[1]["scores"] and "bleu-1" in rows[1]["scores"]
        assert rows[1]["errors"][0]["type"] == "invalid_json"
        table = report(final)
        assert table[("acc", "example_vqa")] == (4, 1.0)
        assert table[("bleu-1", "example_vqa")][0] == 5
        assert final["result_counts"]["errored"] == 1

    def test_llm_recall_asks_the_judge_only_below_the_cutoff(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(lambda request: {"reasoning": "no", "verdict": "B"})
        client = api.tenant_client()
        dataset_id = vqa_dataset(client)
        predictions = [
            {"subset": "example_vqa", "index": 0, "prediction": "It is A circle"},
            {"subset": "example_vqa", "index": 1, "prediction": "Blue"},
        ]
        run = start(
            client,
            {
                "dataset_id": dataset_id,
                "predictions": predictions,
                "subsets": ["example_vqa"],
                "limit": 2,
                "judge": {"strategy": "llm_recall"},
            },
        )
        final = wait_run(api, client, run["id"])
        assert len(judge.requests) == 1
        assert report(final)[("acc", "example_vqa")] == (2, 0.5)


class TestCandidateFaults:
    def test_a_failing_candidate_is_an_error_per_sample(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        def responder(request: dict) -> Reply:
            if "background colour" in user_text(request):
                return Reply(status=500)
            return vqa_candidate(request)  # type: ignore[return-value]

        judge.script(responder)
        client = api.tenant_client()
        dataset_id = vqa_dataset(client)
        model_id = register_model(client, judge.base_url)
        run = start(
            client, {"dataset_id": dataset_id, "model_id": model_id, "subsets": ["example_vqa"]}
        )
        final = wait_run(api, client, run["id"])
        assert final["status"] == "completed"
        rows = {row["row_index"]: row for row in samples(client, run["id"])}
        assert rows[1]["prediction"] is None
        assert rows[1]["errors"][0]["type"] == "candidate_unavailable"
        assert rows[0]["errors"] == [] and rows[0]["prediction"] == "A white circle"
        assert report(final)[("bleu-1", "example_vqa")][0] == 4
        failing = [r for r in judge.requests if "background colour" in user_text(r)]
        assert len(failing) == api.settings.candidate_max_attempts


class TestVmcqRuns:
    def test_candidate_answers_are_extracted_and_scored(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        answers = {
            "colour of the background": "The background is red.\nANSWER: B",
            "shows a triangle": "Looking at the options...\nAnswer: b",
            "Do both images": "Both have shapes.\nANSWER: A",
            "How many white shapes": "I cannot tell.",
        }

        def responder(request: dict) -> Reply:
            text = user_text(request)
            return Reply(content=next(a for q, a in answers.items() if q in text))

        judge.script(responder)
        client = api.tenant_client()
        response = upload(
            client, "vmcq.zip", example_zip("vmcq/example_vmcq.jsonl"), "general_vmcq"
        )
        assert response.status_code == 201, response.text
        model_id = register_model(client, judge.base_url)
        run = start(client, {"dataset_id": response.json()["id"], "model_id": model_id})
        final = wait_run(api, client, run["id"])
        assert final["status"] == "completed"
        rows = {row["row_index"]: row for row in samples(client, run["id"])}
        assert [rows[i]["extracted_answer"] for i in range(4)] == ["B", "B", "A", ""]
        assert [rows[i]["scores"]["accuracy"] for i in range(4)] == [1.0, 1.0, 0.0, 0.0]
        assert report(final)[("accuracy", "example_vmcq")] == (4, 0.5)
        # The prompt: options labelled A) .., image options in place, the ANSWER line asked for.
        triangle = next(r for r in judge.requests if "shows a triangle" in user_text(r))
        parts = triangle["messages"][0]["content"]
        assert sum(p["type"] == "image_url" for p in parts) == 4
        assert "ANSWER" in user_text(triangle) and "A) " in user_text(triangle)
        three = next(r for r in judge.requests if "How many white" in user_text(r))
        assert "D) " not in user_text(three)


class TestExportsAndLifecycle:
    def test_exports_cancel_and_tenants(self, api: Api, judge: ScriptedJudge) -> None:
        client = api.tenant_client()
        dataset_id = vqa_dataset(client)
        predictions = [
            {"subset": "example_vqa_tsv", "index": i, "prediction": p}
            for i, p in enumerate(["A circle", "The first image, with a square"])
        ]
        run = start(
            client,
            {"dataset_id": dataset_id, "predictions": predictions, "subsets": ["example_vqa_tsv"]},
        )
        wait_run(api, client, run["id"])
        jsonl = client.get(f"/v1/runs/{run['id']}/samples/export")
        assert jsonl.status_code == 200
        lines = [json.loads(line) for line in jsonl.text.splitlines()]
        assert [line["prediction"] for line in lines] == ["A circle", predictions[1]["prediction"]]
        exported = client.get(f"/v1/runs/{run['id']}/samples/export", params={"format": "csv"})
        assert exported.headers["content-type"].startswith("text/csv")
        table = list(csv.DictReader(io.StringIO(exported.text)))
        assert len(table) == 2 and float(table[0]["bleu-1"]) == lines[0]["scores"]["bleu-1"]
        assert "Rouge-L-R" in table[0]

        page = client.get(f"/v1/runs/{run['id']}/samples", params={"limit": 1}).json()
        assert page["has_more"] and page["data"][0]["index"] == 0
        rest = client.get(f"/v1/runs/{run['id']}/samples", params={"after": page["last_id"]}).json()
        assert [s["index"] for s in rest["data"]] == [1] and not rest["has_more"]
        assert client.post(f"/v1/runs/{run['id']}/cancel").status_code == 409

        other = api.tenant_client()
        assert other.get(f"/v1/runs/{run['id']}").status_code == 404
        assert other.get(f"/v1/runs/{run['id']}/samples").status_code == 404
        # A run is not an evaluation in the evaluations API.
        assert client.get(f"/v1/evaluations/{run['id']}").status_code == 404
        assert run["id"] in [r["id"] for r in client.get("/v1/runs").json()["data"]]
        assert client.get("/v1/evaluations").json()["data"] == []
