"""`app.metrics.measure`, which every job calls: what no metric may hand back to be stored."""

import json
import math

from app.metrics import MetricResult, storable
from tests.fixtures.judge import Reply, ScriptedJudge, logprob_tokens
from tests.fixtures.metrics import by_task, case, run_metric

G_EVAL = {
    "type": "g_eval",
    "name": "correctness",
    "criteria": "Is the actual output correct for the input?",
    "evaluation_params": ["input", "actual_output"],
}


def overflowing_score() -> Reply:
    """A score reply whose digit alternatives claim logprobs no probability has (> 0): their
    weights overflow to infinity and the weighted score is inf / inf, NaN."""
    content = json.dumps({"reason": "fine", "score": 7})
    tokens = logprob_tokens(content)
    position = content.rindex("7")
    tokens[position]["top_logprobs"] = [
        {"token": digit, "logprob": 709.7, "bytes": list(digit.encode())} for digit in "78"
    ]
    return Reply(content=content, logprobs=tokens)


class TestMeasure:
    def test_a_non_finite_score_becomes_the_results_error(self, judge: ScriptedJudge) -> None:
        judge.script(
            by_task({"g_eval_steps": {"steps": ["Check it."]}, "g_eval_score": overflowing_score()})
        )
        result = run_metric(judge, G_EVAL, case(actual_output="Paris"))
        assert (result.score, result.passed, result.threshold) == (None, None, 0.5)
        assert result.error.type == "non_finite_score"
        assert "nan" in result.error.message and "not a finite number" in result.error.message
        # The calls were made and are counted; the logs say what the judge answered.
        assert result.usage.calls == 2
        assert result.logs["weighted_score"] == "nan" and result.logs["raw_score"] == 7.0
        json.dumps(result.logs, allow_nan=False)

    def test_non_finite_numbers_in_logs_are_written_as_text(self) -> None:
        result = MetricResult.scored(
            0.5, 0.5, "ok", {"cosine": math.nan, "per_image": [{"score": math.inf}, 1.5]}
        )
        kept = storable(result)
        assert (kept.score, kept.passed, kept.error) == (0.5, True, None)
        assert kept.logs == {"cosine": "nan", "per_image": [{"score": "inf"}, 1.5]}

    def test_an_infinite_score_is_refused_too(self) -> None:
        refused = storable(MetricResult.scored(-math.inf, 0.5, "reason", {}))
        assert (refused.score, refused.passed, refused.reason) == (None, None, None)
        assert refused.error.type == "non_finite_score" and "-inf" in refused.error.message
