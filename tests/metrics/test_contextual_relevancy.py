"""contextual_relevancy against the scripted judge."""

import pytest

from app.metrics import parse_spec
from tests.fixtures.judge import ScriptedJudge, image_parts
from tests.fixtures.metrics import by_task, case, run_metric, user_text

PNG = "data:image/png;base64,iVBORw0KGgo="
SPEC = {"type": "contextual_relevancy"}


def image(url: str) -> dict:
    return {"type": "image_url", "image_url": {"url": url}}


def node(number: int, *verdicts: str) -> dict:
    return {
        "node": number,
        "verdicts": [{"statement": f"n{number}s{i}", "verdict": v} for i, v in enumerate(verdicts)],
    }


def answer(*nodes: dict) -> dict:
    return {"nodes": list(nodes), "reason": "summary"}


class TestContextualRelevancy:
    def test_yes_over_every_nodes_verdicts(self, judge: ScriptedJudge) -> None:
        judge.script(
            by_task(
                {
                    "contextual_relevancy_verdicts": answer(
                        node(1, "yes", "no"), node(2, "idk", "yes", "yes")
                    )
                }
            )
        )
        result = run_metric(judge, SPEC, case(retrieval_context=["a. b.", "c. d. e."]))
        # idk does not count as relevant (unlike answer_relevancy).
        assert result.score == pytest.approx(3 / 5)
        assert (result.passed, result.reason, result.usage.calls) == (True, "summary", 1)
        assert "(2 nodes)" in user_text(judge.requests[0])

    def test_an_image_node_is_one_statement(self, judge: ScriptedJudge) -> None:
        judge.script(
            by_task({"contextual_relevancy_verdicts": answer(node(1, "no"), node(2, "yes", "yes"))})
        )
        context = ["Unrelated text.", [image(PNG)]]
        result = run_metric(judge, SPEC, case(retrieval_context=context))
        assert image_parts(judge.requests[0]) == [PNG]
        assert "Node 2 (image):" in user_text(judge.requests[0])
        # Two verdicts on one image (once: the second dropped) are asked again, then an error.
        assert (result.score, result.error.type, result.usage.calls) == (None, "invalid_answer", 2)
        assert "2 verdict(s) for image node 2, not 1" in result.error.message

    def test_an_image_node_with_one_verdict_is_scored(self, judge: ScriptedJudge) -> None:
        judge.script(
            by_task({"contextual_relevancy_verdicts": answer(node(1, "no"), node(2, "yes"))})
        )
        result = run_metric(judge, SPEC, case(retrieval_context=["Unrelated.", [image(PNG)]]))
        assert result.score == 0.5
        assert [n["kind"] for n in result.logs["nodes"]] == ["text", "image"]

    def test_each_node_names_the_passage_it_comes_from(self, judge: ScriptedJudge) -> None:
        # A caption and its image are two nodes of one submitted passage.
        judge.script(
            by_task(
                {
                    "contextual_relevancy_verdicts": answer(
                        node(1, "no"), node(2, "yes"), node(3, "yes"), node(4, "no")
                    )
                }
            )
        )
        context = ["Unrelated.", ["The museum:", image(PNG)], "Closed Tuesdays."]
        result = run_metric(judge, SPEC, case(retrieval_context=context))
        assert [(n["node"], n["passage"], n["kind"]) for n in result.logs["nodes"]] == [
            (1, 1, "text"),
            (2, 2, "text"),
            (3, 2, "image"),
            (4, 3, "text"),
        ]

    def test_verdicts_for_unknown_nodes_are_an_invalid_answer(self, judge: ScriptedJudge) -> None:
        # Once dropped, scoring 1.0 on node 1's verdict alone.
        judge.script(
            by_task({"contextual_relevancy_verdicts": answer(node(1, "yes"), node(7, "no"))})
        )
        result = run_metric(judge, SPEC, case(retrieval_context=["a"]))
        assert (result.score, result.error.type) == (None, "invalid_answer")
        assert "node(s) 7, which do not exist" in result.error.message

    def test_nodes_without_statements_score_zero(self, judge: ScriptedJudge) -> None:
        judge.script(by_task({"contextual_relevancy_verdicts": answer(node(1), node(2))}))
        result = run_metric(judge, SPEC, case(retrieval_context=["a", "b"]))
        assert (result.score, result.passed, result.error) == (0.0, False, None)

    def test_a_node_left_unjudged_is_a_judge_error(self, judge: ScriptedJudge) -> None:
        # Once left out of the score: 2 yes of 3 verdicts on nodes 1 and 2 gave 0.667. deepeval
        # asks node by node, so its judge cannot leave one out.
        judge.script(
            by_task({"contextual_relevancy_verdicts": answer(node(1, "yes", "no"), node(2, "yes"))})
        )
        context = ["a. b.", "c.", "third node never judged"]
        result = run_metric(judge, SPEC, case(retrieval_context=context))
        assert (result.score, result.passed) == (None, None)
        assert result.error.type == "invalid_answer"
        assert "no verdicts for node(s) 3 (of 3 nodes)" in result.error.message
        assert result.usage.calls == 2  # the reply and one repair request

    def test_an_image_node_without_a_verdict_is_a_judge_error(self, judge: ScriptedJudge) -> None:
        judge.script(by_task({"contextual_relevancy_verdicts": answer(node(1, "yes"), node(2))}))
        result = run_metric(judge, SPEC, case(retrieval_context=["a", [image(PNG)]]))
        assert result.error.type == "invalid_answer"
        assert "0 verdict(s) for image node 2, not 1" in result.error.message

    def test_no_answer_at_all_is_a_judge_error(self, judge: ScriptedJudge) -> None:
        # Once scored 0 as "no verdicts".
        judge.script(by_task({"contextual_relevancy_verdicts": answer()}))
        result = run_metric(judge, SPEC, case(retrieval_context=["a"]))
        assert result.error.type == "invalid_answer"
        assert "no verdicts for node(s) 1 " in result.error.message

    def test_unreadable_verdicts_are_a_judge_error(self, judge: ScriptedJudge) -> None:
        # Once dropped: every verdict unreadable scored 0 instead of failing.
        judge.script(
            by_task({"contextual_relevancy_verdicts": answer(node(1, "partially", "unclear"))})
        )
        result = run_metric(judge, SPEC, case(retrieval_context=["a. b."]))
        assert (result.score, result.passed) == (None, None)
        assert result.error.type == "judge_malformed"
        assert "field nodes.0.verdicts" in result.error.message
        assert "'partially', 'unclear'" in result.error.message
        assert result.usage.calls == 2  # the reply and one repair request

    def test_an_empty_context_scores_zero_without_a_call(self, judge: ScriptedJudge) -> None:
        result = run_metric(judge, SPEC, case(retrieval_context=[]))
        assert (result.score, result.usage.calls, judge.requests) == (0.0, 0, [])

    def test_strict_mode(self, judge: ScriptedJudge) -> None:
        judge.script(by_task({"contextual_relevancy_verdicts": answer(node(1, "yes", "no"))}))
        result = run_metric(judge, {**SPEC, "strict_mode": True}, case(retrieval_context=["a"]))
        assert (result.score, result.threshold, result.passed) == (0.0, 1.0, False)


def test_actual_output_is_not_required() -> None:
    # deepeval requires it, then never reads it.
    assert parse_spec(SPEC).required_test_case_fields() == ("input", "retrieval_context")
