"""Judge answers that do not fit the question, end to end through the API and the scripted judge.

A well-formed answer that does not answer what was asked (4 verdicts for 1 node, a 10 on a 0-1
scale, a winner that is neither A nor B) was scored as if it did: contextual precision 1.0,
score_model "clamped to 1", both passing. Now the judge is asked once more, saying what did not
fit; a fitting second answer is scored, a second misfit is an errored result
(`invalid_answer`, or `judge_malformed` for verdicts outside the vocabulary and non-numbers) and
nothing of it reaches the judge cache.
"""

import json
from dataclasses import dataclass
from typing import Any

import httpx
import openai
import pytest
from sqlalchemy import select, update

from app.models import Evaluation, JudgeCacheEntry
from tests.evaluations.test_judged import BLUE, RED, all_results, image, submit
from tests.fixtures.api import Api
from tests.fixtures.judge import Reply, ScriptedJudge, logprob_tokens, plausible_answer, task_of

REPAIR_MARKS = ("Your reply does not fit the question", "Your reply could not be used")
# Tasks the plausible answers do not cover, answered well whenever they are not under test.
OTHER_TASKS: dict[str, Any] = {
    "image_perceptual": {"reasoning": "Natural light, no artifacts.", "score": [8, 9]},
}


def verdicts(*values: str) -> str:
    return json.dumps({"verdicts": [{"verdict": v, "reason": "r"} for v in values], "reason": "s"})


def nodes(*per_node: tuple[int, list[str]]) -> str:
    answer = [
        {
            "node": number,
            "verdicts": [{"statement": f"s{i}", "verdict": v} for i, v in enumerate(vs)],
        }
        for number, vs in per_node
    ]
    return json.dumps({"nodes": answer, "reason": "s"})


@dataclass
class Family:
    """One judged metric family: what it asks, a misfit answer, a fitting one, the outcomes."""

    name: str
    metric: dict[str, Any]
    case: dict[str, Any]
    task: str
    misfit: str | Reply
    fitting: str | Reply
    score: float
    error_type: str
    # What the error message and the repair request must name.
    named: str


QA = {"input": "What shape is shown?", "actual_output": "A red circle."}
FAMILIES = [
    Family(
        "contextual_precision: 4 verdicts for 1 node",
        {"type": "contextual_precision"},
        {**QA, "expected_output": "A red circle.", "retrieval_context": ["The logo is red."]},
        "contextual_precision_verdicts",
        verdicts("yes", "yes", "yes", "yes"),
        verdicts("no"),
        0.0,
        "invalid_answer",
        "4 verdict(s) for 1 retrieval-context node(s)",
    ),
    Family(
        "contextual_precision: 3 verdicts for 2 nodes",
        {"type": "contextual_precision"},
        {**QA, "expected_output": "A red circle.", "retrieval_context": ["Red.", "Blue."]},
        "contextual_precision_verdicts",
        verdicts("no", "yes", "yes"),
        verdicts("no", "yes"),
        0.5,
        "invalid_answer",
        "3 verdict(s) for 2 retrieval-context node(s)",
    ),
    Family(
        "contextual_relevancy: a node left out",
        {"type": "contextual_relevancy"},
        {**QA, "retrieval_context": ["The logo is red.", "Sales rose."]},
        "contextual_relevancy_verdicts",
        nodes((1, ["yes"])),
        nodes((1, ["yes"]), (2, ["no"])),
        0.5,
        "invalid_answer",
        "no verdicts for node(s) 2 (of 2 nodes)",
    ),
    Family(
        "answer_relevancy: an output image left unjudged",
        {"type": "answer_relevancy"},
        {"input": "Show the logo.", "actual_output": ["Here it is:", image(RED)]},
        "answer_relevancy_verdicts",
        json.dumps({"statements": [{"statement": "Here it is.", "verdict": "yes"}], "reason": "s"}),
        json.dumps(
            {
                "statements": [{"statement": "Here it is.", "verdict": "yes"}],
                "images": [{"image": 1, "verdict": "no", "reason": "blue?"}],
                "reason": "s",
            }
        ),
        0.5,
        "invalid_answer",
        "image verdicts for [] but the output shows 1 image(s)",
    ),
    Family(
        "faithfulness: verdicts outside yes/no/idk",
        {"type": "faithfulness"},
        {**QA, "retrieval_context": ["The logo is a red circle."]},
        "faithfulness_verdicts",
        json.dumps({"claims": [{"claim": "It is red.", "verdict": "maybe"}], "reason": "s"}),
        json.dumps({"claims": [{"claim": "It is red.", "verdict": "no"}], "reason": "s"}),
        0.0,
        "judge_malformed",
        "1 verdict(s) are not one of borderline, idk, no, yes: 'maybe'",
    ),
    Family(
        "g_eval: a 9 on a 1-to-5 rubric",
        {
            "type": "g_eval",
            "name": "shape",
            "criteria": "Does the output name the shape?",
            "evaluation_params": ["input", "actual_output"],
            "rubric": [
                {"score_range": [1, 2], "expected_outcome": "wrong shape"},
                {"score_range": [3, 5], "expected_outcome": "right shape"},
            ],
            "top_logprobs": 0,
        },
        QA,
        "g_eval_score",
        json.dumps({"reason": "r", "score": 9}),
        json.dumps({"reason": "r", "score": 3}),
        0.5,
        "invalid_answer",
        "score 9 is outside the asked range 1 to 5",
    ),
    Family(
        "g_eval: a non-finite score",
        {
            "type": "g_eval",
            "name": "shape",
            "criteria": "Does the output name the shape?",
            "evaluation_params": ["input", "actual_output"],
            "top_logprobs": 0,
        },
        QA,
        "g_eval_score",
        '{"reason": "r", "score": NaN}',
        json.dumps({"reason": "r", "score": 6}),
        0.6,
        "judge_malformed",
        "field score: Input should be a finite number",
    ),
    Family(
        "g_eval strict mode: a 7 where 0 or 1 was asked for",
        {
            "type": "g_eval",
            "name": "shape",
            "criteria": "Does the output name the shape?",
            "evaluation_params": ["input", "actual_output"],
            "strict_mode": True,
        },
        QA,
        "g_eval_score",
        json.dumps({"reason": "r", "score": 7}),
        json.dumps({"reason": "r", "score": 0}),
        0.0,
        "invalid_answer",
        "score 7 is outside the asked range 0 to 1",
    ),
    Family(
        "contextual_recall: verdicts outside yes/no",
        {"type": "contextual_recall"},
        {**QA, "expected_output": "A red circle.", "retrieval_context": ["The logo is red."]},
        "contextual_recall_verdicts",
        verdicts("partly"),
        verdicts("yes"),
        1.0,
        "judge_malformed",
        "1 verdict(s) are not one of no, yes: 'partly'",
    ),
    Family(
        "llm_accuracy: a verdict other than A or B",
        {"type": "llm_accuracy"},
        {**QA, "expected_output": "A circle."},
        "llm_accuracy",
        json.dumps({"reasoning": "r", "verdict": "C"}),
        json.dumps({"reasoning": "r", "verdict": "A"}),
        1.0,
        "judge_malformed",
        "field verdict: Input should be 'A' or 'B'",
    ),
    Family(
        "text_to_image: a semantic score of 12 on 0-10",
        {"type": "text_to_image"},
        {"input": "A red square.", "actual_output": [image(RED)]},
        "text_to_image_semantic",
        json.dumps({"reasoning": "r", "score": [12]}),
        json.dumps({"reasoning": "r", "score": [2]}),
        (2 * 8) ** 0.5 / 10,
        "invalid_answer",
        "score 12 is outside the asked range 0 to 10",
    ),
    Family(
        "text_to_image: two semantic scores where one was asked for",
        {"type": "text_to_image"},
        {"input": "A red square.", "actual_output": [image(RED)]},
        "text_to_image_semantic",
        json.dumps({"reasoning": "r", "score": [8, 2]}),
        json.dumps({"reasoning": "r", "score": [2]}),
        (2 * 8) ** 0.5 / 10,
        "invalid_answer",
        "2 score(s) where 1 were asked for",
    ),
    Family(
        "image_helpfulness: a score of 15 on 0-10",
        {"type": "image_helpfulness"},
        {"input": "Explain the logo.", "actual_output": ["The logo:", image(BLUE), "It is blue."]},
        "image_helpfulness",
        json.dumps({"reasoning": "r", "score": 15}),
        json.dumps({"reasoning": "r", "score": 4}),
        0.4,
        "invalid_answer",
        "score 15 is outside the asked range 0 to 10",
    ),
    Family(
        "pairwise: a winner that is neither A, B nor tie",
        {"type": "pairwise", "criteria": "Which names the shape?"},
        {**QA, "expected_output": "A shape."},
        "pairwise_preference",
        json.dumps({"reason": "r", "winner": "both"}),
        json.dumps({"reason": "r", "winner": "tie"}),
        0.5,
        "invalid_answer",
        "the winner 'both' is not A, B or tie",
    ),
]


def is_repair(request: dict) -> bool:
    last = request["messages"][-1]["content"]
    return isinstance(last, str) and last.startswith(REPAIR_MARKS)


def responder(family: Family, repaired: str | Reply) -> Any:
    """The family's task answered with its misfit, and its repair request with `repaired`;
    every other task well."""

    def respond(request: dict) -> Any:
        task = task_of(request)
        if task == family.task:
            return repaired if is_repair(request) else family.misfit
        if task in OTHER_TASKS:
            return OTHER_TASKS[task]
        return plausible_answer(request)

    return respond


def evaluate(api: Api, judge: ScriptedJudge, family: Family, repaired: str | Reply) -> tuple:
    """The evaluation of the family's case, its one result, and the judge cache's contents."""
    judge.script(responder(family, repaired))
    client = api.tenant_client()
    final = submit(api, client, {"test_cases": [family.case], "metrics": [family.metric]})
    [result] = all_results(client, final["id"])
    return final, result, cache_contents(api, final["id"])


def cache_contents(api: Api, evaluation_id: str) -> list[str]:
    with api.served.runtime.session() as session:
        scope = session.get(Evaluation, evaluation_id).tenant_id
        return list(
            session.scalars(select(JudgeCacheEntry.content).where(JudgeCacheEntry.scope == scope))
        )


def content(reply: str | Reply) -> str:
    return reply.content if isinstance(reply, Reply) else reply


@pytest.mark.parametrize("family", FAMILIES, ids=[f.name for f in FAMILIES])
class TestMismatchedAnswers:
    def test_a_fitting_repair_is_scored(
        self, api: Api, judge: ScriptedJudge, family: Family
    ) -> None:
        final, result, cached = evaluate(api, judge, family, family.fitting)
        assert final["result_counts"]["errored"] == 0, result["error"]
        assert result["error"] is None
        assert result["score"] == pytest.approx(family.score)
        asked = [r for r in judge.requests if task_of(r) == family.task]
        repairs = [r for r in asked if is_repair(r)]
        assert len(repairs) >= 1
        # The repair request says what did not fit.
        assert family.named in repairs[0]["messages"][-1]["content"]
        # Each repair is a judge call like the others: counted and named in the logs.
        assert result["usage"]["calls"] == len(judge.requests)
        assert final["usage"]["calls"] == len(judge.requests)
        assert "repaired_calls" in result["logs"]
        # Only the fitting answer is kept for the next evaluation asking the same.
        assert content(family.fitting) in cached
        assert content(family.misfit) not in cached

    def test_a_second_misfit_is_an_errored_result(
        self, api: Api, judge: ScriptedJudge, family: Family
    ) -> None:
        final, result, cached = evaluate(api, judge, family, family.misfit)
        assert final["result_counts"]["errored"] == 1 and final["result_counts"]["passed"] == 0
        assert (result["score"], result["passed"]) == (None, None)
        assert result["error"]["type"] == family.error_type
        assert family.named in result["error"]["message"]
        assert result["usage"]["calls"] == len(judge.requests)
        # Asked once more, not again and again.
        asked = [r for r in judge.requests if task_of(r) == family.task]
        assert 2 * len([r for r in asked if is_repair(r)]) == len(asked)
        assert content(family.misfit) not in cached


class TestGEvalLogprobs:
    def test_alternatives_outside_the_range_are_not_weighed(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        # A 4 on a 1-to-5 rubric with "9" as likely as "4": weighed in, the score was 6.5,
        # clamped to 5 and scored 1.0.
        family = next(f for f in FAMILIES if f.name.startswith("g_eval: a 9"))
        metric = {**family.metric, "top_logprobs": 5}
        answer = json.dumps({"reason": "r", "score": 4})
        reply = Reply(
            content=answer,
            logprobs=logprob_tokens(answer, {answer.rindex("4"): {"4": 0.5, "9": 0.5}}),
        )
        judge.script(
            lambda request: (
                reply if task_of(request) == "g_eval_score" else plausible_answer(request)
            )
        )
        client = api.tenant_client()
        final = submit(api, client, {"test_cases": [family.case], "metrics": [metric]})
        [result] = all_results(client, final["id"])
        assert result["logs"]["score_mode"] == "logprob_weighted"
        assert result["logs"]["weighted_score"] == 4.0
        assert result["score"] == pytest.approx(0.75)


def grader_run(
    api: Api, judge: ScriptedJudge, criterion: dict, first: Any, repaired: Any
) -> tuple[Any, dict, list]:
    """An OpenAI Evals run of one grader over one row, the judge answering `first` and its
    repair request `repaired`: the run, its one result (as a Loupe result) and the cache."""

    def respond(request: dict) -> dict:
        result = repaired if is_repair(request) else first
        return {"steps": [{"description": "d", "conclusion": "c"}], "result": result}

    judge.script(respond)
    key = api.new_key()
    http = httpx.Client(trust_env=False, timeout=30)
    client = openai.OpenAI(
        base_url=f"{api.base_url}/v1", api_key=key, http_client=http, max_retries=0
    )
    ev = client.evals.create(
        name="grading",
        data_source_config={
            "type": "custom",
            "item_schema": {"type": "object", "properties": {}},
            "include_sample_schema": True,
        },
        testing_criteria=[criterion],  # type: ignore[list-item]
    )
    rows = [{"item": {}, "sample": {"output_text": "Paris"}}]
    source = {"type": "file_content", "content": rows}
    run = client.evals.runs.create(ev.id, data_source={"type": "jsonl", "source": source})
    final = api.wait(api.client(key), run.id)
    [result] = all_results(api.client(key), run.id)
    http.close()
    return final, result, cache_contents(api, run.id)


class TestLabelModel:
    CRITERION = {
        "type": "label_model",
        "name": "correct",
        "model": "judge-model",
        "labels": ["correct", "incorrect"],
        "passing_labels": ["correct"],
        "input": [{"role": "user", "content": "Label: {{sample.output_text}}"}],
    }

    def test_a_label_outside_the_set_is_repaired(self, api: Api, judge: ScriptedJudge) -> None:
        final, result, cached = grader_run(api, judge, self.CRITERION, "maybe", "incorrect")
        assert (result["score"], result["passed"], result["error"]) == (0.0, False, None)
        assert (
            "field result: Input should be 'correct' or 'incorrect'"
            in (judge.requests[1]["messages"][-1]["content"])
        )
        assert result["usage"]["calls"] == 2 and final["usage"]["calls"] == 2
        assert len(cached) == 1 and '"result": "incorrect"' in cached[0]

    def test_twice_outside_the_set_is_malformed(self, api: Api, judge: ScriptedJudge) -> None:
        final, result, cached = grader_run(api, judge, self.CRITERION, "maybe", "maybe")
        assert final["result_counts"]["errored"] == 1
        assert result["error"]["type"] == "judge_malformed"
        assert "Input should be 'correct' or 'incorrect'" in result["error"]["message"]
        assert result["usage"]["calls"] == 2 and cached == []


class TestScoreModel:
    """score_model is an OpenAI Evals grader: run through /v1/evals with the official client."""

    CRITERION = {
        "type": "score_model",
        "name": "quality",
        "model": "judge-model",
        "range": [0, 1],
        "input": [{"role": "user", "content": "Grade: {{sample.output_text}}"}],
    }

    def run(self, api: Api, judge: ScriptedJudge, repaired: float) -> tuple[Any, dict, list]:
        return grader_run(api, judge, self.CRITERION, 10, repaired)

    def test_a_result_outside_the_range_is_repaired(self, api: Api, judge: ScriptedJudge) -> None:
        # Once "score 10 clamped to 1": a pass.
        final, result, cached = self.run(api, judge, 0.25)
        assert (result["score"], result["passed"], result["error"]) == (0.25, False, None)
        repair = judge.requests[1]["messages"][-1]["content"]
        assert "result 10 is outside the asked range 0 to 1" in repair
        assert result["usage"]["calls"] == 2 and final["usage"]["calls"] == 2
        assert len(cached) == 1 and '"result": 0.25' in cached[0]

    def test_twice_outside_the_range_is_an_invalid_answer(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        final, result, cached = self.run(api, judge, 10)
        assert final["result_counts"]["errored"] == 1
        assert (result["score"], result["passed"]) == (None, None)
        assert result["error"]["type"] == "invalid_answer"
        assert "result 10 is outside the asked range 0 to 1" in result["error"]["message"]
        assert result["usage"]["calls"] == 2 and cached == []


class TestJudgeCache:
    def test_a_stored_answer_that_does_not_fit_is_not_served(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        # An answer stored before answers were checked (4 verdicts for 1 node) must not be
        # scored from the cache: the judge is asked again.
        family = FAMILIES[0]
        judge.script(responder(family, family.fitting))
        client = api.tenant_client()
        body = {"test_cases": [family.case], "metrics": [family.metric]}
        first = submit(api, client, body)
        with api.served.runtime.session() as session:
            scope = session.get(Evaluation, first["id"]).tenant_id
            session.execute(
                update(JudgeCacheEntry)
                .where(JudgeCacheEntry.scope == scope)
                .values(content=content(family.misfit))
            )
            session.commit()
        asked_before = len(judge.requests)
        judge.script(lambda request: family.fitting)
        second = submit(api, client, body)
        [result] = all_results(client, second["id"])
        assert len(judge.requests) == asked_before + 1
        assert result["error"] is None and result["score"] == family.score
        assert result["logs"]["cached_calls"] == 0
        # The fitting answer replaced the unfit one: a third run is answered from the cache.
        third = submit(api, client, body)
        [result] = all_results(client, third["id"])
        assert len(judge.requests) == asked_before + 1
        assert result["error"] is None and result["logs"]["cached_calls"] == 1
