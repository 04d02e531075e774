"""The metrics fidelity audit's findings, through the HTTP API and the workers: edge cases of
the single-turn judged metrics against the scripted judge."""

from tests.evaluations.test_judged import BLUE, RED, all_results, image, submit
from tests.fixtures.api import Api
from tests.fixtures.judge import Reply, ScriptedJudge, image_parts, task_of
from tests.fixtures.metrics import user_text
from tests.judges.test_reply_size import completion


class TestEmptyRetrievalContext:
    def test_precision_and_recall_score_zero_without_a_call(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        # Shown "Retrieval Context (0 nodes):", a judge that answered a verdict anyway made
        # contextual_precision an `invalid_answer` after a repair request (two calls), and
        # contextual_recall scored what the judge said of nodes that do not exist.
        def answer(request: dict) -> dict:
            verdict = {"verdict": "yes", "reason": "Node 1 says so."}
            return {"verdicts": [verdict], "reason": "Supported by node 1."}

        judge.script(answer)
        client = api.tenant_client()
        case = {"input": "What is 2+2?", "expected_output": "4.", "retrieval_context": []}
        metrics = [{"type": "contextual_precision"}, {"type": "contextual_recall"}]
        body = {"test_cases": [case], "metrics": metrics}
        estimate = client.post("/v1/evaluations/estimate", json=body)
        assert estimate.status_code == 200 and estimate.json()["calls"] == 0
        final = submit(api, client, body)
        assert final["result_counts"]["errored"] == 0, all_results(client, final["id"])
        rows = {row["metric"]: row for row in all_results(client, final["id"])}
        for metric in ("contextual_precision", "contextual_recall"):
            row = rows[metric]
            assert (row["score"], row["passed"]) == (0.0, False), row
            assert row["reason"].startswith("The retrieval context is empty")
        assert judge.requests == [] and final["usage"]["calls"] == 0


def _strict_answers(request: dict) -> dict:
    task = task_of(request)
    if task == "answer_relevancy_verdicts":
        return {
            "statements": [
                {"statement": "Paris is the capital.", "verdict": "yes"},
                {"statement": "It is in France.", "verdict": "yes"},
                {"statement": "I like cheese.", "verdict": "no", "reason": "off topic"},
            ],
            "images": [],
            "reason": "Mostly relevant; one aside about cheese.",
        }
    if task == "contextual_precision_verdicts":
        verdicts = [{"verdict": "no", "reason": "x"}, {"verdict": "yes", "reason": "y"}]
        return {"verdicts": verdicts, "reason": "The useful node comes second."}
    raise AssertionError(f"unexpected task {task}")


class TestStrictModeReasons:
    def test_a_clamped_score_says_so_in_its_reason(self, api: Api, judge: ScriptedJudge) -> None:
        # The judge writes its reason before the score is made: strict mode stored 0 with
        # "Mostly relevant" and nothing saying why.
        judge.script(_strict_answers)
        client = api.tenant_client()
        case = {
            "input": "What is the capital of France?",
            "actual_output": "Paris is the capital. It is in France. I like cheese.",
            "expected_output": "Paris.",
            "retrieval_context": ["Lyon is big.", "Paris is the capital of France."],
        }
        metrics = [
            {"type": "answer_relevancy", "strict_mode": True},
            {"type": "answer_relevancy", "name": "lenient"},
            {"type": "contextual_precision", "strict_mode": True},
        ]
        final = submit(api, client, {"test_cases": [case], "metrics": metrics})
        rows = {row["metric"]: row for row in all_results(client, final["id"])}
        strict = rows["answer_relevancy"]
        assert (strict["score"], strict["threshold"], strict["passed"]) == (0.0, 1.0, False)
        assert strict["reason"] == (
            "Strict mode: the score 0.6667 is under the threshold 1, so it is stored as 0. "
            "Mostly relevant; one aside about cheese."
        )
        assert strict["logs"]["unclamped_score"] == 2 / 3
        lenient = rows["lenient"]
        assert lenient["score"] == 2 / 3
        assert lenient["reason"] == "Mostly relevant; one aside about cheese."
        assert "unclamped_score" not in lenient["logs"]
        precision = rows["contextual_precision"]
        assert precision["score"] == 0.0 and precision["reason"].startswith(
            "Strict mode: the score 0.5 is under the threshold 1, so it is stored as 0. "
        )


class TestPenalizedAmbiguity:
    def test_the_reason_is_asked_to_name_unsupported_claims(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        # With penalize_ambiguous_claims an `idk` costs as much as a `no`, but the judge was
        # asked only to name contradicted claims: "no claim is contradicted" came with 0.5.
        prompts: dict[str, str] = {}

        def answer(request: dict) -> dict:
            task = task_of(request)
            if task == "faithfulness_truths":
                return {"truths": ["Paris is the capital of France."]}
            prompts[str(request["messages"][0]["content"])] = task
            claims = [
                {"claim": "Paris is the capital of France.", "verdict": "yes"},
                {"claim": "Paris has 2 million people.", "verdict": "idk", "reason": "unsaid"},
            ]
            return {"claims": claims, "reason": "Nothing is contradicted; the size is unsaid."}

        judge.script(answer)
        client = api.tenant_client()
        case = {
            "input": "Tell me about Paris.",
            "actual_output": "Paris is the capital of France. Paris has 2 million people.",
            "retrieval_context": ["Paris is the capital of France."],
        }
        metrics = [
            {"type": "faithfulness", "penalize_ambiguous_claims": True},
            {"type": "faithfulness", "name": "default"},
        ]
        final = submit(api, client, {"test_cases": [case], "metrics": metrics})
        rows = {row["metric"]: row["score"] for row in all_results(client, final["id"])}
        assert rows == {"faithfulness": 0.5, "default": 1.0}
        penalized = [p for p in prompts if "count as unfaithful" in p]
        assert len(prompts) == 2 and len(penalized) == 1
        assert "those the truths do not support" in penalized[0]


class TestRuleFirstReason:
    def test_a_score_the_rule_made_is_explained_as_the_rules(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        # rule_first keeps max(rule, judge): ROUGE-L recall 0.5 against the judge's B stored
        # 0.5 with the judge's "incorrect" reasoning as its whole reason.
        judge.script(lambda request: {"reasoning": "It misses 'on white'.", "verdict": "B"})
        client = api.tenant_client()
        case = {
            "input": "What is shown?",
            "actual_output": "a red circle",
            "expected_output": "red circle on white",
        }
        metrics = [
            {"type": "llm_accuracy", "rule_first": True},
            {"type": "llm_accuracy", "name": "judge_only"},
        ]
        final = submit(api, client, {"test_cases": [case], "metrics": metrics})
        rows = {row["metric"]: row for row in all_results(client, final["id"])}
        ruled = rows["llm_accuracy"]
        assert (ruled["score"], ruled["passed"]) == (0.5, True)
        assert ruled["reason"] == (
            "The judge found the prediction incorrect (B), but ROUGE-L recall is 0.5000, and "
            "the score is the better of the two: 0.5000. The judge: It misses 'on white'."
        )
        assert rows["judge_only"]["score"] == 0.0
        assert rows["judge_only"]["reason"] == "It misses 'on white'."


class TestBooleanScores:
    def test_true_is_no_score(self, api: Api, judge: ScriptedJudge) -> None:
        # JSON's true was read as 1: a strict G-Eval passed on "score": true, and an image
        # scored 0.1 on a 0-10 scale.
        def answer(request: dict) -> dict:
            if task_of(request) == "g_eval_score":
                return {"reason": "Meets every step.", "score": True}
            return {"reasoning": "Fits.", "score": True}

        judge.script(answer)
        client = api.tenant_client()
        case = {
            "input": "Describe it.",
            "actual_output": ["A red circle:", image(RED), "as asked."],
        }
        metrics = [
            {
                "type": "g_eval",
                "name": "strict",
                "criteria": "Is it correct?",
                "evaluation_steps": ["Check it."],
                "evaluation_params": ["input", "actual_output"],
                "strict_mode": True,
            },
            {"type": "image_coherence"},
        ]
        final = submit(api, client, {"test_cases": [case], "metrics": metrics})
        rows = {row["metric"]: row for row in all_results(client, final["id"])}
        for metric in ("strict", "image_coherence"):
            row = rows[metric]
            assert (row["score"], row["passed"]) == (None, None), row
            assert row["error"]["type"] == "judge_malformed"
            assert "give a number, not true or false" in row["error"]["message"]
        # Each asked once more to repair its answer.
        assert final["usage"]["calls"] == 4


class TestHalfCharacters:
    def test_a_lone_surrogate_in_a_reply_is_stored_as_a_replacement(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        # Half an emoji (a lone UTF-16 surrogate) in a judge's reason, escaped in its JSON or
        # in the chat completion around it, could not be encoded for the database: the job
        # failed its write again and again and the evaluation stayed in_progress.
        replies = {
            "escaped": '{"reason": "Good \\ud83d answer", "score": 7}',
            "raw": '{"reason": "Good \ud83d answer", "score": 7}',
            "paired": '{"reason": "Good \\ud83d\\ude00 answer", "score": 7}',
        }

        def answer(request: dict) -> Reply:
            content = next(reply for name, reply in replies.items() if name in user_text(request))
            # json.dumps writes the raw surrogate as an escape in the completion's JSON.
            return Reply(raw_body=completion(content))

        judge.script(answer)
        client = api.tenant_client()
        cases = [{"id": name, "input": "q", "actual_output": name} for name in replies]
        metric = {
            "type": "g_eval",
            "name": "g",
            "criteria": "c",
            "evaluation_steps": ["s"],
            "evaluation_params": ["actual_output"],
            "top_logprobs": 0,
        }
        final = submit(api, client, {"test_cases": cases, "metrics": [metric]})
        assert final["status"] == "completed", final
        reasons = {row["test_case_id"]: row["reason"] for row in all_results(client, final["id"])}
        assert reasons == {
            "escaped": "Good \ufffd answer",
            "raw": "Good \ufffd answer",
            "paired": "Good \U0001f600 answer",
        }


class TestScoresAtTheThreshold:
    def test_a_score_equal_to_the_threshold_passes(self, api: Api, judge: ScriptedJudge) -> None:
        # Float steps put both under a threshold equal to their exact value: images scored
        # 7 and 1 gave 0.39999999999999997 (threshold 0.4 failed), precision over [yes, no,
        # yes] 0.8333333333333333 (threshold 5/6 failed).
        def answer(request: dict) -> dict:
            if task_of(request) == "contextual_precision_verdicts":
                verdicts = [{"verdict": word, "reason": "r"} for word in ("yes", "no", "yes")]
                return {"verdicts": verdicts, "reason": "Nodes 1 and 3."}
            return {"reasoning": "r", "score": 7 if image_parts(request) == [RED] else 1}

        judge.script(answer)
        client = api.tenant_client()
        case = {
            "input": "q",
            "actual_output": ["A red one:", image(RED), "and a blue one:", image(BLUE), "."],
            "expected_output": "e",
            "retrieval_context": ["a", "b", "c"],
        }
        metrics = [
            {"type": "image_coherence", "threshold": 0.4},
            {"type": "contextual_precision", "threshold": 5 / 6},
        ]
        final = submit(api, client, {"test_cases": [case], "metrics": metrics})
        rows = {row["metric"]: row for row in all_results(client, final["id"])}
        assert (rows["image_coherence"]["score"], rows["image_coherence"]["passed"]) == (0.4, True)
        precision = rows["contextual_precision"]
        assert (precision["score"], precision["passed"]) == (5 / 6, True)


class TestEmptyReason:
    def test_an_empty_reason_is_asked_again_then_an_error(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        # Every score is stored with its reason: "reason": "" (or spaces) was stored as the
        # result's reason. Now it is an answer off its shape: one repair request, and a second
        # empty one is `judge_malformed`, as any other unusable answer.
        asked: dict[str, int] = {}

        def answer(request: dict) -> dict:
            text = user_text(request)
            which = "repaired" if "q-repaired" in text else "empty"
            asked[which] = asked.get(which, 0) + 1
            if which == "repaired" and asked[which] > 1:
                return {"reason": "Answers the question.", "score": 8}
            return {"reason": "  ", "score": 8}

        judge.script(answer)
        client = api.tenant_client()
        metric = {
            "type": "g_eval",
            "name": "reasoned",
            "evaluation_steps": ["Check that the output answers the input."],
            "evaluation_params": ["input", "actual_output"],
        }
        cases = [
            {"input": "q-repaired", "actual_output": "a"},
            {"input": "q-empty", "actual_output": "a"},
        ]
        final = submit(api, client, {"test_cases": cases, "metrics": [metric]})
        rows = {row["test_case_index"]: row for row in all_results(client, final["id"])}
        repaired, empty = rows[0], rows[1]
        assert repaired["error"] is None, repaired
        assert repaired["reason"] == "Answers the question."
        assert repaired["usage"]["calls"] == 2
        assert (empty["score"], empty["passed"]) == (None, None), empty
        assert empty["error"]["type"] == "judge_malformed"
        assert "reason" in empty["error"]["message"]
        assert empty["usage"]["calls"] == 2
