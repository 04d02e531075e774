"""Console pages over HTTP (both backends), as the audit of issue 24 read them: a metric named as
its type is named once on the test-case page, the results table gives the threshold its own
column (not "1 / 0.5"), and every error type a result can carry is said in plain words with the
stored message beneath it, on the test-case, evaluation and run pages."""

import ast
import json
import re
from pathlib import Path
from typing import Any, get_args

import httpx

from app.console import views
from app.judges._errors import FailureKind
from app.metrics._templates import RenderError
from tests.comparisons.helpers import quiz_dataset
from tests.console.helpers import signed_in
from tests.console.test_pages_lists import visible_text
from tests.fixtures.api import Api
from tests.fixtures.judge import Reply, ScriptedJudge, plausible_answer, task_of
from tests.runs.helpers import wait_run

APP = Path(__file__).resolve().parents[2] / "app"
# The roles a model endpoint is called in (`JudgeEndpoint.role`): errors are `<role>_<kind>`.
ROLES = ("judge", "candidate")
# What contextual precision's misfit answer (4 verdicts for 1 node) is stored as.
MISFIT = "4 verdict(s) for 1 retrieval-context node(s)"
INVALID_ANSWER = views.plain_error({"type": "invalid_answer", "message": ""})


def misfit_precision(request: dict) -> Reply | dict:
    """Four verdicts for the one retrieval node, asked and repaired alike: `invalid_answer`."""
    if task_of(request) == "contextual_precision_verdicts":
        verdicts = [{"verdict": "yes", "reason": "r"}] * 4
        return Reply(content=json.dumps({"verdicts": verdicts, "reason": "s"}))
    return plausible_answer(request)


def evaluation(api: Api, client: httpx.Client) -> dict[str, Any]:
    """One case under faithfulness, exact_match and contextual_precision (named as their
    types) and a G-Eval named "helpfulness", thresholds 0.5 and exact_match's 1."""
    response = client.post(
        "/v1/evaluations",
        json={
            "name": "audit",
            "test_cases": [
                {
                    "id": "logo",
                    "input": "What does the logo show?",
                    "actual_output": "A red circle.",
                    "expected_output": "A red circle.",
                    "retrieval_context": ["The logo is a red circle."],
                }
            ],
            "metrics": [
                {"type": "faithfulness"},
                {"type": "exact_match"},
                {"type": "contextual_precision"},
                {
                    "type": "g_eval",
                    "name": "helpfulness",
                    "criteria": "Does the output answer the input?",
                    "evaluation_params": ["input", "actual_output"],
                },
            ],
        },
    )
    assert response.status_code == 202, response.text
    return api.wait(client, response.json()["id"])


class TestTestCasePage:
    def test_names_once_threshold_labelled_and_invalid_answer_in_words(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(misfit_precision)
        key = api.new_key()
        done = evaluation(api, api.client(key))
        assert done["result_counts"]["errored"] == 1
        console = signed_in(api, key)

        page = console.get(f"/console/evaluations/{done['id']}/cases/0")
        assert page.status_code == 200
        headings = [
            " ".join(visible_text(h).split())
            for h in re.findall(r"<h3>(.*?)</h3>", page.text, re.S)
        ]
        # It read "faithfulness faithfulness", "exact_match exact_match".
        assert headings == [
            "faithfulness",
            "exact_match",
            "contextual_precision",
            "helpfulness g_eval",
        ]
        text = visible_text(page.text)
        assert "threshold 0.5" in text and "threshold 1" in text
        # invalid_answer in words (it was "The metric failed (invalid_answer)."), the stored
        # message beneath it.
        assert "The metric failed" not in text
        alert = r'<div class="alert error-words" role="alert">(.*?)</div>'
        card = re.search(alert, page.text, re.S)
        assert card, page.text
        words, message = re.findall(r"<p[^>]*>(.*?)</p>", card.group(1), re.S)
        assert visible_text(words).strip() == INVALID_ANSWER
        assert MISFIT in visible_text(message) and "(invalid_answer)" in visible_text(message)

    def test_results_table_gives_the_threshold_its_own_column(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(misfit_precision)
        key = api.new_key()
        done = evaluation(api, api.client(key))
        html = signed_in(api, key).get(f"/console/evaluations/{done['id']}").text
        head = re.search(r"<table class=\"list results\">\s*<thead>(.*?)</thead>", html, re.S)
        assert head
        columns = [visible_text(th).strip() for th in re.findall(r"<th[^>]*>(.*?)</th>", head[1])]
        assert columns == ["Test case", "Metric", "Score", "Threshold", "Outcome", "Reason"]
        scores = re.findall(r'<td class="num" data-label="Score">(.*?)</td>', html, re.S)
        thresholds = re.findall(
            r'<td class="num threshold" data-label="Threshold">(.*?)</td>', html, re.S
        )
        # "1 / 1" and "0.5 / 0.5" read as "out of": the score alone, the threshold beside it.
        assert all("/" not in cell for cell in scores), scores
        assert [visible_text(cell).strip() for cell in thresholds] == ["0.5", "1", "0.5", "0.5"]
        assert [visible_text(cell).strip() for cell in scores][1] == "1"
        text = visible_text(html)
        assert INVALID_ANSWER in text and MISFIT in text
        assert "The metric failed" not in text


G_EVAL_1_TO_5 = {
    "type": "g_eval",
    "name": "shape",
    "evaluation_steps": ["Check the shape."],
    "evaluation_params": ["input", "actual_output"],
    "rubric": [
        {"score_range": [1, 2], "expected_outcome": "wrong shape"},
        {"score_range": [3, 5], "expected_outcome": "right shape"},
    ],
    "top_logprobs": 0,
}


class TestRunPage:
    def test_a_sample_error_is_said_in_words_with_its_message(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        # A 9 on a 1-to-5 rubric, asked and repaired alike: invalid_answer on every sample.
        judge.script(lambda request: {"reason": "r", "score": 9})
        key = api.new_key()
        client = api.client(key)
        dataset = quiz_dataset(client, rows=2)
        response = client.post(
            "/v1/runs",
            json={
                "name": "misfit run",
                "dataset_id": dataset,
                "predictions": [{"index": i, "prediction": "ANSWER: A"} for i in range(2)],
                "limit": 2,
                "metrics": [G_EVAL_1_TO_5],
            },
        )
        assert response.status_code == 202, response.text
        final = wait_run(api, client, response.json()["id"])
        assert final["completed_with_errors"] is True
        html = signed_in(api, key).get(f"/console/runs/{final['id']}").text
        text = visible_text(html)
        assert "The metric failed" not in text
        assert text.count(f"shape: {INVALID_ANSWER}") == 2
        assert text.count("score 9 is outside the asked range 1 to 5") == 2


def _codes_in_source() -> set[str]:
    """Every error type app/ can store on a result or an evaluation: the first argument of
    MetricError/JudgeError (and the judge client's `_error`), `<role>_<kind>` f-strings for
    each role, `{"type": ..., "message": ...}` dicts, the judge's failure kinds and the
    template errors' types."""
    codes: set[str] = set()
    makers = {"MetricError", "JudgeError", "_error"}
    for path in APP.rglob("*.py"):
        if "console" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                if name not in makers:
                    continue
                first = node.args[0] if node.args else None
                for keyword in node.keywords:
                    if keyword.arg in ("type", "type_"):
                        first = keyword.value
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    codes.add(first.value)
                elif isinstance(first, ast.JoinedStr):
                    tail = first.values[-1]
                    if isinstance(tail, ast.Constant) and str(tail.value).startswith("_"):
                        codes.update(f"{role}{tail.value}" for role in ROLES)
            elif isinstance(node, ast.Dict):
                keys = [k.value for k in node.keys if isinstance(k, ast.Constant)]
                if "type" in keys and "message" in keys:
                    value = node.values[keys.index("type")]
                    if isinstance(value, ast.Constant) and isinstance(value.value, str):
                        codes.add(value.value)
    kinds = [*get_args(FailureKind), "auth", "quota", "bad_request", "error", "blocked"]
    codes.update(f"{role}_{kind}" for role in ROLES for kind in kinds)
    pending = [RenderError]
    while pending:
        kind = pending.pop()
        codes.add(kind.type)
        pending.extend(kind.__subclasses__())
    return codes


class TestErrorWords:
    def test_every_error_type_in_the_code_has_its_words(self) -> None:
        codes = _codes_in_source()
        # The scan finds the types the audit named, and those of every family.
        assert {
            "invalid_answer",
            "judge_malformed",
            "judge_timeout",
            "candidate_blocked",
            "input_too_long",
            "invalid_test_case",
            "budget_exceeded",
            "non_finite_score",
            "template_variable_missing",
            "dispatch_exhausted",
        } <= codes, codes
        unsaid = [
            code
            for code in sorted(codes)
            if views.plain_error({"type": code, "message": ""})
            == views.UNKNOWN_ERROR.format(kind=code)
        ]
        assert unsaid == [], f"error types without plain words in app/console/views.py: {unsaid}"

    def test_an_unknown_type_still_names_itself(self) -> None:
        assert views.plain_error({"type": "surprise", "message": ""}) == (
            "The metric failed (surprise)."
        )
