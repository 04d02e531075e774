"""Two evaluations judged three times per item by a scripted judge that disagrees with itself on
planned items, for the tests of fragile items in comparisons, the gate, the SDK and the console."""

import json
import re
import threading
from collections import defaultdict
from typing import Any

import httpx

from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge, plausible_answer, task_of

CASES = 16
SAMPLES = 3
METRIC = "helpful"
SPEC = {
    "type": "g_eval",
    "name": METRIC,
    "evaluation_steps": ["Check the answer."],
    "evaluation_params": ["input", "actual_output"],
    "judge": {"samples": SAMPLES},
}
# Scores out of 10 per side and case: one after another as the samples arrive. The baseline is
# fragile on c15; the candidate on c0..c2 (median 8: they pass and moved up from 6), and c5
# moved up steadily from 7 to 9.
STEADY = {f"c{index}": [6 + index % 4] for index in range(CASES)}
BASELINE = {**STEADY, "c15": [3, 7, 7]}
CANDIDATE = {**STEADY, "c0": [2, 8, 9], "c1": [2, 8, 9], "c2": [2, 8, 9], "c5": [9]}
BASELINE_FRAGILE, CANDIDATE_FRAGILE = {"c15"}, {"c0", "c1", "c2"}


class Disagreeing:
    """Answers g_eval's scoring calls with the planned scores of the side and case named in the
    output (`answer <side> <case>`), in turn; any other call plausibly."""

    def __init__(self, plans: dict[str, dict[str, list[int]]] | None = None) -> None:
        self.plans = plans or {"baseline": BASELINE, "candidate": CANDIDATE}
        self.calls: dict[tuple[str, str], int] = defaultdict(int)
        self.lock = threading.Lock()

    def __call__(self, request: dict) -> Any:
        if task_of(request) != "g_eval_score":
            return plausible_answer(request)
        found = re.search(r"answer ([a-z]+) (c\d+)", json.dumps(request))
        assert found is not None
        side, case = found.groups()
        with self.lock:
            made = self.calls[(side, case)]
            self.calls[(side, case)] += 1
        planned = self.plans[side][case]
        score = planned[made % len(planned)]
        return {"reason": f"sample {made + 1} gives {side} {case} {score}.", "score": score}


def judged(
    api: Api,
    client: httpx.Client,
    side: str,
    metrics: list[dict] | None = None,
    cases: int = CASES,
) -> str:
    """A completed evaluation of cases c0..c15 (or as many as `cases`) answered as `side`, by
    the judged metric (three samples) and exact_match."""
    test_cases = [
        {
            "id": f"c{index}",
            "input": f"question {index}",
            "actual_output": f"answer {side} c{index}",
            "expected_output": f"answer {side} c{index}",
        }
        for index in range(cases)
    ]
    body = {"test_cases": test_cases, "metrics": metrics or [SPEC, {"type": "exact_match"}]}
    response = client.post("/v1/evaluations", json=body)
    assert response.status_code == 202, response.text
    final = api.wait(client, response.json()["id"])
    assert final["status"] == "completed", final
    return final["id"]


def both_sides(api: Api, client: httpx.Client, judge: ScriptedJudge) -> tuple[str, str]:
    """The baseline's and the candidate's evaluation ids, judged by a disagreeing judge."""
    judge.script(Disagreeing())
    return judged(api, client, "baseline"), judged(api, client, "candidate")
