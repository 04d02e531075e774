"""Issue 16's image metrics through the HTTP API and the workers, against the scripted judge."""

import math

import pytest

from tests.evaluations.test_judged import BLUE, RED, all_results, image, submit
from tests.fixtures.api import Api
from tests.fixtures.judge import Reply, ScriptedJudge, image_parts, task_of
from tests.fixtures.metrics import user_text
from tests.metrics.test_measure import overflowing_score


def answer(request: dict) -> dict:
    """A well-formed answer to each of the new metrics' judge tasks."""
    task = task_of(request)
    if task == "answer_relevancy_verdicts":
        return {
            "statements": [{"statement": "It is red.", "verdict": "yes"}],
            "images": [{"image": 1, "verdict": "no", "reason": "off topic"}],
            "reason": "Half relevant.",
        }
    if task == "contextual_relevancy_verdicts":
        return {
            "nodes": [
                {"node": 1, "verdicts": [{"statement": "a", "verdict": "yes"}]},
                {"node": 2, "verdicts": [{"statement": "the image", "verdict": "no"}]},
            ],
            "reason": "One of two.",
        }
    if task == "text_to_image_semantic":
        return {"reasoning": "matches", "score": [9]}
    if task == "image_editing_semantic":
        return {"reasoning": "edited", "score": [8, 6]}
    if task == "image_perceptual":
        return {"reasoning": "clean", "score": [9, 4]}
    if task in ("image_coherence", "image_helpfulness", "image_reference"):
        # The red image fits its text, the blue one does not.
        return {"reasoning": task, "score": 8 if image_parts(request) == [RED] else 2}
    raise AssertionError(f"unexpected task {task}")


METRICS = [
    {"type": "answer_relevancy"},
    {"type": "contextual_relevancy"},
    {"type": "text_to_image"},
    {"type": "image_editing"},
    {"type": "image_coherence", "max_context_size": 20},
    {"type": "image_helpfulness"},
    {"type": "image_reference"},
]


def cases(count: int) -> list[dict]:
    return [
        {
            "id": f"case-{i}",
            "input": [f"Paint the circle red ({i}).", image(BLUE)],
            "actual_output": ["Here is the red circle:", image(RED), "as asked."],
            "retrieval_context": ["Circles can be red.", [image(BLUE)]],
        }
        for i in range(count)
    ]


class TestImageMetrics:
    def test_every_new_metric_with_images(self, api: Api, judge: ScriptedJudge) -> None:
        judge.script(answer)
        client = api.tenant_client()
        final = submit(api, client, {"test_cases": cases(2), "metrics": METRICS})
        assert final["status"] == "completed", final
        assert final["result_counts"]["errored"] == 0
        summary = {m["metric"]: m["mean_score"] for m in final["per_metric"]}
        assert summary["answer_relevancy"] == 0.5
        assert summary["contextual_relevancy"] == 0.5
        assert summary["text_to_image"] == pytest.approx(math.sqrt(9 * 4) / 10)
        assert summary["image_editing"] == pytest.approx(math.sqrt(6 * 4) / 10)
        for metric in ("image_coherence", "image_helpfulness", "image_reference"):
            assert summary[metric] == 0.8
        # Per case: 1 + 1 + 2 + 2 + 3 × 1 image; the perceptual question is the same for
        # text_to_image and image_editing, so the judge cache answers it the second time.
        per_case = 1 + 1 + 2 + 2 + 3
        assert len(judge.requests) <= 2 * per_case
        assert final["usage"]["calls"] == len(judge.requests)
        rows = {(r["test_case_id"], r["metric"]): r for r in all_results(client, final["id"])}
        coherence = rows[("case-0", "image_coherence")]["logs"]["images"]
        assert coherence[0]["text_before"] == "Here is the red circle:"[-20:]
        # The images went through the blob store and came back as data URLs.
        for request in judge.calls_for("image_editing_semantic"):
            assert [url.startswith("data:image/") for url in image_parts(request)] == [True, True]

    @pytest.mark.parametrize(
        ("spec", "case_changes", "locs"),
        [
            (
                {"type": "text_to_image"},
                {"actual_output": [image(RED), image(BLUE)]},
                ["test_cases[0].actual_output"],
            ),
            (
                {"type": "image_editing"},
                {"input": "Paint it red.", "actual_output": "no image"},
                ["test_cases[0].input", "test_cases[0].actual_output"],
            ),
            (
                {"type": "image_reference"},
                {"actual_output": "no image"},
                ["test_cases[0].actual_output"],
            ),
        ],
    )
    def test_image_counts_are_checked_at_submit(
        self, api: Api, spec: dict, case_changes: dict, locs: list[str]
    ) -> None:
        client = api.tenant_client()
        body = {"test_cases": [{**cases(1)[0], **case_changes}], "metrics": [spec]}
        response = client.post("/v1/evaluations", json=body)
        assert response.status_code == 422, response.text
        errors = response.json()["errors"]
        assert [e["loc"] for e in errors] == locs
        assert all(spec["type"] in e["msg"] for e in errors)
        assert client.get("/v1/evaluations").json()["data"] == []


class TestPixelMetrics:
    def test_psnr_and_ssim_through_the_blob_store(self, api: Api, judge: ScriptedJudge) -> None:
        client = api.tenant_client()
        body = {
            "test_cases": [
                {
                    "input": "Restore it.",
                    "actual_output": [image(RED)],
                    "expected_output": [image(RED)],
                },
                # BLUE is 12×16, RED 16×12: resized to the reference's size first.
                {
                    "input": "Restore it.",
                    "actual_output": [image(BLUE)],
                    "expected_output": [image(RED)],
                },
            ],
            "metrics": [{"type": "psnr"}, {"type": "ssim"}],
        }
        final = submit(api, client, body)
        assert final["status"] == "completed" and final["result_counts"]["errored"] == 0
        rows = {(r["test_case_index"], r["metric"]): r for r in all_results(client, final["id"])}
        assert rows[(0, "psnr")]["score"] == 100.0 and rows[(0, "ssim")]["score"] == 1.0
        # Pure red against pure blue: two channels 255 apart, MSE 2·255²/3.
        assert rows[(1, "psnr")]["score"] == pytest.approx(10 * math.log10(3 / 2))
        assert rows[(1, "psnr")]["logs"]["resized"] is True
        assert rows[(1, "ssim")]["passed"] is False
        assert judge.requests == [] and final["usage"]["calls"] == 0
        # Every result says what its score is (they had no reason at all).
        assert rows[(0, "psnr")]["reason"] == (
            "The images are identical (both images 16x12): PSNR is infinite, stored as max_db, "
            "100 dB."
        )
        assert rows[(1, "psnr")]["reason"].startswith(
            f"PSNR is {10 * math.log10(3 / 2):.2f} dB (mean squared error 4.335e+04 per 8-bit "
            "channel value; the actual image resized from 12x16 to the expected image's 16x12); "
            "under the threshold of 30 dB."
        )
        assert rows[(0, "ssim")]["reason"].startswith("SSIM is 1.0000 (1 is identical")
        ssim = rows[(1, "ssim")]
        assert f"SSIM is {ssim['score']:.4f} " in ssim["reason"]
        assert ssim["reason"].endswith("under the threshold of 0.9.")


class TestPairwise:
    def test_position_inconsistent_pairs_are_counted(self, api: Api, judge: ScriptedJudge) -> None:
        def always_first_for_odd_cases(request: dict) -> dict:
            text = user_text(request)
            number = int(text.split("case ")[1][0])
            actual_first = text.index("Answer A:") < text.index("[mine]") < text.index("Answer B:")
            if number % 2:
                return {"reason": "the first one", "winner": "A"}  # position bias
            return {"reason": "mine is right", "winner": "A" if actual_first else "B"}

        judge.script(always_first_for_odd_cases)
        client = api.tenant_client()
        body = {
            "test_cases": [
                {
                    "input": [f"Describe case {i}.", image(RED)],
                    "actual_output": [f"[mine] A red square ({i}).", image(RED)],
                    "expected_output": "[theirs] A blue square.",
                }
                for i in range(4)
            ],
            "metrics": [
                {"type": "pairwise", "name": "preference", "criteria": "Which is accurate?"},
                {"type": "exact_match"},
            ],
        }
        final = submit(api, client, body)
        assert final["status"] == "completed" and final["result_counts"]["errored"] == 0
        summary = {m["metric"]: m for m in final["per_metric"]}
        assert summary["preference"]["position_inconsistent"] == 2
        assert summary["preference"]["mean_score"] == 0.75  # (1 + 0.5 + 1 + 0.5) / 4
        # Passing means winning (default threshold 1): the two ties are not counted as wins.
        assert summary["preference"]["pass_rate"] == 0.5
        assert summary["exact_match"]["position_inconsistent"] is None
        rows = {
            r["test_case_index"]: r
            for r in all_results(client, final["id"])
            if r["metric"] == "preference"
        }
        assert rows[1]["logs"]["position_consistent"] is False
        assert [v["reason"] for v in rows[1]["logs"]["verdicts"]] == ["the first one"] * 2
        assert len(judge.requests) == 8
        assert all(len(image_parts(r)) == 2 for r in judge.requests)  # input's and the answer's


class TestNonFiniteScores:
    def test_a_nan_or_overflowing_score_errors_that_result_only(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        def respond(request: dict) -> dict | Reply:
            task = task_of(request)
            if task == "text_to_image_semantic":
                # Python's JSON reader takes NaN: before the fix the score was NaN and storing
                # the batch failed (metric_summary.score_sum NOT NULL) until dispatch ran out.
                return Reply(content='{"reasoning": "ok", "score": [NaN]}')
            if task == "g_eval_score":
                return overflowing_score()  # a weighted score of inf / inf
            if task == "g_eval_steps":
                return {"steps": ["Check it."]}
            return answer(request)

        judge.script(respond)
        client = api.tenant_client()
        body = {
            "test_cases": [
                {
                    "id": "case-0",
                    "input": "A red circle.",
                    "actual_output": [image(RED)],
                    "expected_output": "A red circle.",
                }
            ],
            "metrics": [
                {"type": "text_to_image"},
                {
                    "type": "g_eval",
                    "name": "helpful",
                    "criteria": "c",
                    "evaluation_params": ["input"],
                },
                {"type": "image_coherence"},
                {"type": "exact_match"},
            ],
        }
        final = submit(api, client, body)
        assert final["status"] == "completed", final
        assert final["result_counts"] == {
            "total": 4,
            "passed": 1,
            "failed": 1,
            "errored": 2,
            "pending": 0,
            "canceled": 0,
            "skipped": 0,
        }
        rows = {r["metric"]: r for r in all_results(client, final["id"])}
        nan_score = rows["text_to_image"]
        assert nan_score["score"] is None and nan_score["error"]["type"] == "judge_malformed"
        assert "finite number" in nan_score["error"]["message"]
        overflowed = rows["helpful"]
        assert overflowed["score"] is None
        assert overflowed["error"]["type"] == "non_finite_score"
        assert "nan" in overflowed["error"]["message"]
        assert overflowed["logs"]["weighted_score"] == "nan"
        assert (rows["image_coherence"]["score"], rows["exact_match"]["score"]) == (0.8, 0.0)
        summary = {m["metric"]: m["mean_score"] for m in final["per_metric"]}
        assert summary == {
            "text_to_image": None,
            "helpful": None,
            "image_coherence": 0.8,
            "exact_match": 0.0,
        }
