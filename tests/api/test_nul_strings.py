"""U+0000 (NUL) is refused wherever a request gives text, naming where it is, never a 500:
PostgreSQL's text and jsonb cannot hold it (SQLite can), so both modes refuse it alike, before
anything is stored. JSON bodies: 422 (400 on the OpenAI routes) naming the value's pointer;
uploaded JSONL and TSV/CSV: the line and field; path, query and form fields: each by name.
A model's output cannot be refused: its NUL is stored as U+FFFD, in both modes."""

import json
import uuid
from typing import Any

import httpx
from sqlalchemy import func, select

from app.db import utcnow
from app.ids import new_id
from app.models import Dataset, EvalFile, Evaluation, JudgeCacheEntry
from app.tenants import repository
from tests.api.test_json_depth import json_operations
from tests.console.helpers import signed_in
from tests.fixtures.api import Api
from tests.fixtures.judge import Reply, ScriptedJudge, plausible_answer, task_of

NUL = "\x00"
CASE = {"input": "q", "actual_output": "a", "expected_output": "a"}
EVAL = {
    "name": "nul",
    "data_source_config": {"type": "custom", "item_schema": {"type": "object"}},
    "testing_criteria": [
        {
            "type": "string_check",
            "name": "exact",
            "operation": "eq",
            "input": "{{ item.a }}",
            "reference": "{{ item.b }}",
        }
    ],
}


def refused(response: httpx.Response, status: int, pointer: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json"
    problem = response.json()
    assert [error["pointer"] for error in problem["errors"]] == [pointer]
    assert problem["errors"][0]["type"] in ("nul_character", "dataset_row", "invalid_value")
    assert "U+0000" in problem["detail"]
    return problem


def stored(api: Api, tenant_name: str) -> tuple[int, int]:
    """The tenant's evaluations (of every kind) and datasets, counted in the database."""
    with api.served.runtime.session() as session:
        tenant = repository.tenant_by_name(session, tenant_name)
        assert tenant is not None
        evaluations = session.scalar(
            select(func.count()).select_from(Evaluation).where(Evaluation.tenant_id == tenant.id)
        )
        datasets = session.scalar(
            select(func.count()).select_from(Dataset).where(Dataset.tenant_id == tenant.id)
        )
        return evaluations or 0, datasets or 0


class TestJsonBodies:
    def test_every_json_body_route_refuses_it_naming_the_pointer(self, api: Api) -> None:
        http = api.tenant_client()
        for method, path in json_operations(api):
            url = path.replace("{", "").replace("}", "")  # any id: the body is refused first
            openai_route = path.startswith(("/v1/evals", "/v1/files"))
            for body, pointer in [
                ({"metadata": {"x": f"a{NUL}b"}}, "/metadata/x"),
                ({"metadata": {f"k{NUL}": 1}}, f"/metadata/k{NUL}"),
            ]:
                response = http.request(method, url, json=body)
                problem = refused(response, 400 if openai_route else 422, pointer)
                assert problem["type"] == "https://loupe.dev/problems/nul-character", (method, path)
                if openai_route:
                    assert problem["error"]["code"] == "nul_character"

    def test_an_evaluation_names_the_test_case_field(self, api: Api) -> None:
        name = f"nul-{uuid.uuid4().hex[:8]}"
        with api.client(api.new_key(name)) as http:
            for case, loc in [
                ({**CASE, "id": f"case{NUL}1"}, "test_cases[1].id"),
                ({**CASE, "input": f"q{NUL}"}, "test_cases[1].input"),
                (
                    {**CASE, "metadata": {"tags": ["ok", f"x{NUL}"]}},
                    "test_cases[1].metadata.tags[1]",
                ),
            ]:
                body = {"metrics": [{"type": "exact_match"}], "test_cases": [CASE, case]}
                pointer = "/" + loc.replace("[", ".").replace("]", "").replace(".", "/")
                problem = refused(http.post("/v1/evaluations", json=body), 422, pointer)
                assert problem["errors"][0]["loc"] == loc
        assert stored(api, name) == (0, 0)

    def test_an_eval_names_the_param(self, api: Api) -> None:
        name = f"nul-{uuid.uuid4().hex[:8]}"
        with api.client(api.new_key(name)) as http:
            problem = refused(
                http.post("/v1/evals", json={**EVAL, "name": f"n{NUL}"}), 400, "/name"
            )
            assert problem["error"]["param"] == "name"
            criterion = {**EVAL["testing_criteria"][0], "reference": f"{NUL}"}
            response = http.post("/v1/evals", json={**EVAL, "testing_criteria": [criterion]})
            refused(response, 400, "/testing_criteria/0/reference")
            assert http.get("/v1/evals").json()["data"] == []
        assert stored(api, name) == (0, 0)

    def test_an_eval_runs_rows_are_refused_naming_the_row(self, api: Api) -> None:
        name = f"nul-{uuid.uuid4().hex[:8]}"
        with api.client(api.new_key(name)) as http:
            created = http.post("/v1/evals", json=EVAL)
            assert created.status_code == 201, created.text
            source = {"type": "file_content", "content": [{"item": {"a": "x", "b": f"y{NUL}"}}]}
            response = http.post(
                f"/v1/evals/{created.json()['id']}/runs",
                json={"data_source": {"type": "jsonl", "source": source}},
            )
            problem = refused(response, 400, "/data_source/source/content/0/item/b")
            assert problem["error"]["param"] == "data_source.source.content[0].item.b"
        assert stored(api, name) == (0, 0)


class TestUploads:
    def test_a_files_line_is_refused_naming_the_line_and_field(self, api: Api) -> None:
        with api.tenant_client() as http:
            content = b'{"item": {"a": "x"}}\n{"item": {"a": "x\\u0000"}}\n'
            response = http.post(
                "/v1/files", files={"file": ("rows.jsonl", content)}, data={"purpose": "evals"}
            )
            problem = refused(response, 400, "/file/line/2/item/a")
            assert problem["error"]["code"] == "nul_character"
            assert "file line 2, item.a: the text holds U+0000" in problem["detail"]
            assert http.get("/v1/files").json()["data"] == []

    def test_a_file_stored_before_is_refused_at_run_naming_its_line(self, api: Api) -> None:
        # A file /v1/files took before it refused NUL, as it is in the database.
        name = f"nul-{uuid.uuid4().hex[:8]}"
        key = api.new_key(name)
        content = b'{"item": {"a": "x", "b": "y"}}\n{"item": {"a": "x", "b": "\\u0000"}}\n'
        file_id = new_id("file")
        with api.served.runtime.session() as session:
            tenant = repository.tenant_by_name(session, name)
            assert tenant is not None
            session.add(
                EvalFile(
                    id=file_id,
                    tenant_id=tenant.id,
                    filename="old.jsonl",
                    purpose="evals",
                    bytes=len(content),
                    content=content,
                    line_count=2,
                    created_at=utcnow(),
                )
            )
            session.commit()
        with api.client(key) as http:
            created = http.post("/v1/evals", json=EVAL).json()
            source = {"type": "file_id", "id": file_id}
            response = http.post(
                f"/v1/evals/{created['id']}/runs",
                json={"data_source": {"type": "jsonl", "source": source}},
            )
            problem = refused(response, 400, "/data_source/source/id/line/2/item/b")
            assert "file line 2, item.b: the text holds U+0000" in problem["detail"]

    def test_a_stored_files_bad_line_is_named_with_a_line_off_the_schema(self, api: Api) -> None:
        """A line no run can read and a good line off the item_schema, in one answer, each at
        its own line under the source's id."""
        name = f"nul-{uuid.uuid4().hex[:8]}"
        key = api.new_key(name)
        content = (
            b'{"item": {"a": "x", "b": "y"}}\n'
            b'{"item": {"a": "x", "b": "\\u0000"}}\n'
            b'{"item": {"a": "x", "b": 5}}\n'
        )
        file_id = new_id("file")
        with api.served.runtime.session() as session:
            tenant = repository.tenant_by_name(session, name)
            assert tenant is not None
            session.add(
                EvalFile(
                    id=file_id,
                    tenant_id=tenant.id,
                    filename="old.jsonl",
                    purpose="evals",
                    bytes=len(content),
                    content=content,
                    line_count=3,
                    created_at=utcnow(),
                )
            )
            session.commit()
        schema = {"type": "object", "properties": {"b": {"type": "string"}}}
        definition = {**EVAL, "data_source_config": {"type": "custom", "item_schema": schema}}
        with api.client(key) as http:
            created = http.post("/v1/evals", json=definition).json()
            source = {"type": "file_id", "id": file_id}
            response = http.post(
                f"/v1/evals/{created['id']}/runs",
                json={"data_source": {"type": "jsonl", "source": source}},
            )
            assert response.status_code == 400, response.text
            problem = response.json()
            assert [(error["pointer"], error["type"]) for error in problem["errors"]] == [
                ("/data_source/source/id/line/2/item/b", "nul_character"),
                ("/data_source/source/id/line/3/item/b", "item_schema_mismatch"),
            ]
            assert problem["error"]["param"] == "data_source.source.id.line[2].item.b"
        assert stored(api, name) == (0, 0)

    def test_a_dataset_jsonl_row_is_refused_naming_line_and_field(self, api: Api) -> None:
        name = f"nul-{uuid.uuid4().hex[:8]}"
        good = {"messages": [{"role": "user", "content": "hi"}], "answer": "a"}
        bad = {"messages": [{"role": "user", "content": [{"type": "text", "text": f"h{NUL}"}]}]}
        content = f"{json.dumps(good)}\n{json.dumps(bad)}\n".encode()
        with api.client(api.new_key(name)) as http:
            response = http.post(
                "/v1/datasets",
                files={"file": ("rows.jsonl", content)},
                data={"format": "general_vqa"},
            )
        problem = refused(response, 422, "/file/rows.jsonl/line/2/messages/0/content/0/text")
        assert problem["errors"][0]["loc"] == "rows.jsonl:2:messages[0].content[0].text"
        assert stored(api, name) == (0, 0)

    def test_a_raw_nul_byte_in_a_csv_or_tsv_cell_is_refused_naming_the_column(
        self, api: Api
    ) -> None:
        name = f"nul-{uuid.uuid4().hex[:8]}"
        csv = b'question,options,answer\nok,"[""a"", ""b""]",A\nwh\x00at,"[""a"", ""b""]",A\n'
        tsv = b"index\tquestion\tA\tB\tanswer\n0\tq\ta\tb\tA\n1\tq\ta\x00\tb\tA\n"
        with api.client(api.new_key(name)) as http:
            for filename, content, fmt, pointer in [
                ("mcq.csv", csv, "general_vmcq", "/file/mcq.csv/line/3/question"),
                ("mcq.tsv", tsv, "vlmeval_mcq", "/file/mcq.tsv/line/3/A"),
            ]:
                response = http.post(
                    "/v1/datasets", files={"file": (filename, content)}, data={"format": fmt}
                )
                assert response.status_code == 422, response.text
                # Every bad row is named (the TSV's rows have no image either).
                (error,) = [e for e in response.json()["errors"] if e["pointer"] == pointer]
                assert error["msg"] == "the cell holds U+0000 (NUL), which Loupe cannot store"
        assert stored(api, name) == (0, 0)

    def test_a_python_list_literal_is_refused_naming_the_rows_field(self, api: Api) -> None:
        # Options written as a Python list (VLMEvalKit style) reach the row without JSON.
        name = f"nul-{uuid.uuid4().hex[:8]}"
        content = b"question,options,answer\nq,\"['a', 'b\\x00']\",A\n"
        with api.client(api.new_key(name)) as http:
            response = http.post(
                "/v1/datasets",
                files={"file": ("mcq.csv", content)},
                data={"format": "general_vmcq"},
            )
        refused(response, 422, "/file/mcq.csv/line/2/options/1")
        assert stored(api, name) == (0, 0)


class TestPathQueryAndForm:
    def test_path_and_query_parameters_are_a_400_naming_them(self, api: Api) -> None:
        with api.tenant_client() as http:
            for url, pointer in [
                ("/v1/evaluations/eval_%00", "/path/evaluation_id"),
                ("/v1/datasets/ds_%00/rows", "/path/dataset_id"),
                ("/v1/files/file_%00", "/path/file_id"),
                ("/v1/evals/eval_%00/runs", "/path/eval_id"),
                ("/v1/evaluations?after=eval_%00", "/query/after"),
                ("/v1/files?purpose=evals%00", "/query/purpose"),
            ]:
                problem = refused(http.get(url), 400, pointer)
                assert problem["type"] == "https://loupe.dev/problems/nul-character", url

    def test_console_pages_answer_a_400_page(self, api: Api) -> None:
        browser = signed_in(api, api.new_key())
        try:
            for url in [
                "/console/evaluations/eval_%00",
                "/console/evaluations?after=eval_%00",
                "/console/runs/run_%00",
                "/console/datasets/ds_%00",
            ]:
                response = browser.get(url)
                assert response.status_code == 400, url
                assert response.headers["content-type"].startswith("text/html")
                assert "U+0000" in response.text
        finally:
            browser.close()

    def test_a_form_field_or_file_name_is_refused_naming_it(self, api: Api) -> None:
        name = f"nul-{uuid.uuid4().hex[:8]}"
        row = b'{"messages": [{"role": "user", "content": "hi"}]}\n'
        with api.client(api.new_key(name)) as http:
            response = http.post(
                "/v1/datasets",
                files={"file": ("rows.jsonl", row)},
                data={"format": "general_vqa", "name": f"set{NUL}"},
            )
            refused(response, 422, "/name")
            # httpx escapes a NUL in a file name; some clients send it raw.
            boundary = "nulboundary"
            body = (
                (
                    f'--{boundary}\r\nContent-Disposition: form-data; name="format"\r\n\r\n'
                    f"general_vqa\r\n--{boundary}\r\nContent-Disposition: form-data; "
                    f'name="file"; filename="rows{NUL}.jsonl"\r\n\r\n'
                ).encode()
                + row
                + f"\r\n--{boundary}--\r\n".encode()
            )
            response = http.post(
                "/v1/datasets",
                content=body,
                headers={"content-type": f"multipart/form-data; boundary={boundary}"},
            )
            refused(response, 422, "/file")
            response = http.post(
                "/v1/files",
                content=body.replace(b"general_vqa", b"evals").replace(b'"format"', b'"purpose"'),
                headers={"content-type": f"multipart/form-data; boundary={boundary}"},
            )
            refused(response, 400, "/file")
        assert stored(api, name) == (0, 0)


class TestModelOutputs:
    def test_a_judges_nul_is_stored_as_a_replacement_character(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        # Model output cannot be refused: PostgreSQL failed the job storing it, SQLite kept it.
        def responder(request: dict) -> Reply | dict:
            if task_of(request) == "g_eval_score":
                return Reply(content=json.dumps({"reason": f"fine{NUL}ish", "score": 8}))
            return plausible_answer(request)

        judge.script(responder)
        metric = {
            "type": "g_eval",
            "name": "helpful",
            "criteria": "Does the output answer the input?",
            "evaluation_params": ["input", "actual_output"],
        }
        with api.tenant_client() as http:
            created = http.post("/v1/evaluations", json={"metrics": [metric], "test_cases": [CASE]})
            assert created.status_code == 202, created.text
            done = api.wait(http, created.json()["id"])
            assert done["status"] == "completed"
            assert done["result_counts"]["passed"] == 1
            results = http.get(f"/v1/evaluations/{created.json()['id']}/results").json()["data"]
        assert results[0]["reason"] == "fine\ufffdish"
        # In the result's JSON too (replaced as the column is written).
        assert results[0]["logs"]["judge_json"]["score"]["reason"] == "fine\ufffdish"
        with api.served.runtime.session() as session:
            answers = session.scalars(select(JudgeCacheEntry.content)).all()
        # The cache keeps the judge's words as written: JSON, its NUL escaped.
        assert any("fine\\u0000ish" in answer for answer in answers), answers
