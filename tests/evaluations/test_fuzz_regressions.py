"""Inputs the fuzzer (tests/test_schemathesis.py) found answering 5xx: each is now a 4xx that
names the field at fault."""

from tests.fixtures.api import Api

# With the reference exact_match needs: a case the schema refuses is still checked against its
# metrics' needs, and these tests are about the parts alone.
CASE = {
    "input": "What shape is the logo?",
    "actual_output": "A red circle.",
    "expected_output": "A red circle.",
}


class TestContentParts:
    def test_a_part_type_that_is_not_a_string(self, api: Api) -> None:
        # The part's type was looked up in a dict: an object there was a TypeError, a 500.
        case = dict(CASE, retrieval_context=[[{"image_url": {"url": "0"}, "type": {}}]])
        with api.tenant_client() as client:
            response = client.post(
                "/v1/evaluations", json={"test_cases": [case], "metrics": [{"type": "exact_match"}]}
            )
        assert response.status_code == 422, response.text
        [error] = response.json()["errors"]
        assert error["loc"] == "test_cases[0].retrieval_context[0][0]"
        assert error["type"] == "invalid_part"

    def test_in_every_content_field(self, api: Api) -> None:
        part = {"type": ["text"], "text": "x"}
        case = dict(CASE, input=[part], actual_output=[part], context=[[part]])
        with api.tenant_client() as client:
            response = client.post(
                "/v1/evaluations", json={"test_cases": [case], "metrics": [{"type": "exact_match"}]}
            )
        assert response.status_code == 422, response.text
        locs = {error["loc"] for error in response.json()["errors"]}
        assert locs == {
            "test_cases[0].input[0]",
            "test_cases[0].actual_output[0]",
            "test_cases[0].context[0][0]",
        }
