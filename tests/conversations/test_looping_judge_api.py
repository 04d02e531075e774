"""A judge caught in a loop, writing verdicts for turns that do not exist until its reply's cap,
through POST /v1/evaluations, the workers and the scripted judge: the keyed-verdict metrics
repair once, then store `invalid_answer` with a message of bounded length."""

import pytest

from tests.conversations import test_retention_api
from tests.conversations.test_relevancy_api import conversation
from tests.evaluations.test_judged import all_results, submit
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge, task_of
from tests.fixtures.metrics import user_text

# Turns 1 to 5,000, each judged twice: 10,000 verdicts (about 280 KB of JSON).
LOOPED = 5000


def looping(request: dict) -> dict:
    task = task_of(request)
    numbers = [n for n in range(1, LOOPED + 1) for _ in range(2)]
    if task == "turn_relevancy_verdicts":
        return {"verdicts": [{"turn": n, "verdict": "yes"} for n in numbers]}
    if task == "knowledge_retention_facts":
        return {"turns": [{"turn": n, "facts": []} for n in numbers]}
    raise AssertionError(f"unexpected task {task!r}")


@pytest.mark.parametrize(
    ("metric", "case", "said"),
    [
        (
            "turn_relevancy",
            conversation(),
            [
                "reply turn 1, 3, 5, 7, 8, 9, 10, 11, 12, 13 and 4987 more was not asked about",
                "reply turn 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 4990 more judged more than once",
            ],
        ),
        (
            "knowledge_retention",
            test_retention_api.conversation(),
            [
                "turn 2, 4, 6, 7, 8, 9, 10, 11, 12, 13 and 4987 more was not asked about",
                "user turn 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 4990 more listed more than once",
            ],
        ),
    ],
)
def test_a_looping_judge_is_told_what_did_not_fit_in_a_few_words(
    api: Api, judge: ScriptedJudge, metric: str, case: dict, said: list[str]
) -> None:
    # Every key the reply got wrong was listed: 35 KB of turn numbers sent back to the judge in
    # the repair request and stored as the result's error (and each verdict was compared with
    # every other, which held the judge loop for minutes at the reply's 8 MB cap).
    judge.script(looping)
    client = api.tenant_client()
    final = submit(api, client, {"test_cases": [case], "metrics": [{"type": metric}]})
    (result,) = all_results(client, final["id"])
    assert (result["score"], result["error"]["type"]) == (None, "invalid_answer")
    message = result["error"]["message"]
    for words in said:
        assert words in message
    assert len(message) < 1000, len(message)
    assert result["usage"]["calls"] == len(judge.requests) == 2
    # The repair request's last message says what did not fit, as briefly.
    repair = user_text({"messages": judge.requests[1]["messages"][-1:]})
    assert said[0] in repair and len(repair) < 2000, len(repair)
