"""A judge that declines (a chat completion whose message has no content but a `refusal`) is
stored with its words, not as "no content"; a 200 whose JSON has no `choices` is no chat
completion at all, refused without a repair request."""

import json

from tests.fixtures.api import Api
from tests.fixtures.judge import Reply, ScriptedJudge, plausible_answer, task_of
from tests.judges.test_deep_json import g_eval_twice


def completion(message: dict) -> bytes:
    return json.dumps(
        {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "created": 0,
            "model": "judge-model",
            "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 7, "completion_tokens": 3, "total_tokens": 10},
        }
    ).encode()


def test_a_refusal_is_stored_with_its_words(api: Api, judge: ScriptedJudge) -> None:
    refused = completion(
        {"role": "assistant", "content": None, "refusal": "I cannot help with grading this."}
    )

    def respond(request: dict) -> Reply | dict:
        if task_of(request) == "g_eval_score":
            return Reply(raw_body=refused)
        return plausible_answer(request)

    results = g_eval_twice(api, judge, respond)
    for result in results:
        assert result["error"]["type"] == "judge_malformed"
        assert "the model refused: I cannot help with grading this." in result["error"]["message"]
    # Asked once more, as any unusable answer; both calls were answered and count.
    assert len(judge.calls_for("g_eval_score")) == 4


def test_json_without_choices_is_no_chat_completion(api: Api, judge: ScriptedJudge) -> None:
    def respond(request: dict) -> Reply | dict:
        if task_of(request) == "g_eval_score":
            return Reply(raw_body=b'{"hello": "world"}')
        return plausible_answer(request)

    results = g_eval_twice(api, judge, respond)
    for result in results:
        assert result["error"]["type"] == "judge_malformed"
        assert "not a chat completion (JSON without choices)" in result["error"]["message"]
    # No repair request: there was no model's answer to repair.
    assert len(judge.calls_for("g_eval_score")) == 2
