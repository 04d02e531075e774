"""A conversation as a test case: what a submission may hold, and every misfit in one 422."""

from tests.evaluations.test_endpoints import error_locs, problem
from tests.fixtures.api import Api


def test_every_misfit_of_shape_is_named_in_one_answer(api: Api) -> None:
    body = {
        "test_cases": [
            # A conversation given to a single-turn metric.
            {"turns": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "yo"}]},
            # Neither shape.
            {"actual_output": "an answer without its request"},
            # Both shapes at once, and a user turn that calls tools.
            {
                "actual_output": "x",
                "turns": [
                    {"role": "user", "content": "q", "tools_called": [{"name": "search"}]},
                    {"role": "assistant", "content": "a"},
                ],
            },
            # A conversation's field on a single-turn case.
            {"input": "q", "actual_output": "a", "expected_output": "a", "chatbot_role": "pirate"},
        ],
        "metrics": [{"type": "exact_match"}],
    }
    response = api.tenant_client().post("/v1/evaluations", json=body)
    locs = error_locs(problem(response, 422))
    assert "test_cases[0].turns" in locs
    assert "test_cases[1].input" in locs
    assert "test_cases[2].actual_output" in locs
    assert "test_cases[2].turns[0].tools_called" in locs
    assert "test_cases[3].chatbot_role" in locs
    # A conversation refused for its shape is not also told it lacks input and outputs.
    assert "test_cases[0].actual_output" not in locs


def test_a_turn_must_have_a_known_role(api: Api) -> None:
    body = {
        "test_cases": [{"turns": [{"role": "system", "content": "be nice"}]}],
        "metrics": [{"type": "exact_match"}],
    }
    response = api.tenant_client().post("/v1/evaluations", json=body)
    assert "test_cases[0].turns[0].role" in error_locs(problem(response, 422))
