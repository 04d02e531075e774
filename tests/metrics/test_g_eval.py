"""g_eval against the scripted judge: logprob weighting, rubric, strict mode, templates."""

import json

import pytest
from pydantic import ValidationError

from app.metrics import parse_spec
from tests.fixtures.api import Api
from tests.fixtures.judge import Reply, ScriptedJudge, image_parts, logprob_tokens
from tests.fixtures.metrics import by_task, case, run_metric, run_metrics, user_text

SPEC = {
    "type": "g_eval",
    "name": "correctness",
    "criteria": "Is the actual output correct for the input?",
    "evaluation_params": ["input", "actual_output"],
}
STEPS = {"steps": ["Read the input.", "Check the output."]}


def scored(
    score: int, alternatives: dict[str, float] | None = None, reason: str = "Score 7? no"
) -> Reply:
    """A score reply; `alternatives` are the digit probabilities at the score token."""
    content = json.dumps({"reason": reason, "score": score})
    position = content.rindex(str(score))
    tokens = logprob_tokens(content, {position: alternatives} if alternatives else None)
    return Reply(content=content, logprobs=tokens)


def tc(**fields):
    return case(**{"actual_output": "Paris", **fields})


class TestScore:
    def test_logprob_weighted(self, judge: ScriptedJudge) -> None:
        judge.script(
            by_task(
                {"g_eval_steps": STEPS, "g_eval_score": scored(7, {"7": 0.6, "8": 0.3, "6": 0.1})}
            )
        )
        result = run_metric(judge, SPEC, tc())
        assert result.logs["score_mode"] == "logprob_weighted"
        assert result.logs["weighted_score"] == pytest.approx(7.2)
        assert result.score == pytest.approx(0.72)
        assert result.reason == "Score 7? no"
        assert judge.calls_for("g_eval_score")[0]["top_logprobs"] == 20

    def test_unlikely_and_non_digit_alternatives_are_ignored(self, judge: ScriptedJudge) -> None:
        judge.script(
            by_task(
                {"g_eval_steps": STEPS, "g_eval_score": scored(7, {"7": 0.5, "9": 0.005, "x": 0.4})}
            )
        )
        assert run_metric(judge, SPEC, tc()).score == pytest.approx(0.7)

    def test_without_logprobs_uses_the_integer_and_says_so(self, judge: ScriptedJudge) -> None:
        judge.script(
            by_task({"g_eval_steps": STEPS, "g_eval_score": {"reason": "fine", "score": 8}})
        )
        result = run_metric(judge, SPEC, tc())
        assert result.score == pytest.approx(0.8)
        assert result.logs["score_mode"] == "raw_integer"
        assert result.logs["score_mode_reason"] == "the judge returned no logprobs"

    def test_no_token_spelling_the_score_uses_the_integer(self, judge: ScriptedJudge) -> None:
        content = json.dumps({"reason": "fine", "score": 7})
        # Digit tokens, but none of them is the score: they belong to another reply.
        tokens = logprob_tokens('{"score": 8}', {10: {"8": 0.5, "9": 0.5}})
        judge.script(
            by_task(
                {"g_eval_steps": STEPS, "g_eval_score": Reply(content=content, logprobs=tokens)}
            )
        )
        result = run_metric(judge, SPEC, tc())
        assert result.score == pytest.approx(0.7)
        assert result.logs["score_mode"] == "raw_integer"
        assert (
            result.logs["score_mode_reason"] == "no token in the logprobs spells the score exactly"
        )

    def test_tokens_match_exactly_as_in_deepeval(self, judge: ScriptedJudge) -> None:
        content = json.dumps({"reason": "fine", "score": 7})
        # A tokenizer that glues the space to the digit: deepeval finds no score token.
        spaced = {
            "token": " 7",
            "logprob": 0.0,
            "top_logprobs": [{"token": " 7", "logprob": -0.1}, {"token": " 9", "logprob": -2.4}],
        }
        judge.script(
            by_task(
                {"g_eval_steps": STEPS, "g_eval_score": Reply(content=content, logprobs=[spaced])}
            )
        )
        result = run_metric(judge, SPEC, tc())
        assert result.logs["score_mode"] == "raw_integer" and result.score == pytest.approx(0.7)

    def test_a_model_refusing_many_logprobs_gets_fewer(self, judge: ScriptedJudge) -> None:
        def score(request: dict) -> Reply:
            if request.get("top_logprobs", 0) > 5:
                return Reply(status=400, content="top_logprobs above the limit of this model")
            return scored(7, {"7": 0.5, "9": 0.5})

        judge.script(by_task({"g_eval_steps": STEPS, "g_eval_score": score}))
        result = run_metric(judge, SPEC, tc())
        assert result.logs["score_mode"] == "logprob_weighted"
        assert result.score == pytest.approx(0.8)
        assert result.logs["top_logprobs"] == 5
        assert [r.get("top_logprobs") for r in judge.calls_for("g_eval_score")] == [20, 5]

    def test_a_model_refusing_logprobs_says_so(self, judge: ScriptedJudge) -> None:
        def score(request: dict) -> Reply | dict:
            if request.get("logprobs"):
                return Reply(status=400, content="This model does not support logprobs.")
            return {"reason": "fine", "score": 6}

        judge.script(by_task({"g_eval_steps": STEPS, "g_eval_score": score}))
        result = run_metric(judge, SPEC, tc())
        assert result.error is None and result.score == pytest.approx(0.6)
        assert result.logs["score_mode"] == "raw_integer"
        assert result.logs["score_mode_reason"] == (
            "the judge endpoint refuses logprobs for this model: "
            "This model does not support logprobs."
        )
        assert result.usage.calls == 2  # steps and score; the refusals are not calls

    def test_passed_when_the_score_equals_the_threshold(self, judge: ScriptedJudge) -> None:
        judge.script(by_task({"g_eval_steps": STEPS, "g_eval_score": {"reason": "r", "score": 7}}))
        result = run_metric(judge, {**SPEC, "threshold": 0.7}, tc())
        assert (result.score, result.passed) == (0.7, True)

    def test_top_logprobs_zero_requests_none(self, judge: ScriptedJudge) -> None:
        judge.script(
            by_task({"g_eval_steps": STEPS, "g_eval_score": scored(4, {"4": 0.5, "5": 0.5})})
        )
        result = run_metric(judge, {**SPEC, "top_logprobs": 0}, tc())
        assert result.score == pytest.approx(0.4)
        assert "logprobs" not in judge.calls_for("g_eval_score")[0]
        assert result.logs["score_mode_reason"] == "top_logprobs is 0"

    def test_rubric_span_normalises(self, judge: ScriptedJudge) -> None:
        rubric = [
            {"score_range": [0, 2], "expected_outcome": "wrong"},
            {"score_range": [3, 8], "expected_outcome": "right"},
        ]
        judge.script(by_task({"g_eval_steps": STEPS, "g_eval_score": {"reason": "r", "score": 6}}))
        result = run_metric(judge, {**SPEC, "rubric": rubric}, tc())
        assert result.score == pytest.approx(6 / 8)
        prompt = user_text(judge.calls_for("g_eval_score")[0])
        assert "0-2: wrong" in prompt and "3-8: right" in prompt and "from 0" in prompt

    @pytest.mark.parametrize(("raw", "expected"), [(5, 1.0), (3, None)])
    def test_single_point_rubric_has_no_division_by_zero(
        self, judge: ScriptedJudge, raw, expected
    ) -> None:
        rubric = [{"score_range": [5, 5], "expected_outcome": "exactly right"}]
        judge.script(
            by_task({"g_eval_steps": STEPS, "g_eval_score": {"reason": "r", "score": raw}})
        )
        # A 3 is outside the only range asked for.
        assert run_metric(judge, {**SPEC, "rubric": rubric}, tc()).score == expected

    def test_out_of_range_score_is_an_invalid_answer(self, judge: ScriptedJudge) -> None:
        # Once clamped: a 14 on 0-10 scored 1.0 and passed.
        judge.script(by_task({"g_eval_steps": STEPS, "g_eval_score": {"reason": "r", "score": 14}}))
        result = run_metric(judge, SPEC, tc())
        assert (result.score, result.error.type) == (None, "invalid_answer")
        assert "score 14 is outside the asked range 0 to 10" in result.error.message

    @pytest.mark.parametrize(("raw", "score", "passed"), [(1, 1.0, True), (0, 0.0, False)])
    def test_strict_mode_is_binary(self, judge: ScriptedJudge, raw, score, passed) -> None:
        judge.script(
            by_task({"g_eval_steps": STEPS, "g_eval_score": {"reason": "r", "score": raw}})
        )
        result = run_metric(judge, {**SPEC, "strict_mode": True}, tc())
        assert (result.score, result.passed, result.threshold) == (score, passed, 1.0)
        request = judge.calls_for("g_eval_score")[0]
        assert "logprobs" not in request and "score 1 only if" in user_text(request)
        assert result.logs["score_mode"] == "strict_binary"


class TestSteps:
    def test_generated_once_for_many_cases(self, judge: ScriptedJudge) -> None:
        judge.script(by_task({"g_eval_steps": STEPS, "g_eval_score": {"reason": "r", "score": 5}}))
        results = run_metrics(judge, SPEC, [tc(index=i, id=str(i)) for i in range(8)])
        assert len(judge.calls_for("g_eval_steps")) == 1
        assert len(judge.calls_for("g_eval_score")) == 8
        assert sum(r.usage.calls for r in results) == 9
        assert all(r.logs["steps"] == STEPS["steps"] for r in results)
        steps_request = judge.calls_for("g_eval_steps")[0]
        assert "Paris" not in user_text(steps_request)  # no test-case content in the steps call

    def test_given_steps_skip_generation(self, judge: ScriptedJudge) -> None:
        judge.script(by_task({"g_eval_score": {"reason": "r", "score": 5}}))
        spec = {**SPEC, "criteria": None, "evaluation_steps": ["Check it is Paris."]}
        result = run_metric(judge, spec, tc())
        assert result.logs["steps_source"] == "given" and result.usage.calls == 1
        assert "1. Check it is Paris." in user_text(judge.requests[0])

    def test_images_go_to_the_score_call_only(self, judge: ScriptedJudge) -> None:
        png = "data:image/png;base64,iVBORw0KGgo="
        judge.script(by_task({"g_eval_steps": STEPS, "g_eval_score": {"reason": "r", "score": 5}}))
        output = ["It is", {"type": "image_url", "image_url": {"url": png}}]
        run_metric(judge, SPEC, tc(actual_output=output))
        assert image_parts(judge.calls_for("g_eval_score")[0]) == [png]
        assert image_parts(judge.calls_for("g_eval_steps")[0]) == []


class TestTemplates:
    def test_overrides_are_used(self, judge: ScriptedJudge) -> None:
        template = {
            "steps": "Loupe task: g_eval_steps\nMY STEPS for {criteria} on {parameters}",
            "results": "Loupe task: g_eval_score\nMY RESULTS {score_min}..{score_max}\n"
            "{steps}\n--case--\n{test_case}\n--end--",
        }
        judge.script(by_task({"g_eval_steps": STEPS, "g_eval_score": {"reason": "r", "score": 5}}))
        run_metric(judge, {**SPEC, "evaluation_template": template}, tc())
        assert "MY STEPS for Is the actual output correct" in user_text(
            judge.calls_for("g_eval_steps")[0]
        )
        text = user_text(judge.calls_for("g_eval_score")[0])
        assert "MY RESULTS 0..10" in text
        assert text.index("--case--") < text.index("Paris") < text.index("--end--")

    @pytest.mark.parametrize(
        "template",
        [
            {"results": "{unknown}"},
            {"steps": "{test_case}"},
            {"strict_results": "{score_min}"},
            {"results": "{steps"},
        ],
    )
    def test_bad_placeholders_are_refused(self, template) -> None:
        with pytest.raises(ValidationError):
            parse_spec({**SPEC, "evaluation_template": template})


class TestValidation:
    @pytest.mark.parametrize(
        "changes",
        [
            {"criteria": None},
            {"evaluation_params": []},
            {"evaluation_params": ["input", "input"]},
            {
                "rubric": [
                    {"score_range": [0, 2], "expected_outcome": "a"},
                    {"score_range": [2, 5], "expected_outcome": "b"},
                ]
            },
            {"rubric": [{"score_range": [0, 11], "expected_outcome": "a"}]},
            {"rubric": [{"score_range": [5, 3], "expected_outcome": "a"}]},
            {"evaluation_steps": []},
            {"name": ""},
            {"top_logprobs": 21},
        ],
    )
    def test_refused(self, changes) -> None:
        with pytest.raises(ValidationError):
            parse_spec({**SPEC, **changes})

    def test_rubric_with_gaps_is_sorted(self) -> None:
        spec = parse_spec(
            {
                **SPEC,
                "rubric": [
                    {"score_range": [6, 10], "expected_outcome": "b"},
                    {"score_range": [0, 3], "expected_outcome": "a"},
                ],
            }
        )
        assert spec.score_range() == (0, 10)
        assert [r.score_range for r in spec.rubric] == [(0, 3), (6, 10)]


class TestTemplatesOverHttp:
    """Only plain `{name}` placeholders: a format spec made a 300-byte request a 300 MB prompt."""

    @pytest.mark.parametrize(
        ("field", "template"),
        [
            ("steps", "{criteria:>300000000}{parameters}"),
            ("steps", "{criteria!r}"),
            ("results", "{steps.__class__} {test_case}"),
            ("strict_results", "{steps[0]} {test_case}"),
            ("results", "{score_min:{score_max}}"),
            ("results", "{} {test_case}"),
            ("results", "{test_case}" + "{steps}" * 16),
        ],
    )
    def test_anything_but_a_plain_placeholder_is_a_422_naming_the_field(
        self, api: Api, field: str, template: str
    ) -> None:
        client = api.tenant_client()
        case = {"input": "What shape?", "actual_output": "A circle."}
        metric = {**SPEC, "evaluation_template": {field: template}}
        response = client.post("/v1/evaluations", json={"test_cases": [case], "metrics": [metric]})
        assert response.status_code == 422, response.text
        assert response.headers["content-type"] == "application/problem+json"
        [error] = response.json()["errors"]
        assert error["loc"] == f"metrics[0].evaluation_template.{field}"
        assert "placeholders" in error["msg"]
        assert client.get("/v1/evaluations").json()["data"] == []

    def test_plain_placeholders_and_literal_braces_are_accepted(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(by_task({"g_eval_steps": STEPS, "g_eval_score": {"reason": "r", "score": 9}}))
        client = api.tenant_client()
        case = {"input": "What shape?", "actual_output": "A circle."}
        template = {
            "steps": "Loupe task: g_eval_steps\n{{literal}} {criteria} {parameters} {parameters}",
            "results": "Loupe task: g_eval_score\n{steps} {test_case} {{x:>9}}",
        }
        metric = {**SPEC, "evaluation_template": template}
        response = client.post("/v1/evaluations", json={"test_cases": [case], "metrics": [metric]})
        assert response.status_code == 202, response.text
        assert api.wait(client, response.json()["id"])["result_counts"]["passed"] == 1
        assert "{literal} Is the actual output" in user_text(judge.calls_for("g_eval_steps")[0])
        assert "{x:>9}" in user_text(judge.calls_for("g_eval_score")[0])
