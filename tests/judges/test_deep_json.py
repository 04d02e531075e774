"""A judge answering JSON nested past Loupe's depth limit answered unusable JSON: judge_malformed,
after the same repair request as any other broken answer (it was a RecursionError, stored as
metric_error)."""

import asyncio
import json
from collections.abc import Callable
from typing import Any

import pytest
from pydantic import BaseModel

from app.judges import JSONExtractionError, JudgeClient, extract_json_object, loads_shallow
from app.judges._json import MAX_JSON_DEPTH, JSONTooDeep
from tests.fixtures.api import Api
from tests.fixtures.judge import JUDGED_METRICS, Reply, ScriptedJudge, plausible_answer, task_of
from tests.fixtures.metrics import endpoint
from tests.judges.test_failures import failure

# Past Python's recursion limit: json.loads raises RecursionError, not a ValueError.
DEEP = '{"reason": ' + "[" * 5000 + "]" * 5000 + ', "score": 5}'


class Verdict(BaseModel):
    verdict: str


def nested(depth: int) -> str:
    return '{"a": ' * (depth - 1) + "{}" + "}" * (depth - 1)


def g_eval_twice(api: Api, judge: ScriptedJudge, respond: Callable[[dict], Any]) -> list[dict]:
    """The results of two g_eval cases judged by `respond`, all errored, once the evaluation
    completed."""
    judge.script(respond)
    client = api.tenant_client()
    case = {"input": "What shape?", "actual_output": "A circle."}
    response = client.post(
        "/v1/evaluations", json={"test_cases": [case, case], "metrics": JUDGED_METRICS[:1]}
    )
    assert response.status_code == 202, response.text
    final = api.wait(client, response.json()["id"])
    assert final["status"] == "completed"
    assert final["result_counts"]["errored"] == 2
    return client.get(f"/v1/evaluations/{final['id']}/results").json()["data"]


class TestLoadsShallow:
    def test_past_the_limit_is_too_deep(self) -> None:
        assert loads_shallow(nested(MAX_JSON_DEPTH)) == json.loads(nested(MAX_JSON_DEPTH))
        for text in (nested(MAX_JSON_DEPTH + 1), DEEP, "[" * 100_000 + "]" * 100_000):
            with pytest.raises(JSONTooDeep):
                loads_shallow(text)

    def test_depth_counts_arrays_and_objects_alike_and_never_brackets_in_strings(self) -> None:
        def alternating(depth: int) -> str:
            opened = "".join("[" if level % 2 else '{"k": ' for level in range(depth))
            return opened + "1" + "".join("]" if level % 2 else "}" for level in range(depth)[::-1])

        assert loads_shallow(alternating(MAX_JSON_DEPTH)) is not None
        for too_deep in (alternating(MAX_JSON_DEPTH + 1), alternating(MAX_JSON_DEPTH * 2)):
            with pytest.raises(JSONTooDeep):
                loads_shallow(too_deep.encode())
        # Brackets inside strings (escaped quotes too) neither deepen nor hide a level.
        shallow = json.dumps({"reason": "[[[{{{" * 40, "quote": 'a \\"]]]}}}', "list": [[1]]})
        assert loads_shallow(shallow)["list"] == [[1]]
        hidden = json.loads(nested(MAX_JSON_DEPTH + 1))
        hidden["closing"] = "]]]}}}" * 40
        with pytest.raises(JSONTooDeep):
            loads_shallow(json.dumps(hidden))

    def test_extraction_refuses_it_as_malformed(self) -> None:
        with pytest.raises(JSONExtractionError, match="nested deeper than 64 levels"):
            extract_json_object("Here you are: " + DEEP)


class TestDeepJudgeAnswer:
    def test_a_deep_answer_is_repaired_then_malformed(self, judge: ScriptedJudge) -> None:
        judge.sequence(DEEP, DEEP)
        error = failure(judge)
        assert (error.type, error.kind) == ("judge_malformed", "malformed")
        assert len(judge.requests) == 2

    def test_a_judged_evaluation_stores_judge_malformed(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        def deep_scores(request: dict) -> str | dict:
            if task_of(request) == "g_eval_score":
                return DEEP
            return plausible_answer(request)

        results = g_eval_twice(api, judge, deep_scores)
        assert [r["error"]["type"] for r in results] == ["judge_malformed"] * 2
        # Each was asked again once, as for any other broken answer.
        assert len(judge.calls_for("g_eval_score")) == 4

    def test_a_deep_completion_body_is_malformed(self, judge: ScriptedJudge) -> None:
        # Not the content but the whole body: not a chat completion, as for any garbage.
        judge.sequence(Reply(raw_body=b'{"choices": ' + b"[" * 5000 + b"]" * 5000 + b"}"))
        error = failure(judge)
        assert (error.type, error.kind) == ("judge_malformed", "malformed")
        assert "not a chat completion" in error.message

    def test_deep_parts_of_a_judge_reply_that_are_not_kept_do_not_matter(
        self, judge: ScriptedJudge
    ) -> None:
        # The judge's reply keeps only its content (parsed and checked on its own) and the
        # digits' logprobs as strings and numbers: depth elsewhere is never walked or stored.
        deep = json.loads(nested(MAX_JSON_DEPTH * 3))
        body = {
            "choices": [
                {
                    "message": {"role": "assistant", "content": '{"verdict": "yes"}'},
                    "logprobs": {
                        "content": [
                            {
                                "token": "7",
                                "logprob": deep,
                                "top_logprobs": [deep, {"token": deep}],
                            },
                            {"token": deep, "logprob": -0.5},
                        ]
                    },
                    "extra": deep,
                }
            ],
            "usage": {"prompt_tokens": 3, "completion_tokens": 2},
        }
        judge.sequence(Reply(raw_body=json.dumps(body).encode()))

        async def go() -> Any:
            client = JudgeClient(endpoint(judge))
            try:
                return await client.call([{"role": "user", "content": "judge this"}], Verdict)
            finally:
                await client.close()

        reply = asyncio.run(go())
        assert reply.data == {"verdict": "yes"}
        assert reply.logprobs == [
            {"token": "7", "logprob": None, "top_logprobs": [{"token": "", "logprob": None}] * 2}
        ]
