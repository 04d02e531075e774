"""A judge caught in a loop on a single-turn metric, answering thousands of retrieval-context
nodes that do not exist, through POST /v1/evaluations, the workers and the scripted judge:
contextual_relevancy repairs once, then stores `invalid_answer` with a message of bounded
length (as the conversational metrics do, tests/conversations/test_looping_judge_api.py)."""

from tests.evaluations.test_judged import all_results, submit
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge, task_of
from tests.fixtures.metrics import user_text

# Nodes 1 to 5,000, each answered twice: 10,000 entries (about 300 KB of JSON).
LOOPED = 5000


def looping(request: dict) -> dict:
    assert task_of(request) == "contextual_relevancy_verdicts", task_of(request)
    numbers = [n for n in range(1, LOOPED + 1) for _ in range(2)]
    return {"nodes": [{"node": n, "verdicts": []} for n in numbers], "reason": "looped"}


class TestContextualRelevancyLoopingJudge:
    def test_the_nodes_that_did_not_fit_are_named_in_a_few_words(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        # Every node the reply got wrong was listed: some 50 KB of node numbers sent back to
        # the judge in the repair request and stored as the result's error.
        judge.script(looping)
        client = api.tenant_client()
        case = {
            "input": "What is the capital of France?",
            "actual_output": "Paris.",
            "retrieval_context": ["Paris is the capital of France.", "France is in Europe."],
        }
        final = submit(
            api, client, {"test_cases": [case], "metrics": [{"type": "contextual_relevancy"}]}
        )
        (result,) = all_results(client, final["id"])
        assert (result["score"], result["error"]["type"]) == (None, "invalid_answer")
        message = result["error"]["message"]
        assert len(message) < 1000, len(message)
        said = [
            "verdicts for node(s) 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 and 4988 more, which do not "
            "exist",
            "node(s) 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 4990 more answered more than once",
        ]
        for words in said:
            assert words in message
        assert result["usage"]["calls"] == len(judge.requests) == 2
        # The repair request's last message says what did not fit, as briefly.
        repair = user_text({"messages": judge.requests[1]["messages"][-1:]})
        assert said[0] in repair and len(repair) < 2000, len(repair)
