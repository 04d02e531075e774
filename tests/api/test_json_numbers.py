"""Numbers in uploaded JSON that no stored JSON holds as written, refused naming the line and
field, as a request body's parser refuses them (NaN and Infinity a 400 malformed-json, the
others a 422 naming their field):

- an integer of more digits than Python converts (4,300): `json.loads` raised a ValueError
  that was a 500 for a label import and a dataset upload;
- NaN, Infinity and a literal too large for a double (1e400): `/v1/files` took them, and a run
  of the file stored each as null;
- an integer past 64 bits: taken, and read back from every JSON column as a float (a run
  graded 123456789012345678901234 as 1.2345678901234569e+23).
"""

import json
import uuid

import httpx

from tests.api.test_nul_strings import stored
from tests.fixtures.api import Api

DIGITS = "1" * 5000


def problem_of(response: httpx.Response, status: int) -> dict:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json"
    return response.json()


class TestLabelImports:
    def test_an_integer_too_long_to_read_is_a_422_naming_its_line_and_field(self, api: Api) -> None:
        with api.tenant_client() as http:
            line = {"result_id": "res_x", "value": 0.5, "rationale": "N"}
            lines = [json.dumps(line), json.dumps(line).replace('"N"', DIGITS)]
            response = http.post(
                "/v1/labels/import",
                content="\n".join(lines) + "\n",
                headers={"Content-Type": "application/x-ndjson"},
            )
        problem = problem_of(response, 422)
        [error] = [e for e in problem["errors"] if e["type"] == "invalid_number"]
        assert error["loc"] == "lines[2].rationale"
        assert "more than 4300 digits" in error["msg"]


class TestDatasets:
    def test_an_integer_too_long_to_read_is_a_422_naming_the_row(self, api: Api) -> None:
        name = f"numbers-{uuid.uuid4().hex[:8]}"
        good = '{"messages": [{"role": "user", "content": "hi"}], "answer": "a"}'
        line = good.replace('"a"', DIGITS)
        # The messages as a JSON string of their own, as a TSV cell holds them.
        text = json.dumps([{"role": "user", "content": "hi", "n": "N"}]).replace('"N"', DIGITS)
        inner = json.dumps({"messages": text, "answer": "a"})
        with api.client(api.new_key(name)) as http:
            response = http.post(
                "/v1/datasets",
                files={"file": ("rows.jsonl", f"{good}\n{line}\n{inner}\n".encode())},
                data={"format": "general_vqa"},
            )
        problem = problem_of(response, 422)
        locs = {error["loc"]: error["msg"] for error in problem["errors"]}
        assert "more than 4300 digits" in locs["rows.jsonl:2:answer"]
        assert "more than 4300 digits" in locs["rows.jsonl:3:messages[0].n"]
        assert stored(api, name) == (0, 0)


class TestFiles:
    def test_nan_infinity_1e400_and_long_integers_are_refused_naming_the_line_and_field(
        self, api: Api
    ) -> None:
        with api.tenant_client() as http:
            for literal, why in [
                ("NaN", "JSON has no NaN or infinity"),
                ("-Infinity", "JSON has no NaN or infinity"),
                ("1e400", "too large for a double"),
                ("123456789012345678901234", "an integer past 64 bits"),
                ("9223372036854775808", "an integer past 64 bits"),
            ]:
                content = b'{"item": {"a": 1}}\n{"item": {"a": 1, "b": [%s]}}\n' % literal.encode()
                response = http.post(
                    "/v1/files", files={"file": ("rows.jsonl", content)}, data={"purpose": "evals"}
                )
                problem = problem_of(response, 400)
                assert [error["pointer"] for error in problem["errors"]] == [
                    "/file/line/2/item/b/0"
                ]
                assert problem["error"]["code"] == "invalid_number"
                assert (
                    f"file line 2, item.b[0]: the number {literal} cannot be stored"
                    in (problem["detail"])
                )
                assert why in problem["detail"]
            assert http.get("/v1/files").json()["data"] == []

    def test_an_integer_within_64_bits_is_kept_exactly(self, api: Api) -> None:
        with api.tenant_client() as http:
            content = b'{"item": {"a": 9223372036854775807, "b": "12345678901234567890123"}}\n'
            response = http.post(
                "/v1/files", files={"file": ("rows.jsonl", content)}, data={"purpose": "evals"}
            )
            assert response.status_code == 200, response.text
