"""Every problem of a submission in one 422 (issue 24, item 7): the schema's, a metric's needs,
images that do not decode and the operator's caps, each naming its field; and no message keeps
pydantic's `Value error, ` prefix."""

from pathlib import Path
from typing import Any

from tests.evals.helpers import CRITERIA, ITEM_SCHEMA
from tests.evaluations.test_endpoints import problem
from tests.fixtures.api import Api, side_app
from tests.media.loopback import LoopbackServer, Route, data_url, png

NOT_A_PNG = data_url(b"this is not a png at all, only words")
FAITHFULNESS = {"type": "faithfulness", "name": "faithful"}
G_EVAL_WITHOUT_NAME = {
    "type": "g_eval",
    "criteria": "Does the answer describe the picture?",
    "evaluation_params": ["input", "actual_output"],
}


def image(url: str) -> dict[str, Any]:
    return {"type": "image_url", "image_url": {"url": url}}


def case(**fields: Any) -> dict[str, Any]:
    return {"input": "What is shown?", "actual_output": "a red square", **fields}


def by_loc(found: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {error["loc"]: error for error in found["errors"]}


def assert_no_prefix(found: dict[str, Any]) -> None:
    texts = [found["detail"], *(error["msg"] for error in found["errors"])]
    assert not [text for text in texts if "Value error, " in text], texts


class TestTheIssuesRequest:
    def test_three_problems_one_answer(self, api: Api) -> None:
        """A G-Eval without `name`, an undecodable PNG and no `retrieval_context` for
        faithfulness: once, in one 422 naming the three fields."""
        body = {
            "name": "three-problems",
            "test_cases": [case(actual_output=["a red square", image(NOT_A_PNG)])],
            "metrics": [G_EVAL_WITHOUT_NAME, FAITHFULNESS],
        }
        with api.tenant_client() as client:
            found = problem(client.post("/v1/evaluations", json=body), 422)
            listed = client.get("/v1/evaluations", params={"name": "three-problems"})
        assert listed.json()["data"] == []
        errors = by_loc(found)
        assert set(errors) == {
            "metrics[0].name",
            "test_cases[0].actual_output[1].image_url.url",
            "test_cases[0].retrieval_context",
        }, found
        assert errors["metrics[0].name"]["type"] == "missing"
        assert errors["test_cases[0].actual_output[1].image_url.url"]["type"] == "image_type"
        assert errors["test_cases[0].retrieval_context"]["type"] == "missing_for_metric"
        assert errors["test_cases[0].retrieval_context"]["pointer"] == (
            "/test_cases/0/retrieval_context"
        )
        assert found["detail"].startswith("metrics[0].name: ")
        assert_no_prefix(found)

    def test_once_the_schema_is_met_images_and_needs_come_together(self, api: Api) -> None:
        """With the name given, the image and the missing context are still one answer (the
        image used to wait until the metric's needs were met)."""
        body = {
            "test_cases": [case(actual_output=["a red square", image(NOT_A_PNG)])],
            "metrics": [{**G_EVAL_WITHOUT_NAME, "name": "describes"}, FAITHFULNESS],
        }
        with api.tenant_client() as client:
            found = problem(client.post("/v1/evaluations", json=body), 422)
        assert [error["loc"] for error in found["errors"]] == [
            "test_cases[0].retrieval_context",
            "test_cases[0].actual_output[1].image_url.url",
        ]
        assert_no_prefix(found)


class TestEachPartOnItsOwn:
    def test_a_bad_metric_and_a_bad_case_hide_nothing_else(self, api: Api) -> None:
        """The schema fails on metrics[1]; test_cases[0]'s fields the other metrics need (it
        has only `input`), test_cases[1]'s image, its missing context for metrics[0] and
        metrics[2]'s duplicate name are still found."""
        body = {
            "test_cases": [
                {"input": "no output"},
                case(input=["look", image(NOT_A_PNG)], expected_output="a red square"),
            ],
            "metrics": [
                FAITHFULNESS,
                {"type": "no_such_metric"},
                {"type": "exact_match", "name": "faithful"},
            ],
        }
        with api.tenant_client() as client:
            found = problem(client.post("/v1/evaluations", json=body), 422)
        assert set(by_loc(found)) == {
            "test_cases[0].actual_output",
            "test_cases[0].retrieval_context",
            "test_cases[0].expected_output",
            "metrics[1].type",
            "metrics[2].name",
            "test_cases[1].retrieval_context",
            "test_cases[1].input[1].image_url.url",
        }, found
        assert_no_prefix(found)

    def test_a_case_the_schema_refuses_still_has_its_needs_checked(self, api: Api) -> None:
        """test_cases[1]'s output is a number (the schema's error) and it has no retrieval
        context, which faithfulness needs: the second error came only after the first was
        fixed. Case 2's output is refused too, so what it lacks there is the schema's alone."""
        body = {
            "test_cases": [
                case(retrieval_context=["c"]),
                {"input": "z", "actual_output": 3},
                {"input": "y", "actual_output": {"not": "text"}, "retrieval_context": ["c"]},
            ],
            "metrics": [FAITHFULNESS, {"type": "exact_match"}],
        }
        with api.tenant_client() as client:
            found = problem(client.post("/v1/evaluations", json=body), 422)
        errors = by_loc(found)
        assert set(errors) == {
            "test_cases[1].actual_output",
            "test_cases[1].retrieval_context",
            "test_cases[1].expected_output",
            "test_cases[2].actual_output",
            "test_cases[0].expected_output",
            "test_cases[2].expected_output",
        }, found
        assert errors["test_cases[1].retrieval_context"]["type"] == "missing_for_metric"
        assert errors["test_cases[1].actual_output"]["type"] != "missing_for_metric"

    def test_a_case_the_schema_refuses_still_has_its_images_checked(self, api: Api) -> None:
        """Case 0's output is a number and its input's image does not decode: both in one
        answer (the image was named only once the output was fixed)."""
        body = {
            "test_cases": [
                {"input": ["look", image(NOT_A_PNG)], "actual_output": 3},
                {"input": ["look", image(NOT_A_PNG)], "actual_output": "ok"},
            ],
            "metrics": [{"type": "exact_match"}],
        }
        with api.tenant_client() as client:
            found = problem(client.post("/v1/evaluations", json=body), 422)
        errors = by_loc(found)
        assert set(errors) == {
            "test_cases[0].actual_output",
            "test_cases[0].input[1].image_url.url",
            "test_cases[0].expected_output",
            "test_cases[1].input[1].image_url.url",
            "test_cases[1].expected_output",
        }, found
        assert errors["test_cases[0].input[1].image_url.url"]["type"] == "image_type"

    def test_a_conversation_with_a_refused_turn_still_has_its_shape_checked(self, api: Api) -> None:
        """Turn 0's role and name are the schema's errors; turn 1 (a user turn) carries a
        retrieval context, the case lacks the chatbot role its metric needs, and case 1 (its
        output refused) mixes in a conversation's field: all named with the schema's."""
        body = {
            "test_cases": [
                {
                    "turns": [
                        {"role": "robot", "content": "Hi", "tools_called": [{"name": ""}]},
                        {"role": "user", "content": "hi", "retrieval_context": ["x"]},
                        "not a turn",
                    ]
                },
                {"input": "q", "actual_output": 3, "chatbot_role": "a pirate"},
            ],
            "metrics": [{"type": "role_adherence"}],
        }
        with api.tenant_client() as client:
            found = problem(client.post("/v1/evaluations", json=body), 422)
        errors = by_loc(found)
        assert set(errors) == {
            "test_cases[0].turns[0].role",
            "test_cases[0].turns[0].tools_called[0].name",
            "test_cases[0].turns[2]",
            "test_cases[0].turns[1].retrieval_context",
            "test_cases[0].chatbot_role",
            "test_cases[1].actual_output",
            "test_cases[1].chatbot_role",
            "test_cases[1].turns",
        }, found
        assert errors["test_cases[0].turns[1].retrieval_context"]["type"] == "user_turn_field"
        assert errors["test_cases[0].chatbot_role"]["type"] == "missing_for_metric"
        assert errors["test_cases[1].chatbot_role"]["type"] == "conversation_field"
        assert errors["test_cases[1].turns"]["type"] == "wrong_shape_for_metric"

    def test_a_refused_case_is_still_checked_by_each_metric(self, api: Api) -> None:
        """A typo'd field is the schema's error; the case's lack of a scenario (which
        conversational_g_eval's params name) and of any turn with a retrieval context (which
        turn_faithfulness judges) came in a second 422, only once the typo was fixed."""
        turns = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "yo"}]
        body = {
            "test_cases": [{"id": "a", "turns": turns, "chatbotrole": "x"}],
            "metrics": [
                {
                    "type": "conversational_g_eval",
                    "name": "flow",
                    "criteria": "Does it flow?",
                    "evaluation_params": ["content", "scenario"],
                },
                {"type": "turn_faithfulness"},
                {"type": "role_adherence"},
            ],
        }
        with api.tenant_client() as client:
            found = problem(client.post("/v1/evaluations", json=body), 422)
        errors = by_loc(found)
        assert set(errors) == {
            "test_cases[0].chatbotrole",
            "test_cases[0].chatbot_role",
            "test_cases[0].scenario",
            "test_cases[0].turns",
        }, found
        assert errors["test_cases[0].scenario"]["type"] == "unfit_for_metric"
        assert errors["test_cases[0].turns"]["type"] == "unfit_for_metric"

    def test_a_g_eval_without_criteria_says_so_beside_its_other_faults(self, api: Api) -> None:
        """Neither `criteria` nor `evaluation_steps`, and a name of the wrong type: both in the
        one answer (the missing criteria used to wait until the name was mended)."""
        body = {
            "test_cases": [case()],
            "metrics": [
                {"type": "g_eval", "name": 7, "evaluation_params": ["input", "actual_output"]},
                {"type": "conversational_g_eval", "name": "chat", "threshold": "high"},
            ],
        }
        with api.tenant_client() as client:
            found = problem(client.post("/v1/evaluations", json=body), 422)
        errors = {(e["loc"], e["msg"]) for e in found["errors"]}
        assert ("metrics[0]", "give `criteria` or `evaluation_steps`") in errors, found
        assert ("metrics[1]", "give `criteria` or `evaluation_steps`") in errors, found
        assert {loc for loc, _ in errors} >= {"metrics[0].name", "metrics[1].threshold"}, found
        assert_no_prefix(found)

    def test_validator_messages_read_as_written(self, api: Api) -> None:
        body = {
            "test_cases": [case(input=["look", image("file:///etc/passwd")])],
            "metrics": [{"type": "exact_match"}],
            "judge": {},
        }
        with api.tenant_client() as client:
            found = problem(client.post("/v1/evaluations", json=body), 422)
        assert {(e["loc"], e["msg"]) for e in found["errors"]} == {
            (
                "test_cases[0].input[1].image_url.url",
                "must be a data:image/...;base64 URL, an http(s) URL or a blob:sha256: reference",
            ),
            ("judge", "give model, model_id or both"),
            # The case's image is refused, its other fields still checked against the metric.
            (
                "test_cases[0].expected_output",
                "metric 'exact_match' (metrics[0]) needs expected_output",
            ),
        }
        assert_no_prefix(found)

    def test_an_unregistered_judge_model_is_named_with_the_schemas_errors(self, api: Api) -> None:
        body = {
            "test_cases": [case(), {"actual_output": "no input"}],
            "metrics": [{**FAITHFULNESS, "judge": {"model_id": "model_unknown"}}],
            "webhook_url": "http://127.0.0.1:9/never-registered",
        }
        with api.tenant_client() as client:
            found = problem(client.post("/v1/evaluations", json=body), 422)
        # The case without input is still read (a case may be a conversation instead), so
        # what else it lacks for the metric is named in the same answer, each field once.
        assert [error["loc"] for error in found["errors"]].count("test_cases[1].input") == 1
        assert set(by_loc(found)) == {
            "test_cases[1].input",
            "test_cases[1].retrieval_context",
            "test_cases[0].retrieval_context",
            "metrics[0].judge.model_id",
            "webhook_url",
        }, found


class TestCapsBeforeImages:
    def test_past_a_cap_the_cheap_checks_answer_and_no_image_is_read(self, tmp_path: Path) -> None:
        """Past LOUPE_MAX_TEST_CASES the request is not worth fetching and decoding: the cap,
        the schema's errors and the metric's needs come in one answer, and no image is read."""
        with LoopbackServer() as images, side_app(tmp_path, max_test_cases=2) as app:
            images.routes["/a.png"] = Route(body=png())
            body = {
                "test_cases": [
                    case(input=["look", image(images.url("/a.png"))]),
                    case(),
                    {"input": "no output"},
                ],
                "metrics": [FAITHFULNESS],
            }
            with app.tenant_client() as client:
                found = problem(client.post("/v1/evaluations", json=body), 422)
            assert images.hits == []
        assert set(by_loc(found)) == {
            "test_cases",
            "test_cases[2].actual_output",
            "test_cases[0].retrieval_context",
            "test_cases[1].retrieval_context",
            "test_cases[2].retrieval_context",
        }, found
        assert "LOUPE_MAX_TEST_CASES" in by_loc(found)["test_cases"]["msg"]

    def test_a_metric_cap_without_schema_errors(self, tmp_path: Path) -> None:
        """Without schema errors too: the cap answers with the other cheap checks."""
        with LoopbackServer() as images, side_app(tmp_path, max_metrics=2) as app:
            images.routes["/a.png"] = Route(body=png())
            body = {
                "test_cases": [
                    case(input=["look", image(images.url("/a.png"))], expected_output="red")
                ],
                "metrics": [{"type": "exact_match", "name": f"m{i}"} for i in range(2)]
                + [FAITHFULNESS],
            }
            with app.tenant_client() as client:
                found = problem(client.post("/v1/evaluations", json=body), 422)
            assert images.hits == []
        assert [error["loc"] for error in found["errors"]] == [
            "metrics",
            "test_cases[0].retrieval_context",
        ]


class TestUrlPolicyWithTheSchema:
    """The address policy's refusal of a URL comes with the schema's errors of the same body
    (it used to wait until the schema was met)."""

    def test_a_model_without_a_name_at_a_refused_address(self, tmp_path: Path) -> None:
        with side_app(tmp_path, allow_private_urls=False) as app, app.tenant_client() as client:
            found = problem(
                client.post("/v1/models", json={"base_url": "http://127.0.0.1:9/v1"}), 422
            )
        assert {(e["loc"], e["type"]) for e in found["errors"]} == {
            ("model", "missing"),
            ("base_url", "url_blocked"),
        }

    def test_a_webhook_with_a_long_description_at_a_refused_address(self, tmp_path: Path) -> None:
        body = {"url": "http://127.0.0.1:9/hook", "description": "d" * 600}
        with side_app(tmp_path, allow_private_urls=False) as app, app.tenant_client() as client:
            found = problem(client.post("/v1/webhook_endpoints", json=body), 422)
        assert {(e["loc"], e["type"]) for e in found["errors"]} == {
            ("description", "string_too_long"),
            ("url", "url_blocked"),
        }

    def test_a_url_the_schema_refuses_is_named_once(self, tmp_path: Path) -> None:
        body = {"url": "ftp://127.0.0.1/hook", "description": "d" * 600}
        with side_app(tmp_path, allow_private_urls=False) as app, app.tenant_client() as client:
            found = problem(client.post("/v1/webhook_endpoints", json=body), 422)
        assert sorted(e["loc"] for e in found["errors"]) == ["description", "url"]
        assert_no_prefix(found)


class TestOpenAIEvals:
    """The OpenAI-compatible routes answer 400 (as OpenAI does), naming every field in
    errors[] (the SDK's `param` is the first)."""

    def test_a_name_too_long_hides_no_criterion_or_schema_problem(self, api: Api) -> None:
        # The name's error was the only one: criteria are checked past the schema stage.
        body = {
            "name": "n" * 300,
            "data_source_config": {"type": "custom", "item_schema": {"type": "nonsense"}},
            "testing_criteria": [{**CRITERIA[0], "operation": "contains"}],
        }
        with api.tenant_client() as client:
            found = problem(client.post("/v1/evals", json=body), 400)
            assert client.get("/v1/evals").json()["data"] == []
        named = [error["loc"] for error in found["errors"]]
        assert named[0] == "name", named
        assert any(loc.startswith("data_source_config.item_schema") for loc in named), named
        assert any(loc.startswith("testing_criteria[0].") for loc in named), named

    def test_every_bad_criterion_is_named(self, api: Api) -> None:
        body = {
            "data_source_config": {"type": "custom", "item_schema": ITEM_SCHEMA},
            "testing_criteria": [
                {"type": "python", "name": "p", "source": "def grade(s, i): 1"},
                {**CRITERIA[0], "operation": "contains"},
                {**CRITERIA[0], "name": ""},
            ],
        }
        with api.tenant_client() as client:
            found = problem(client.post("/v1/evals", json=body), 400)
        named = [error["loc"] for error in found["errors"]]
        assert named[0] == "testing_criteria[0].type" == found["error"]["param"]
        assert named[1].startswith("testing_criteria[1].")
        assert named[2] == "testing_criteria[2].name"
        assert_no_prefix(found)

    def test_a_run_names_its_rows_model_and_webhook_at_once(self, api: Api) -> None:
        with api.tenant_client() as client:
            created = client.post(
                "/v1/evals",
                json={
                    "data_source_config": {"type": "custom", "item_schema": ITEM_SCHEMA},
                    "testing_criteria": CRITERIA[:1],
                },
            )
            assert created.status_code == 201, created.text
            run = {
                "data_source": {
                    "type": "completions",
                    "source": {"type": "file_content", "content": [{"item": {"question": 1}}]},
                },
                "webhook_url": "http://127.0.0.1:9/never-registered",
            }
            found = problem(client.post(f"/v1/evals/{created.json()['id']}/runs", json=run), 400)
        named = [error["loc"] for error in found["errors"]]
        assert named[0].startswith("data_source.source.content[0].item"), named
        assert {"data_source.model", "data_source.input_messages", "webhook_url"} <= set(named)


class TestDatasetUpload:
    def test_an_empty_upload_is_named_with_a_bad_format(self, api: Api) -> None:
        with api.tenant_client() as client:
            response = client.post(
                "/v1/datasets", files={"file": ("rows.jsonl", b"")}, data={"format": "nonsense"}
            )
        found = problem(response, 422)
        assert sorted(error["loc"] for error in found["errors"]) == ["file", "format"]


class TestComparison:
    def test_both_unknown_sides_are_named(self, api: Api) -> None:
        body = {"baseline_id": "eval_unknown_a", "candidate_id": "eval_unknown_b"}
        with api.tenant_client() as client:
            found = problem(client.post("/v1/comparisons", json=body), 404)
        assert [error["loc"] for error in found["errors"]] == ["baseline_id", "candidate_id"]
