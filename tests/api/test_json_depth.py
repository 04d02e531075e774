"""JSON nested past 64 levels is refused naming the first value too deep: in any request body
(422, or 400 on the OpenAI routes) and in an uploaded JSONL file (400), never a 500."""

from typing import Any

import openai
import pytest

from app.api.nesting import MAX_DEPTH
from tests.fixtures.api import Api
from tests.fixtures.openai_client import client  # noqa: F401

DEEP = 1000


def nested(depth: int) -> Any:
    """`depth` levels of arrays: [[[...]]]."""
    value: Any = []
    for _ in range(depth - 1):
        value = [value]
    return value


def deep_body(depth: int = DEEP) -> bytes:
    # Built as text: json.dumps itself recurses once per level.
    return b'{"metadata": {"x": ' + b"[" * depth + b"]" * depth + b"}}"


def pointer_past_limit(*prefix: str | int) -> str:
    """The pointer to the first array past the limit down `prefix` then first items: the
    container at level n (the body's own object is level 1) has n - 1 steps."""
    zeros = MAX_DEPTH - len(prefix)
    return "/" + "/".join([*(str(step) for step in prefix), *["0"] * zeros])


def json_operations(api: Api) -> list[tuple[str, str]]:
    spec = api.client().get("/openapi.json").json()
    operations = []
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            content = (operation.get("requestBody") or {}).get("content", {})
            if "application/json" in content:
                operations.append((method.upper(), path))
    return operations


class TestRequestBodies:
    def test_every_json_body_route_refuses_deep_nesting_naming_the_field(self, api: Api) -> None:
        http = api.tenant_client()
        operations = json_operations(api)
        assert ("POST", "/v1/evaluations") in operations and ("POST", "/v1/evals") in operations
        for method, path in operations:
            url = path.replace("{", "").replace("}", "")  # any id: the body is refused first
            response = http.request(
                method, url, content=deep_body(), headers={"content-type": "application/json"}
            )
            openai_route = path.startswith(("/v1/evals", "/v1/files"))
            assert response.status_code == (400 if openai_route else 422), (method, path)
            assert response.headers["content-type"] == "application/problem+json"
            problem = response.json()
            assert len(problem["errors"]) == 1, (method, path)
            error = problem["errors"][0]
            assert error["pointer"] == pointer_past_limit("metadata", "x"), (method, path)
            assert error["type"] == "json_too_deep"
            assert problem["type"] == "https://loupe.dev/problems/json-too-deep"
            assert f"deeper than {MAX_DEPTH} levels" in error["msg"]
            assert problem["detail"].startswith("metadata.x[0][0]")

    def test_a_test_case_metadata_a_thousand_deep_is_a_422(self, api: Api) -> None:
        http = api.tenant_client()
        case = (
            b'{"input": "q", "actual_output": "a", "expected_output": "a", "metadata": {"x": '
            + b"[" * DEEP
            + b"]" * DEEP
            + b"}}"
        )
        body = b'{"metrics": [{"type": "exact_match"}], "test_cases": [' + case + b"]}"
        response = http.post(
            "/v1/evaluations", content=body, headers={"content-type": "application/json"}
        )
        assert response.status_code == 422
        error = response.json()["errors"][0]
        assert error["pointer"] == pointer_past_limit("test_cases", 0, "metadata", "x")
        assert error["loc"].startswith("test_cases[0].metadata.x[0]")

    def test_nesting_up_to_the_limit_is_accepted(self, api: Api) -> None:
        http = api.tenant_client()
        # The body's object, test_cases, the case and metadata take 4 levels; x takes the rest.
        case = {
            "input": "q",
            "actual_output": "a",
            "expected_output": "a",
            "metadata": {"x": nested(MAX_DEPTH - 4)},
        }
        created = http.post(
            "/v1/evaluations", json={"metrics": [{"type": "exact_match"}], "test_cases": [case]}
        )
        assert created.status_code == 202, created.text
        case["metadata"] = {"x": nested(MAX_DEPTH - 3)}
        refused = http.post(
            "/v1/evaluations", json={"metrics": [{"type": "exact_match"}], "test_cases": [case]}
        )
        assert refused.status_code == 422

    def test_the_openai_client_gets_a_bad_request_naming_the_param(
        self,
        client: openai.OpenAI,  # noqa: F811
    ) -> None:
        with pytest.raises(openai.BadRequestError) as refused:
            client.evals.create(
                data_source_config={"type": "custom", "item_schema": {"type": "object"}},
                testing_criteria=[],
                # Deep enough to refuse, shallow enough for the client's json.dumps.
                metadata={"x": nested(200)},  # type: ignore[dict-item]
            )
        assert refused.value.code == "json_too_deep"
        assert refused.value.param is not None
        assert refused.value.param.startswith("metadata.x[0][0]")


class TestUploadedFiles:
    def test_a_jsonl_line_nested_too_deep_is_a_400_naming_the_line(
        self,
        client: openai.OpenAI,  # noqa: F811
    ) -> None:
        content = b'{"item": {"q": "fine"}}\n{"item": {"x": ' + b"[" * DEEP + b"]" * DEEP + b"}}\n"
        with pytest.raises(openai.BadRequestError) as refused:
            client.files.create(file=("deep.jsonl", content), purpose="evals")  # type: ignore[arg-type]
        assert refused.value.param == "file.line[2]"  # the line at fault, as /v1/files names it
        assert refused.value.code == "json_too_deep"
        assert (
            "line 2" in refused.value.message
            and f"deeper than {MAX_DEPTH}" in refused.value.message
        )

    @pytest.mark.parametrize(
        ("dataset_format", "line", "where"),
        [
            ("general_vqa", b'{"messages": [], "x": ' + b"[" * DEEP + b"]" * DEEP + b"}", ""),
            # JSON held in a string field (as TSV/CSV cells hold it) is parsed with the limit too.
            ("general_vqa", b'{"messages": "' + b"[" * DEEP + b"]" * DEEP + b'"}', ":messages"),
            (
                "general_vmcq",
                b'{"question": "q", "answer": "A", "options": "'
                + b"[" * DEEP
                + b"]" * DEEP
                + b'"}',
                ":options",
            ),
        ],
    )
    def test_a_dataset_line_nested_too_deep_is_a_422_naming_it(
        self, api: Api, dataset_format: str, line: bytes, where: str
    ) -> None:
        response = api.tenant_client().post(
            "/v1/datasets",
            files={"file": ("deep.jsonl", line + b"\n")},
            data={"format": dataset_format},
        )
        assert response.status_code == 422, response.text
        problem = response.json()
        assert problem["errors"][0]["loc"] == f"deep.jsonl:1{where}"
        assert f"deeper than {MAX_DEPTH} levels" in problem["detail"]
