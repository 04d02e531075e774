"""Conversations as an attacker sends them: bodies the JSON parser cannot decode are a 400
problem naming the body, never a bare answer without `errors`."""

import pytest

from tests.evaluations.test_endpoints import error_locs, problem
from tests.fixtures.api import Api

# A tool call's arguments whose key is a lone low surrogate (valid JSON syntax, no text in
# UTF-8), and a turn's content holding a byte that is not UTF-8 at all.
LONE_SURROGATE_KEY = (
    b'{"test_cases": [{"expected_tools": [{"name": "t"}], "turns": ['
    b'{"role": "user", "content": "q"}, {"role": "assistant", "content": "",'
    b' "tools_called": [{"name": "t", "input_parameters": {"\\udfff": 1}}]}]}],'
    b' "metrics": [{"type": "tool_correctness"}]}'
)
NOT_UTF8 = (
    b'{"test_cases": [{"turns": [{"role": "user", "content": "caf\xe9"},'
    b' {"role": "assistant", "content": "a"}]}], "metrics": [{"type": "turn_relevancy"}]}'
)


@pytest.mark.parametrize("body", [LONE_SURROGATE_KEY, NOT_UTF8], ids=["surrogate", "latin1"])
@pytest.mark.parametrize("path", ["/v1/evaluations", "/v1/evaluations/estimate"])
def test_an_undecodable_body_is_a_malformed_json_problem_naming_the_body(
    api: Api, body: bytes, path: str
) -> None:
    response = api.tenant_client().post(
        path, content=body, headers={"content-type": "application/json"}
    )
    found = problem(response, 400)
    assert found["type"].endswith("/malformed-json")
    assert error_locs(found) == ["body"]
