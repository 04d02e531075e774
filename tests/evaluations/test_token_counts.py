"""Token counts past 32 bits, from a judge's usage reports through results and summaries.

Loupe takes a provider's report up to 10^15 tokens a call. A result of 3 * 10^9 tokens (two
calls of 1.5 * 10^9), or an evaluation's results together past 2^31 - 1 (a million results
of some 2,200 tokens), failed the job's every write on PostgreSQL, whose integer columns are
32-bit, and left the evaluation in progress; SQLite took them. A result stores at most
2^31 - 1 tokens a side (no call uses as many); a metric's sums are 64-bit.
"""

import json

from tests.fixtures.api import Api
from tests.fixtures.judge import Reply, ScriptedJudge, plausible_answer

G_EVAL = {
    "type": "g_eval",
    "name": "correct",
    "criteria": "Is the answer right?",
    "evaluation_params": ["input", "actual_output"],
}
MOST = 2**31 - 1


def heavy(request: dict) -> Reply:
    """A plausible answer that says it read 1.5 billion prompt tokens."""
    answer = plausible_answer(request)
    content = answer.content if isinstance(answer, Reply) else json.dumps(answer)
    return Reply(content=content, prompt_tokens=1_500_000_000, completion_tokens=5)


class TestTokenCounts:
    def test_a_huge_usage_report_is_stored_capped_and_summed_past_32_bits(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(heavy)
        with api.tenant_client() as client:
            cases = [{"input": f"q{i}", "actual_output": "a"} for i in range(2)]
            made = client.post(
                "/v1/evaluations",
                json={"name": "tokens", "metrics": [G_EVAL], "test_cases": cases, "cache": False},
            )
            assert made.status_code == 202, made.text
            body = api.wait(client, made.json()["id"])
            assert body["status"] == "completed", body
            results = client.get(f"/v1/evaluations/{body['id']}/results").json()["data"]
        # The result that asked for g_eval's steps made two calls of 1.5 billion: 3 billion,
        # capped; the other one call.
        tokens = sorted(result["usage"]["prompt_tokens"] for result in results)
        assert tokens == [1_500_000_000, MOST]
        assert body["usage"]["prompt_tokens"] == MOST + 1_500_000_000
        assert body["per_metric"][0]["usage"]["prompt_tokens"] == MOST + 1_500_000_000
