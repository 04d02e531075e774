"""Judge requests that got no answer are counted, apart from answered calls (issue 24 audit): a
judge answering 500 to every request showed "Judge usage: 0 calls" though it was asked again
and again. Each result, the evaluation's usage, GET /v1/usage and the console now count the
failed attempts (retries included); tokens stay what was billed."""

import re

from tests.console.helpers import signed_in
from tests.fixtures.api import Api
from tests.fixtures.judge import Reply, ScriptedJudge, plausible_answer

CASES = [
    {
        "id": f"case-{i}",
        "input": f"Question {i}?",
        "expected_output": "An answer.",
        "retrieval_context": ["A node.", "Another node."],
    }
    for i in range(5)
]
# One judge call per case, so every request the judge got belongs to one case's result.
METRICS = [{"type": "contextual_precision"}]


def evaluate(api: Api, key: str) -> dict:
    with api.client(key) as client:
        response = client.post("/v1/evaluations", json={"test_cases": CASES, "metrics": METRICS})
        assert response.status_code == 202, response.text
        return api.wait(client, response.json()["id"])


class TestFailedCalls:
    def test_a_judge_answering_500_counts_every_failed_attempt(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.sequence(Reply(status=500, content="model crashed"))
        key = api.new_key()
        done = evaluate(api, key)
        attempts = len(judge.requests)
        per_case = api.settings.judge_max_attempts
        assert attempts == len(CASES) * per_case

        assert done["result_counts"]["errored"] == len(CASES)
        assert done["usage"]["calls"] == 0
        assert done["usage"]["failed_calls"] == attempts
        assert (done["usage"]["prompt_tokens"], done["usage"]["completion_tokens"]) == (0, 0)
        assert done["usage"]["cost_usd"] == 0.0
        assert done["per_metric"][0]["usage"]["failed_calls"] == attempts
        with api.client(key) as client:
            results = client.get(f"/v1/evaluations/{done['id']}/results").json()["data"]
            usage = client.get("/v1/usage").json()
        assert [(r["usage"]["calls"], r["usage"]["failed_calls"]) for r in results] == [
            (0, per_case)
        ] * len(CASES)
        assert {r["logs"]["failed_calls"] for r in results} == {per_case}
        assert (usage["judge"]["calls"], usage["judge"]["failed_calls"]) == (0, attempts)
        assert usage["judge"]["cost_usd"] == 0.0

        console = signed_in(api, key)
        page = console.get(f"/console/evaluations/{done['id']}").text
        words = " ".join(re.sub(r"<[^>]+>", " ", page).split())
        assert f"Judge usage: 0 answered calls, {attempts} failed attempts" in words, words
        case_page = console.get(f"/console/evaluations/{done['id']}/cases/0").text
        case_words = " ".join(re.sub(r"<[^>]+>", " ", case_page).split())
        assert f"0 answered calls · {per_case} failed attempts" in case_words, case_words

    def test_a_retried_call_counts_its_failure_beside_the_answer(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        failures = iter([Reply(status=503, content="busy")])

        def answer(request: dict) -> Reply | dict:
            return next(failures, None) or plausible_answer(request)  # type: ignore[return-value]

        judge.script(answer)
        key = api.new_key()
        done = evaluate(api, key)
        assert done["status"] == "completed" and not done["completed_with_errors"], done
        assert done["usage"]["calls"] == len(CASES)
        assert done["usage"]["failed_calls"] == 1
        assert done["usage"]["prompt_tokens"] == 10 * len(CASES)
