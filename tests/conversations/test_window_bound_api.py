"""The window of earlier turns a judged turn is shown, bounded by characters
(LOUPE_MAX_WINDOW_CHARS), through POST /v1/evaluations, the workers and the scripted judge:
past the bound the window's earliest turns are left out whole, the judged turn and its context
always shown, the result's logs name what was left out, and the estimate counts the prompts the
judge is then sent."""

import re
from pathlib import Path
from typing import Any

from app.usage import tokens
from tests.conversations.test_turn_rag_api import CLAIMS, NODES, TRUTHS, judged_turn
from tests.evaluations.test_judged import all_results, submit
from tests.fixtures.api import Api, side_app
from tests.fixtures.judge import ScriptedJudge, task_of
from tests.fixtures.metrics import user_text

METRICS = [
    {"type": "turn_faithfulness", "window_size": 20},
    {"type": "turn_contextual_relevancy", "window_size": 20},
]


def long_conversation(exchanges: int, user_chars: int) -> dict[str, Any]:
    """`exchanges` exchanges whose user turns are `user_chars` long, each marked with its turn
    number (`<u3>`); only the last assistant turn has a retrieval context (one sentence)."""
    turns: list[dict[str, Any]] = []
    for index in range(exchanges):
        user, reply = 2 * index + 1, 2 * index + 2
        turns.append({"role": "user", "content": f"<u{user}> " + "word " * (user_chars // 5)})
        turns.append({"role": "assistant", "content": f"Noted {reply}."})
    turns[-1]["retrieval_context"] = ["The dose is 12 mg."]
    return {"id": "long", "turns": turns}


def answer(request: dict) -> dict:
    # Truths restate the context's one sentence, as the estimate assumes: the counts then agree.
    task = task_of(request)
    if task == TRUTHS:
        return {"truths": ["The dose is 12 mg."]}
    if task == CLAIMS:
        return {"claims": [{"claim": "It is noted.", "verdict": "yes"}]}
    if task == NODES:
        return {"nodes": [{"node": 1, "verdict": "yes"}]}
    raise AssertionError(f"unexpected task {task!r}")


def shown_turns(request: dict) -> list[int]:
    """The earlier turns a verdict request shows, by their headings (the judged turn, which
    turn_faithfulness shows too, left out)."""
    found = [int(n) for n in re.findall(r"^Turn (\d+) \(", user_text(request), re.M)]
    return [number for number in found if number != judged_turn(request)]


def verdict_requests(judge: ScriptedJudge) -> dict[str, dict]:
    (claims,) = judge.calls_for(CLAIMS)
    (nodes,) = judge.calls_for(NODES)
    return {"turn_faithfulness": claims, "turn_contextual_relevancy": nodes}


def sent_prompt_tokens(judge: ScriptedJudge, encoding: str) -> int:
    return sum(tokens.count_messages(r["messages"], encoding)[0] for r in judge.requests)


class TestTheBound:
    def test_the_earliest_turns_are_left_out_and_the_estimate_counts_what_is_sent(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        # 8 exchanges, each user turn 9,000 characters: 15 earlier turns of some 72,000
        # characters, past the default 60,000. From turn 15 back, six user turns (54,000) and
        # their short replies fit; turn 3 would make 63,000, so turns 1-3 are left out.
        judge.script(answer)
        body = {"test_cases": [long_conversation(8, 9_000)], "metrics": METRICS}
        client = api.tenant_client()
        estimated = client.post("/v1/evaluations/estimate", json=body)
        assert estimated.status_code == 200, estimated.text
        final = submit(api, client, body)
        assert final["status"] == "completed" and final["result_counts"]["errored"] == 0

        for metric, request in verdict_requests(judge).items():
            assert judged_turn(request) == 16, metric
            assert shown_turns(request) == list(range(4, 16)), metric
            said = user_text(request)
            assert "<u5>" in said and "<u3>" not in said and "<u1>" not in said, metric
            assert "the earliest 3 turns of the window left out for length" in said, metric
            assert "The dose is 12 mg." in said, metric  # the context is always shown
        for row in all_results(client, final["id"]):
            assert row["logs"]["window_trimmed"] == [{"turn": 16, "left_out": 3}], row["metric"]

        # The estimate renders the prompts the worker sends: the same windows, the same tokens
        # (the stand-in's truths are the context's sentence, as the estimate assumes).
        estimate = estimated.json()
        encoding = estimate["metrics"][0]["judges"][0]["encoding"]
        assert estimate["calls"] == len(judge.requests) == 3
        assert estimate["prompt_tokens"] == sent_prompt_tokens(judge, encoding)

    def test_a_window_within_the_bound_is_shown_whole(self, api: Api, judge: ScriptedJudge) -> None:
        judge.script(answer)
        body = {"test_cases": [long_conversation(8, 500)], "metrics": METRICS}
        client = api.tenant_client()
        final = submit(api, client, body)
        assert final["result_counts"]["errored"] == 0
        for metric, request in verdict_requests(judge).items():
            assert shown_turns(request) == list(range(1, 16)), metric
            assert "left out for length" not in user_text(request), metric
        for row in all_results(client, final["id"]):
            assert row["logs"]["window_trimmed"] == [], row["metric"]


class TestTheSetting:
    def test_a_smaller_bound_leaves_out_more(self, tmp_path: Path, judge: ScriptedJudge) -> None:
        # Four exchanges with user turns of 600 characters: all of them fit the default bound;
        # with LOUPE_MAX_WINDOW_CHARS=1000 only the last user turn and its reply do (turns 6-7).
        judge.script(answer)
        body = {"test_cases": [long_conversation(4, 600)], "metrics": METRICS}
        with (
            side_app(tmp_path, judge_base_url=judge.base_url, max_window_chars=1_000) as app,
            app.tenant_client() as client,
        ):
            estimated = client.post("/v1/evaluations/estimate", json=body)
            assert estimated.status_code == 200, estimated.text
            final = submit(app, client, body)
            rows = all_results(client, final["id"])
        assert final["result_counts"]["errored"] == 0
        for metric, request in verdict_requests(judge).items():
            assert shown_turns(request) == [6, 7], metric
            assert "the earliest 5 turns of the window left out for length" in user_text(request)
        for row in rows:
            assert row["logs"]["window_trimmed"] == [{"turn": 8, "left_out": 5}], row["metric"]
        estimate = estimated.json()
        encoding = estimate["metrics"][0]["judges"][0]["encoding"]
        assert estimate["prompt_tokens"] == sent_prompt_tokens(judge, encoding)
