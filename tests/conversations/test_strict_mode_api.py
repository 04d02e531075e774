"""strict_mode on the conversational and agent metrics through POST /v1/evaluations, the workers
and the scripted judge: a score strict mode set to 0 keeps the formula's score in
`logs.unclamped_score` and its reason says so first (docs/metrics.md), as the single-turn
metrics' do (tests/evaluations/test_metric_fidelity.py)."""

from collections.abc import Callable
from typing import Any

import pytest

from tests.conversations import (
    test_geval_and_task_api,
    test_relevancy_api,
    test_retention_api,
    test_tools_api,
    test_turn_rag_api,
)
from tests.evaluations.test_judged import all_results, submit
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge

# (conversation, stand-in, {metric: the formula's score on the stand-in's verdicts}).
GROUPS: dict[str, tuple[dict[str, Any], Callable[[dict], Any], dict[str, float]]] = {
    "relevancy": (
        test_relevancy_api.conversation(),
        test_relevancy_api.answer,
        {"turn_relevancy": 2 / 3, "conversation_completeness": 2 / 3},
    ),
    "retention": (
        test_retention_api.conversation(),
        test_retention_api.answer,
        {"knowledge_retention": 2 / 3, "role_adherence": 2 / 3},
    ),
    "rag": (
        test_turn_rag_api.conversation(),
        test_turn_rag_api.answer,
        {"turn_faithfulness": 3 / 4, "turn_contextual_relevancy": 3 / 4},
    ),
    "tools": (
        test_tools_api.conversation(),
        test_tools_api.verdicts_by_city,
        {"argument_correctness": 2 / 3},
    ),
    "task": (
        test_geval_and_task_api.conversation(),
        test_geval_and_task_api.answers(verdict=0.75),
        {"task_completion": 0.75},
    ),
}


@pytest.mark.parametrize("group", sorted(GROUPS))
def test_a_clamped_score_keeps_the_formulas_score_and_says_so(
    api: Api, judge: ScriptedJudge, group: str
) -> None:
    # These metrics clamped without a word: knowledge_retention stored 0 with "1 of 2
    # assistant turns ... kept what the user said; score 0.00", task_completion 0 with the
    # judge's "Booked as asked.", and none kept the formula's score.
    case, stand_in, formulas = GROUPS[group]
    judge.script(stand_in)
    metrics = [
        spec
        for metric in formulas
        for spec in (
            {"type": metric, "strict_mode": True},
            {"type": metric, "name": f"{metric}-lenient"},
        )
    ]
    client = api.tenant_client()
    final = submit(api, client, {"test_cases": [case], "metrics": metrics})
    assert final["result_counts"]["errored"] == 0, all_results(client, final["id"])
    rows = {row["metric"]: row for row in all_results(client, final["id"])}
    for metric, formula in formulas.items():
        strict, lenient = rows[metric], rows[f"{metric}-lenient"]
        assert lenient["score"] == pytest.approx(formula), lenient
        assert "unclamped_score" not in lenient["logs"]
        assert not lenient["reason"].startswith("Strict mode")
        assert (strict["score"], strict["threshold"], strict["passed"]) == (0.0, 1.0, False)
        assert strict["logs"]["unclamped_score"] == pytest.approx(formula), metric
        note = (
            f"Strict mode: the score {formula:.4g} is under the threshold 1, so it is stored as 0. "
        )
        assert strict["reason"] == note + lenient["reason"], metric
