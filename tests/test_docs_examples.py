"""The docs' JSON examples, sent to the API as a reader would copy them: every ```json block of a
request on the docs pages, and the JSON bodies of their `curl -d` examples, with only
placeholders (`evn_…`, `model_...`, `data:image/png;base64,...`, an example host) swapped for
real ids, an image and a loopback receiver. The estimate's example answer is checked against a
real one's fields, the metrics reference's options against what the API takes, and the Python
examples of the API guide (its client) and the OpenAI Evals page (the `openai` client) run. A new
```json block or `curl -d` body on a page fails `test_every_example_is_run` until a test here
runs it."""

import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge, plausible_answer
from tests.sdk.helpers import RED, while_queue_runs

DOCS = Path(__file__).resolve().parents[1] / "docs"
# Pages of record, not instructions: decisions and measurements as they were.
NOT_GUIDES = {"decisions.md", "benchmarks.md"}


def json_blocks(page: str) -> list[str]:
    return re.findall(r"```json\n(.*?)```", (DOCS / page).read_text(), re.S)


def curl_bodies(page: str) -> list[tuple[str, str]]:
    """Each `curl ... -d '<json>'` of the page's bash blocks: (the /v1 path it posts to, body)."""
    found = []
    for block in re.findall(r"```bash\n(.*?)```", (DOCS / page).read_text(), re.S):
        for command in re.split(r"\n(?=\S)", block):
            if "curl" not in command or " -d '" not in command:
                continue
            path = re.search(r"(/v1/[\w/$]+)", command)
            body = re.search(r" -d '(.*?)'", command, re.S)
            assert path and body, command
            found.append((path.group(1), body.group(1)))
    return found


def fragment(text: str) -> dict[str, Any]:
    """A block showing one member of an object (`"judge": {...}`) as that object."""
    return json.loads("{" + text + "}")


GEVAL_CASE = {"input": "What is 2+2?", "actual_output": "4", "expected_output": "4"}


def estimate(client: httpx.Client, cases: list[dict], metrics: list[dict]) -> dict[str, Any]:
    response = client.post(
        "/v1/evaluations/estimate", json={"test_cases": cases, "metrics": metrics}
    )
    assert response.status_code == 200, response.text
    return response.json()


def register_model(client: httpx.Client, api: Api, name: str) -> str:
    # The scripted judge's endpoint (the server's own judge) registered as a tenant's model.
    body = {"base_url": api.settings.judge_base_url, "model": name, "api_key": "sk-example"}
    response = client.post("/v1/models", json=body)
    assert response.status_code == 201, response.text
    return response.json()["id"]


class TestStability:
    def test_the_samples_example_is_a_metric_spec(self, api: Api) -> None:
        spec = json.loads(json_blocks("stability.md")[0])
        answer = estimate(api.tenant_client(), [GEVAL_CASE], [spec])
        assert answer["metrics"][0]["multiplier"] == spec["judge"]["samples"]

    def test_the_panel_example_is_a_judge(self, api: Api) -> None:
        client = api.tenant_client()
        judge = fragment(json_blocks("stability.md")[1])["judge"]
        placeholders = [m for m in judge["panel"] if m.get("model_id") == "model_..."]
        for index, member in enumerate(placeholders):
            member["model_id"] = register_model(client, api, f"panel-{index}")
        spec = {**json.loads(json_blocks("stability.md")[0]), "judge": judge}
        answer = estimate(client, [GEVAL_CASE], [spec])
        assert answer["metrics"][0]["panel"] == len(judge["panel"])

    def test_the_estimate_answer_shows_fields_an_estimate_has(self, api: Api) -> None:
        shown = json.loads(json_blocks("stability.md")[2])
        spec = json.loads(json_blocks("stability.md")[0])
        real = estimate(api.tenant_client(), [GEVAL_CASE], [spec])

        def missing(shown: Any, real: Any, where: str) -> list[str]:
            if isinstance(shown, dict):
                return [
                    name
                    for key, value in shown.items()
                    if key != "..."
                    for name in (
                        missing(value, real[key], f"{where}.{key}")
                        if key in real
                        else [f"{where}.{key}"]
                    )
                ]
            if isinstance(shown, list) and shown and isinstance(real, list) and real:
                return missing(shown[0], real[0], f"{where}[0]")
            return []

        assert missing(shown, real, "estimate") == []


class TestConversations:
    def test_the_conversational_test_case_is_taken(self, api: Api) -> None:
        case = json.loads(json_blocks("conversations.md")[0])
        image = case["turns"][0]["content"][1]["image_url"]
        assert image["url"] == "data:image/png;base64,..."
        image["url"] = RED
        metrics = [{"type": "turn_relevancy"}, {"type": "role_adherence"}]
        estimate(api.tenant_client(), [case], metrics)


class TestOnline:
    def test_the_rules_and_the_alert_are_taken(self, api: Api) -> None:
        client = api.tenant_client()
        rules = []
        for path, body in curl_bodies("online.md"):
            assert path == "/v1/online_rules"
            response = client.post(path, json=json.loads(body))
            assert response.status_code == 201, response.text
            rules.append(response.json())
        alert = fragment(json_blocks("online.md")[0])["alert"]
        assert alert["webhook_url"] == "https://hooks.example.com/loupe"
        alert["webhook_url"] = "http://127.0.0.1:9/loupe"
        endpoint = client.post("/v1/webhook_endpoints", json={"url": alert["webhook_url"]})
        assert endpoint.status_code == 201, endpoint.text
        rule = next(rule for rule in rules if rule["metrics"][0]["type"] == alert["metric"])
        response = client.patch(f"/v1/online_rules/{rule['id']}", json={"alert": alert})
        assert response.status_code == 200, response.text
        export = json.loads(json_blocks("online.md")[1])
        assert export["export_endpoint"] == "https://api.honeycomb.io"
        export["export_endpoint"] = "http://127.0.0.1:9"
        response = client.patch(f"/v1/online_rules/{rule['id']}", json=export)
        assert response.status_code == 200, response.text
        assert response.json()["export_header_names"] == ["x-honeycomb-team"]
        assert "<ingest key>" not in response.text


class TestApiGuide:
    def test_the_batches_example_opens_and_appends(self, api: Api) -> None:
        client = api.tenant_client()
        (create_path, create), (append_path, append) = curl_bodies("api.md")
        assert (create_path, append_path) == ("/v1/evaluations", "/v1/evaluations/$ID/test_cases")
        opened = client.post(create_path, json=json.loads(create))
        assert opened.status_code == 202, opened.text
        path = append_path.replace("$ID", opened.json()["id"])
        appended = client.post(path, json=json.loads(append))
        assert appended.status_code == 202, appended.text
        assert appended.json()["test_case_count"] == 1

    def test_the_python_client_example_runs(
        self, api: Api, judge: ScriptedJudge, capsys: pytest.CaptureFixture[str]
    ) -> None:
        judge.script(plausible_answer)
        page = (DOCS / "api.md").read_text()
        section = page[page.index("## Python client") :]
        source = re.search(r"```python\n(.*?)```", section, re.S).group(1)
        source = source.replace("http://127.0.0.1:8000", api.base_url).replace(
            '"lp_..."', repr(api.new_key())
        )
        while_queue_runs(api, lambda: exec(compile(source, "api.md", "exec"), {}))
        [printed] = capsys.readouterr().out.splitlines()
        assert printed.startswith("correct ")


class TestReview:
    def test_the_queue_example_is_taken(self, api: Api, judge: ScriptedJudge) -> None:
        judge.script(plausible_answer)
        client = api.tenant_client()
        [(path, body)] = curl_bodies("review.md")
        queue = json.loads(body)
        helpfulness = {
            "type": "g_eval",
            "name": queue["metric"],
            "criteria": "Does it help?",
            "evaluation_params": ["input", "actual_output"],
        }
        submitted = client.post(
            "/v1/evaluations", json={"test_cases": [GEVAL_CASE], "metrics": [helpfulness]}
        )
        assert submitted.status_code == 202, submitted.text
        api.wait(client, submitted.json()["id"])
        rule = client.post(
            "/v1/online_rules",
            json={"name": "helpfulness", "sampling": {"rate": 1.0}, "metrics": [helpfulness]},
        )
        assert rule.status_code == 201, rule.text
        assert queue["evaluation_ids"] == ["evn_…"] and queue["online_rule_ids"] == ["rule_…"]
        queue["evaluation_ids"] = [submitted.json()["id"]]
        queue["online_rule_ids"] = [rule.json()["id"]]
        response = client.post(path.replace("$LOUPE", ""), json=queue)
        assert response.status_code == 201, response.text


class TestDatasetsAndRuns:
    def test_the_model_and_run_bodies_are_taken(self, api: Api, tmp_path: Path) -> None:
        client = api.tenant_client()
        (model_path, model), (run_path, run) = curl_bodies("datasets-and-runs.md")
        rows = [
            {"messages": [{"role": "user", "content": f"{i}+{i}?"}], "answer": str(2 * i)}
            for i in range(3)
        ]
        dataset = client.post(
            "/v1/datasets",
            data={"format": "general_vqa"},
            files={"file": ("vqa.jsonl", "".join(json.dumps(row) + "\n" for row in rows))},
        )
        assert dataset.status_code == 201, dataset.text
        registered = json.loads(model)
        # The example's host is the reader's vLLM; the test's is the scripted model on loopback.
        assert registered["base_url"] == "http://vllm:8000/v1"
        registered["base_url"] = api.settings.judge_base_url
        created = client.post(model_path, json=registered)
        assert created.status_code == 201, created.text
        body = json.loads(run)
        assert (body["dataset_id"], body["model_id"]) == ("ds_...", "model_...")
        body |= {"dataset_id": dataset.json()["id"], "model_id": created.json()["id"]}
        # The estimate takes the create's body and checks it the same way, starting nothing.
        assert run_path == "/v1/runs"
        response = client.post("/v1/runs/estimate", json=body)
        assert response.status_code == 200, response.text


class TestOpenAIEvals:
    def test_the_client_example_runs_as_written(
        self, api: Api, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        # The page's example was a sketch (`item_schema: {...}`, an undefined LOUPE_KEY) that
        # a reader coming from OpenAI Evals could not run.
        [source] = re.findall(r"```python\n(.*?)```", (DOCS / "openai-evals.md").read_text(), re.S)
        assert "{...}" not in source and "..." not in source
        monkeypatch.setenv("LOUPE_API_KEY", api.new_key())
        source = source.replace("http://127.0.0.1:8000", api.base_url)
        while_queue_runs(api, lambda: exec(compile(source, "openai-evals.md", "exec"), {}))
        printed = capsys.readouterr().out.splitlines()
        assert printed[0] == "completed 1 of 2 passed"
        assert printed[1].startswith("1 [('exact-") and "not true that" in printed[1]


RUN_BY_TESTS = {
    # page: (```json blocks, curl -d bodies) the tests above run
    "stability.md": (3, 0),
    "conversations.md": (1, 0),
    "online.md": (2, 2),
    "api.md": (0, 2),
    "review.md": (0, 1),
    "datasets-and-runs.md": (0, 2),
}


@pytest.mark.parametrize(
    "page", sorted(p.name for p in DOCS.glob("*.md") if p.name not in NOT_GUIDES)
)
def test_every_example_is_run(page: str) -> None:
    assert (len(json_blocks(page)), len(curl_bodies(page))) == RUN_BY_TESTS.get(page, (0, 0))


# The options the metrics page names for judged metrics, checked against each reference row.
JUDGED_OPTIONS = {"model": "judge-model", "judge": {}, "include_reason": True, "strict_mode": False}
# Values for the fields a minimal spec of a metric gives, where its row lists them.
REQUIRED_VALUES = {
    "name": "m",
    "criteria": "Is it right?",
    "evaluation_params": ["input", "actual_output"],
}
IMAGE = {"type": "image_url", "image_url": {"url": RED}}
SINGLE_TURN = {
    "input": ["What is shown?", IMAGE],
    "actual_output": ["A red square.", IMAGE],
    "expected_output": "A red square.",
    "retrieval_context": ["The square is red."],
}
CONVERSATION = {
    "turns": [
        {"role": "user", "content": "What colour is the square?"},
        {"role": "assistant", "content": "Red.", "retrieval_context": ["The square is red."]},
    ],
    "chatbot_role": "A helpful assistant.",
}


def reference_rows() -> dict[str, dict[str, str]]:
    """The committed metrics reference's rows of metrics, by type: judged and options cells."""
    text = (DOCS / "reference" / "metrics.md").read_text()
    lines = [line for line in text.splitlines() if line.startswith("| `")]
    header = next(line for line in text.splitlines() if line.startswith("| `type`"))
    columns = [cell.strip() for cell in header.strip("|").split(" | ")]
    rows = {}
    for line in lines[1:] if lines[0] == header else lines:
        cells = dict(
            zip(columns, (cell.strip() for cell in line.strip("|").split(" | ")), strict=True)
        )
        if cells["kind"] == "metric":
            rows[cells["`type`"].strip("`")] = cells
    return rows


class TestMetricsReference:
    def test_judged_metrics_take_exactly_the_options_their_row_lists(self, api: Api) -> None:
        client = api.tenant_client()
        wrong = []
        for kind, row in reference_rows().items():
            if row["judged"] != "yes":
                continue
            listed = set(re.findall(r"`(\w+)`", row["options"]))
            spec = {"type": kind}
            # Its required fields, and `criteria` where it takes one (or `evaluation_steps`).
            spec |= {
                name: value
                for name, value in REQUIRED_VALUES.items()
                if f"`{name}` (required)" in row["options"]
                or (name == "criteria" and name in listed)
            }
            case = (
                CONVERSATION
                if kind.startswith(("conversation", "turn_", "knowledge", "role"))
                else SINGLE_TURN
            )
            for option, value in JUDGED_OPTIONS.items():
                response = client.post(
                    "/v1/evaluations/estimate",
                    json={"test_cases": [case], "metrics": [{**spec, option: value}]},
                )
                named = {error["loc"] for error in response.json().get("errors") or []}
                accepted = response.status_code == 200
                refused = f"metrics[0].{option}" in named and response.status_code == 422
                if (option in listed and not accepted) or (option not in listed and not refused):
                    wrong.append((kind, option, response.status_code, sorted(named)))
        assert wrong == []
