"""Runs through the HTTP API: a loopback candidate model over the EvalScope examples, scored
with EvalScope's rules or an LLM judge, reported per subset, paged and exported."""

import base64
import csv
import io
import json
import uuid
from pathlib import Path

import pytest
from sqlalchemy import delete

from app.metrics._text_scores import text_scores
from app.models import CandidateModel
from tests.fixtures.api import Api, side_app
from tests.fixtures.judge import Reply, ScriptedJudge, image_parts, task_of
from tests.fixtures.services import RedisServer
from tests.runs.helpers import (
    CANDIDATE,
    EXAMPLES,
    MP3,
    RecordingModel,
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


def png_data_url() -> str:
    png = (EXAMPLES / "vqa" / "images" / "red_circle.png").read_bytes()
    return f"data:image/png;base64,{base64.b64encode(png).decode()}"


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

    def test_a_float_limit_is_a_fraction_and_an_int_a_count(self, api: Api) -> None:
        client = api.tenant_client()
        dataset_id = vqa_dataset(client)

        def missing(limit: object) -> int:
            body = {"dataset_id": dataset_id, "predictions": [], "limit": limit}
            response = client.post("/v1/runs", json=body)
            assert response.status_code == 422, response.text
            return sum(e["type"] == "missing" for e in response.json()["errors"])

        # EvalScope: a float selects int(N * f) rows per subset, so 1.0 is every row; 1 is one.
        assert missing(1.0) == 7
        assert missing(1) == 2
        for bad in (1.5, 0.0, 0, "1", True):
            response = client.post(
                "/v1/runs", json={"dataset_id": dataset_id, "predictions": [], "limit": bad}
            )
            assert response.status_code == 422
            assert {e["loc"].split(".")[0] for e in response.json()["errors"]} == {"limit"}
        predictions = [
            {"subset": subset, "index": index, "prediction": "A circle"}
            for subset, count in (("example_vqa", 5), ("example_vqa_tsv", 2))
            for index in range(count)
        ]
        run = start(client, {"dataset_id": dataset_id, "predictions": predictions, "limit": 1.0})
        assert run["sample_count"] == 7
        assert run["limit"] == 1.0 and isinstance(run["limit"], float)
        final = wait_run(api, client, run["id"])
        assert final["limit"] == 1.0 and isinstance(final["limit"], float)

    def test_the_reference_answer_is_scored_as_written(self, api: Api) -> None:
        client = api.tenant_client()
        row = {"messages": [{"role": "user", "content": "猫在哪里？"}], "answer": " 猫坐在垫子上 "}
        dataset = upload(
            client, "cat.jsonl", json.dumps(row, ensure_ascii=False).encode(), "general_vqa"
        )
        assert dataset.status_code == 201, dataset.text
        prediction = "猫坐在垫子上"
        run = start(
            client,
            {
                "dataset_id": dataset.json()["id"],
                "predictions": [{"index": 0, "prediction": prediction}],
            },
        )
        wait_run(api, client, run["id"])
        (sample,) = samples(client, run["id"])
        assert sample["reference"] == " 猫坐在垫子上 "
        # jieba keeps the spaces as BLEU tokens, as EvalScope scores them: not a perfect match.
        assert sample["scores"] == pytest.approx(text_scores(prediction, " 猫坐在垫子上 "))
        assert sample["scores"]["bleu-1"] < text_scores(prediction, prediction)["bleu-1"] == 1.0

    def test_the_judge_sees_every_turn_and_the_candidate_every_message(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        call = {"id": "c1", "type": "function", "function": {"name": "zoom", "arguments": "{}"}}
        messages = [
            {"role": "system", "content": "Answer briefly."},
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "What colour is this?"},
                    {"type": "image_url", "image_url": {"url": png_data_url()}},
                ],
            },
            {"role": "assistant", "content": None, "tool_calls": [call]},
            {"role": "tool", "tool_call_id": "c1", "content": "zoomed in: red"},
            {"role": "assistant", "content": "It looks red."},
            {"role": "user", "content": "And its shape?"},
        ]

        def responder(request: dict) -> Reply | dict:
            if request["model"] == CANDIDATE:
                return Reply(content="A circle.")
            return {"reasoning": "same shape", "verdict": "A"}

        judge.script(responder)
        client = api.tenant_client()
        row = {"messages": messages, "answer": "A circle"}
        dataset = upload(client, "chat.jsonl", json.dumps(row).encode(), "general_vqa")
        assert dataset.status_code == 201, dataset.text
        model_id = register_model(client, judge.base_url)
        run = start(
            client,
            {
                "dataset_id": dataset.json()["id"],
                "model_id": model_id,
                "judge": {"strategy": "llm"},
            },
        )
        final = wait_run(api, client, run["id"])
        assert final["status"] == "completed"
        (sent,) = [r for r in judge.requests if r["model"] == CANDIDATE]
        assert [m["role"] for m in sent["messages"]] == [m["role"] for m in messages]
        assert (
            sent["messages"][2]["tool_calls"] == [call] and sent["messages"][2]["content"] is None
        )
        assert sent["messages"][3]["tool_call_id"] == "c1"
        assert image_parts(sent) == [png_data_url()]
        (graded,) = [r for r in judge.requests if task_of(r) == "llm_accuracy"]
        text = user_text(graded)
        # Every turn, in order and after its speaker, as in EvalScope's judge transcript.
        turns = [
            "**System**: Answer briefly.",
            "**User**:\nWhat colour is this?",
            "**Assistant**:",
            "**Tool**: zoomed in: red",
            "**Assistant**: It looks red.",
            "**User**: And its shape?",
        ]
        positions = [text.index(turn) for turn in turns]
        assert positions == sorted(positions)
        assert image_parts(graded) == [png_data_url()]
        (sample,) = samples(client, run["id"])
        assert sample["scores"]["acc"] == 1.0

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
        assert rows[1]["errors"][0]["type"] == "judge_malformed"
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


class TestSampleCursor:
    def test_a_cursor_beyond_a_database_integer_is_a_400_naming_after(self, api: Api) -> None:
        client = api.tenant_client()
        run = start(
            client,
            {
                "dataset_id": vqa_dataset(client),
                "subsets": ["example_vqa_tsv"],
                "predictions": [
                    {"subset": "example_vqa_tsv", "index": i, "prediction": "a"} for i in (0, 1)
                ],
            },
        )
        path = f"/v1/runs/{run['id']}/samples"
        largest = client.get(path, params={"after": str(2**31 - 1)})
        assert largest.status_code == 200 and largest.json()["data"] == []
        for after in (str(2**31), str(2**63), "99999999999999999999999", "-1", "²", "1e3"):
            response = client.get(path, params={"after": after})
            assert response.status_code == 400, after
            assert response.headers["content-type"] == "application/problem+json"
            problem = response.json()
            assert problem["type"].endswith("/bad-cursor")
            assert problem["detail"].startswith("after: ")
            assert [error["loc"] for error in problem["errors"]] == ["query.after"]


class TestCsvExport:
    def test_cells_a_spreadsheet_would_run_start_with_a_quote(self, api: Api) -> None:
        client = api.tenant_client()
        row = {"messages": [{"role": "user", "content": "Sum?"}], "answer": "-3"}
        dataset = upload(client, "sum.jsonl", json.dumps(row).encode(), "general_vqa")
        assert dataset.status_code == 201, dataset.text
        prediction = '=HYPERLINK("http://evil.example/","click")'
        run = start(
            client,
            {
                "dataset_id": dataset.json()["id"],
                "predictions": [{"index": 0, "prediction": prediction}],
            },
        )
        wait_run(api, client, run["id"])
        export = f"/v1/runs/{run['id']}/samples/export"
        (cells,) = csv.DictReader(io.StringIO(client.get(export, params={"format": "csv"}).text))
        assert cells["prediction"] == "'" + prediction
        assert cells["reference"] == "'-3"
        assert cells["bleu-1"] == "0.0"  # numbers stay numbers
        (line,) = [json.loads(text) for text in client.get(export).text.splitlines()]
        assert (line["prediction"], line["reference"]) == (prediction, "-3")


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
        assert rows[1]["errors"][0]["type"] == "candidate_server_error"
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

    def test_llm_recall_asks_the_judge_when_the_extracted_answer_is_wrong(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        def responder(request: dict) -> dict:
            assert task_of(request) == "llm_accuracy"
            verdict = "A" if "the third one" in user_text(request) else "B"
            return {"reasoning": f"graded {verdict}", "verdict": verdict}

        judge.script(responder)
        client = api.tenant_client()
        response = upload(
            client, "vmcq.zip", example_zip("vmcq/example_vmcq.jsonl"), "general_vmcq"
        )
        assert response.status_code == 201, response.text
        # The answers are B, B, C, B.
        predictions = [
            # Mentions the reference letter but answers C: ROUGE-L recall of "B" would be 1.
            "Option B is wrong, the background is not blue.\nANSWER: C",
            "The background is red.\nANSWER: B",
            "It is the third one.",  # no label: the rule says wrong, the judge says right
            "Looking again...\nAnswer: b",
        ]
        run = start(
            client,
            {
                "dataset_id": response.json()["id"],
                "predictions": [
                    {"index": i, "prediction": text} for i, text in enumerate(predictions)
                ],
                "judge": {"strategy": "llm_recall", "model": "judge-large"},
            },
        )
        final = wait_run(api, client, run["id"])
        assert final["status"] == "completed"
        # The judge is asked only where the extracted answer is wrong: samples 0 and 2.
        graded = [r for r in judge.requests if task_of(r) == "llm_accuracy"]
        assert len(graded) == 2 and {r["model"] for r in graded} == {"judge-large"}
        prompts = [user_text(r) for r in graded]
        assert sum("Option B is wrong" in text for text in prompts) == 1
        assert sum("It is the third one." in text for text in prompts) == 1
        # The judge gets the question as the candidate did: the options with their labels.
        assert sorted("A) Blue" in text for text in prompts) == [False, True]
        assert sorted("A) Yes" in text for text in prompts) == [False, True]
        rows = {row["row_index"]: row for row in samples(client, run["id"])}
        assert [rows[i]["scores"]["accuracy"] for i in range(4)] == [0.0, 1.0, 0.0, 1.0]
        assert [rows[i]["scores"]["acc"] for i in range(4)] == [0.0, 1.0, 1.0, 1.0]
        assert [rows[i]["verdict"] for i in range(4)] == ["B", None, "A", None]
        table = report(final)
        assert table[("acc", "example_vmcq")] == (4, 0.75)
        assert table[("accuracy", "example_vmcq")] == (4, 0.5)

    def test_llm_judges_every_sample_with_the_raw_prediction(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        # EvalScope's `llm` strategy on multiple choice: the judge grades the whole completion
        # against the answer letter; the extracted answer's accuracy is reported beside it.
        judge.script(lambda request: {"reasoning": "no", "verdict": "B"})
        client = api.tenant_client()
        response = upload(
            client, "vmcq.zip", example_zip("vmcq/example_vmcq.jsonl"), "general_vmcq"
        )
        predictions = [{"index": i, "prediction": f"Thinking {i}.\nANSWER: B"} for i in range(4)]
        run = start(
            client,
            {
                "dataset_id": response.json()["id"],
                "predictions": predictions,
                "judge": {"strategy": "llm"},
            },
        )
        final = wait_run(api, client, run["id"])
        graded = [user_text(r) for r in judge.requests if task_of(r) == "llm_accuracy"]
        assert len(graded) == 4
        for i in range(4):
            (text,) = [t for t in graded if f"Thinking {i}." in t]
            assert "<prediction>\nThinking" in text and "ANSWER: B\n</prediction>" in text
        assert sum("<reference_answer>\nC\n</reference_answer>" in t for t in graded) == 1
        table = report(final)
        assert table[("acc", "example_vmcq")] == (4, 0.0)
        assert table[("accuracy", "example_vmcq")] == (4, 0.75)


class TestVlmevalVqa:
    def test_upload_and_run_end_to_end(self, api: Api, judge: ScriptedJudge) -> None:
        png = (EXAMPLES / "vqa" / "images" / "red_circle.png").read_bytes()
        image = base64.b64encode(png).decode()
        table = (
            "index\tquestion\tanswer\timage\n"
            f"10\tWhat shape is drawn in white?\tA circle\t{image}\n"
            "11\tWhat colour is the background?\tRed\t10\n"
        )
        answers = {"shape": "A white circle", "colour": "It is red"}

        def responder(request: dict) -> Reply:
            text = user_text(request)
            return Reply(content=next(a for key, a in answers.items() if key in text))

        judge.script(responder)
        client = api.tenant_client()
        response = upload(client, "MyVQA.tsv", table.encode(), "vlmeval_vqa")
        assert response.status_code == 201, response.text
        dataset = response.json()
        assert dataset["subsets"] == [
            {"name": "MyVQA", "file": "MyVQA.tsv", "rows": 2, "warnings": []}
        ]
        model_id = register_model(client, judge.base_url)
        run = start(client, {"dataset_id": dataset["id"], "model_id": model_id})
        final = wait_run(api, client, run["id"])
        assert final["status"] == "completed"
        sent = [r for r in judge.requests if r["model"] == CANDIDATE]
        assert len(sent) == 2
        # VLMEvalKit's layout: the image first, then the question; row 11 reuses row 10's image.
        for request in sent:
            kinds = [part["type"] for part in request["messages"][0]["content"]]
            assert kinds == ["image_url", "text"]
        assert image_parts(sent[0]) == image_parts(sent[1])
        rows = {row["row_index"]: row for row in samples(client, run["id"])}
        assert [rows[i]["reference"] for i in range(2)] == ["A circle", "Red"]
        for row in rows.values():
            assert row["scores"] == pytest.approx(text_scores(row["prediction"], row["reference"]))
        table_ = report(final)
        mean = sum(row["scores"]["Rouge-L-R"] for row in rows.values()) / 2
        assert table_[("Rouge-L-R", "MyVQA")] == (2, round(mean, 4))


class TestCandidateAuth:
    def test_the_key_is_sent_as_a_bearer_token_and_mp3_as_raw_base64(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        client = api.tenant_client()
        clip = {"data": f"data:audio/mpeg;base64,{base64.b64encode(MP3).decode()}"}
        row = {
            "messages": [
                {
                    "role": "user",
                    "content": [
                        {"type": "text", "text": "Is this silent?"},
                        {"type": "input_audio", "input_audio": clip},
                    ],
                }
            ],
            "answer": "Yes",
        }
        dataset = upload(client, "mp3.jsonl", json.dumps(row).encode(), "general_vqa")
        assert dataset.status_code == 201, dataset.text
        with RecordingModel() as model:
            model.script(lambda request: Reply(content="Yes"))
            model_id = register_model(client, model.base_url)
            run = start(client, {"dataset_id": dataset.json()["id"], "model_id": model_id})
            final = wait_run(api, client, run["id"])
        assert final["status"] == "completed"
        assert model.authorizations == ["Bearer sk-candidate-secret"]
        (request,) = model.requests
        sent = request["messages"][0]["content"][1]["input_audio"]
        assert sent == {"data": base64.b64encode(MP3).decode(), "format": "mp3"}
        # Rule scoring only: the judge endpoint is never called.
        assert judge.requests == []


class TestCandidateSetupFaults:
    """What the job finds when it starts: every sample stores the error, the run completes,
    and no model is called. The run is created through one app and run by another on the
    same database, as after a restart with changed settings."""

    def prepare(self, directory: Path, judge: ScriptedJudge, **settings) -> tuple[str, str, str]:
        """A tenant key, a two-row dataset and a model registered at the scripted judge."""
        with side_app(directory, **settings) as registrar:
            key = registrar.new_key()
            client = registrar.client(key)
            lines = (EXAMPLES / "vqa" / "example_vqa.jsonl").read_text().splitlines()
            data = "\n".join(lines[1:3]).replace("vqa/images/blue_square.png", png_data_url())
            dataset = upload(client, "two.jsonl", data.encode(), "general_vqa")
            assert dataset.status_code == 201, dataset.text
            model_id = register_model(client, judge.base_url)
        return key, dataset.json()["id"], model_id

    def run_elsewhere(self, directory: Path, key: str, body: dict, **settings) -> tuple[dict, list]:
        with side_app(directory, **settings) as runner:
            client = runner.client(key)
            run = start(client, body)
            final = wait_run(runner, client, run["id"])
            return final, samples(client, run["id"])

    def assert_every_sample_failed(self, final: dict, rows: list, error_type: str) -> None:
        assert final["status"] == "completed"
        assert final["result_counts"]["errored"] == final["result_counts"]["total"] == 2
        # Each key of a metric whose every result errored: an OVERALL row without a score.
        assert final["report"] and all(
            row["num"] == row["n"] == 0 and row["score"] is None and row["subset"] == "OVERALL"
            for row in final["report"]
        )
        assert {row["interval_note"] for row in final["report"]} == {
            "no scored results: every result errored"
        }
        assert [[e["type"] for e in row["errors"]] for row in rows] == [[error_type]] * 2
        assert all(row["prediction"] is None for row in rows)

    def test_base_url_blocked_when_the_job_runs(self, tmp_path: Path, judge: ScriptedJudge) -> None:
        key, dataset_id, model_id = self.prepare(tmp_path, judge)
        final, rows = self.run_elsewhere(
            tmp_path,
            key,
            {"dataset_id": dataset_id, "model_id": model_id},
            allow_private_urls=False,
        )
        self.assert_every_sample_failed(final, rows, "candidate_blocked")
        assert "LOUPE_MODEL_ALLOW" in rows[0]["errors"][0]["message"]
        assert judge.requests == []

    def test_key_stored_under_another_secret(self, tmp_path: Path, judge: ScriptedJudge) -> None:
        key, dataset_id, model_id = self.prepare(tmp_path, judge)
        final, rows = self.run_elsewhere(
            tmp_path,
            key,
            {"dataset_id": dataset_id, "model_id": model_id},
            secret_key="a-rotated-secret-key-of-at-least-32-bytes",
        )
        self.assert_every_sample_failed(final, rows, "candidate_secret")
        assert "LOUPE_SECRET_KEY" in rows[0]["errors"][0]["message"]
        assert judge.requests == []

    def test_model_deleted_before_the_job_ran(
        self, tmp_path: Path, judge: ScriptedJudge, redis_server: RedisServer
    ) -> None:
        # The run is queued on Redis by an app whose jobs nothing takes; its model's row goes
        # (the API keeps a model a queued run calls, 409: a delete racing the submit); an
        # embedded app on the same database then resumes the unfinished run.
        queued = {"redis_url": redis_server.url, "queue_name": f"q_{uuid.uuid4().hex[:10]}"}
        key, dataset_id, model_id = self.prepare(tmp_path, judge)
        with side_app(tmp_path, **queued) as queuer:
            client = queuer.client(key)
            run = start(client, {"dataset_id": dataset_id, "model_id": model_id})
            assert client.delete(f"/v1/models/{model_id}").status_code == 409
            with queuer.served.runtime.session() as session:
                session.execute(delete(CandidateModel).where(CandidateModel.id == model_id))
                session.commit()
            assert client.get(f"/v1/runs/{run['id']}").json()["status"] == "queued"
        with side_app(tmp_path) as resumer:
            client = resumer.client(key)
            final = wait_run(resumer, client, run["id"])
            rows = samples(client, run["id"])
        self.assert_every_sample_failed(final, rows, "candidate_missing")
        assert judge.requests == []


class TestExportsAndLifecycle:
    def test_a_canceled_runs_unscored_samples_say_so(self, api: Api, judge: ScriptedJudge) -> None:
        # They read as never tried ({"prediction": null, "scores": {}, "errors": []}).
        client = api.tenant_client()
        model_id = register_model(client, judge.base_url)
        judge.hold()
        try:
            run = start(client, {"dataset_id": vqa_dataset(client), "model_id": model_id})
            response = client.post(f"/v1/runs/{run['id']}/cancel")
            assert response.status_code == 200, response.text
        finally:
            judge.release()
        api.run_queue()
        rows = samples(client, run["id"])
        assert rows and {row["status"] for row in rows} == {"canceled"}, rows
        counts = client.get(f"/v1/runs/{run['id']}").json()["result_counts"]
        assert counts["canceled"] > 0 and counts["pending"] == 0

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
        assert {line["status"] for line in lines} == {"scored"}
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
