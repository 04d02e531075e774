"""Error bars on a run's report, checked against hand-computed answers, through the API."""

import io
import json
import math
import zipfile

import pytest

from tests.fixtures.api import Api
from tests.runs.helpers import EXAMPLES, report, upload, wait_run

IMAGES = ["red_circle.png", "opt_white.png", "opt_black.png"]


def mcq_zip(images: list[str]) -> bytes:
    """A General-VMCQ zip: one row per entry of `images` (the row's only image), answer A."""
    lines = [
        {
            "question": f"<image 1> Question {index}?",
            "options": ["yes", "no"],
            "image_1": f"images/{image}",
            "answer": "A",
        }
        for index, image in enumerate(images)
    ]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("quiz_val.jsonl", "\n".join(json.dumps(line) for line in lines))
        for image in set(images):
            archive.write(EXAMPLES / "vmcq" / "images" / image, f"images/{image}")
    return buffer.getvalue()


def scored_run(api: Api, images: list[str], correct: list[bool], **extra: object) -> dict:
    client = api.tenant_client()
    response = upload(client, "quiz.zip", mcq_zip(images), "general_vmcq")
    assert response.status_code == 201, response.text
    predictions = [
        {"index": index, "prediction": "ANSWER: A" if right else "ANSWER: B"}
        for index, right in enumerate(correct)
    ]
    response = client.post(
        "/v1/runs",
        json={"dataset_id": response.json()["id"], "predictions": predictions, **extra},
    )
    assert response.status_code == 202, response.text
    final = wait_run(api, client, response.json()["id"])
    assert final["status"] == "completed"
    return final


class TestReportErrorBars:
    def test_accuracy_row_has_wilson_intervals(self, api: Api) -> None:
        correct = [True] * 7 + [False] * 3
        final = scored_run(api, [IMAGES[i % 3] for i in range(10)], correct)
        assert report(final)[("accuracy", "quiz")] == (10, 0.7)
        row = next(r for r in final["report"] if r["subset"] == "OVERALL")
        # s² = (7·0.09 + 3·0.49)/9 = 2.1/9; t(0.975, 9) = 2.262157.
        stderr = math.sqrt(2.1 / 9 / 10)
        assert row["n"] == 10 and row["std"] == pytest.approx(math.sqrt(2.1 / 9))
        assert row["stderr"] == pytest.approx(stderr)
        # Wilson for 7 of 10: [0.3968, 0.8922]; accuracy is 0 or 1, so its mean's interval is
        # that one too (the t interval 0.7 ± 2.262·SE ignores the range).
        assert row["pass_rate_ci95"] == pytest.approx([0.3968, 0.8922], abs=1e-4)
        assert row["ci95"] == row["pass_rate_ci95"] and row["ci_method"] == "wilson"
        assert row["clustered"] is None

    def test_cluster_by_image(self, api: Api) -> None:
        # Two questions per image: 1,1 | 0,0 | 1,0; mean 0.5, SE = √3/6 (as for evaluations).
        images = [IMAGES[0], IMAGES[0], IMAGES[1], IMAGES[1], IMAGES[2], IMAGES[2]]
        final = scored_run(api, images, [True, True, False, False, True, False], cluster_by="image")
        assert final["cluster_by"] == "image"
        row = next(r for r in final["report"] if r["subset"] == "OVERALL")
        clustered = row["clustered"]
        assert clustered["clusters"] == 3
        assert clustered["stderr"] == pytest.approx(math.sqrt(3) / 6)
        assert clustered["design_effect"] == pytest.approx((1 / 12) / 0.05)

    def test_own_metrics_with_a_threshold_have_a_wilson_interval(self, api: Api) -> None:
        # 7 of 15 answers exact: exact_match (threshold 1) and BLEU-1 at 0.3 pass those 7 and
        # fail the rest ("zz zz zz zz" shares no word). The rows had no pass_rate_ci95.
        client = api.tenant_client()
        answer = "alpha beta gamma delta"
        lines = [
            json.dumps({"messages": [{"role": "user", "content": f"say {i}"}], "answer": answer})
            for i in range(15)
        ]
        dataset = upload(client, "words.jsonl", "\n".join(lines).encode(), "general_vqa")
        assert dataset.status_code == 201, dataset.text
        predictions = [
            {"index": i, "prediction": answer if i < 7 else "zz zz zz zz"} for i in range(15)
        ]
        response = client.post(
            "/v1/runs",
            json={
                "dataset_id": dataset.json()["id"],
                "predictions": predictions,
                "metrics": [
                    {"type": "exact_match", "name": "em"},
                    {"type": "bleu", "name": "b1", "threshold": 0.3},
                ],
            },
        )
        assert response.status_code == 202, response.text
        final = wait_run(api, client, response.json()["id"])
        assert final["status"] == "completed"
        rows = {(row["metric"], row["subset"]): row for row in final["report"]}
        for key in ("em", "b1"):
            for subset in ("words", "OVERALL"):
                row = rows[(key, subset)]
                assert row["num"] == 15 and row["score"] == pytest.approx(7 / 15, abs=1e-4)
                # Wilson for 7 of 15 (statsmodels proportion_confint, method="wilson").
                # Rounded to the report's 4 decimals, as the score is.
                assert row["pass_rate_ci95"] == [0.2481, 0.6988]
        # BLEU keys of the run's own scorer still have none: its threshold is not theirs.
        assert rows[("bleu-1", "OVERALL")]["pass_rate_ci95"] is None

    def test_cluster_by_a_column_the_rows_lack_is_422(self, api: Api) -> None:
        client = api.tenant_client()
        dataset = upload(client, "quiz.zip", mcq_zip(IMAGES), "general_vmcq").json()["id"]
        response = client.post(
            "/v1/runs",
            json={
                "dataset_id": dataset,
                "predictions": [{"index": i, "prediction": "A"} for i in range(3)],
                "cluster_by": "category",
            },
        )
        assert response.status_code == 422, response.text
        assert [e["loc"] for e in response.json()["errors"]] == ["cluster_by"]


class TestReportRounding:
    def test_the_score_lies_inside_its_own_interval(self, api: Api) -> None:
        """Every sample's ROUGE-1 recall is 1/3: the score was rounded to 0.3333 (EvalScope's 4
        decimals) and the interval left at [0.33333…, 0.33333…], so the score lay below its
        own interval. Both are rounded the same way now."""
        client = api.tenant_client()
        rows = [
            {
                "messages": [{"role": "user", "content": f"Three words {n}?"}],
                "answer": "alpha beta gamma",
            }
            for n in range(10)
        ]
        dataset = upload(
            client,
            "thirds.jsonl",
            "\n".join(json.dumps(row) for row in rows).encode(),
            "general_vqa",
        )
        assert dataset.status_code == 201, dataset.text
        predictions = [{"index": n, "prediction": "alpha"} for n in range(10)]
        response = client.post(
            "/v1/runs", json={"dataset_id": dataset.json()["id"], "predictions": predictions}
        )
        assert response.status_code == 202, response.text
        final = wait_run(api, client, response.json()["id"])
        assert final["status"] == "completed"
        rows_by_key = {(r["metric"], r["subset"]): r for r in final["report"]}
        recall = rows_by_key[("Rouge-1-R", "OVERALL")]
        assert recall["num"] == 10 and recall["score"] == 0.3333
        assert recall["ci95"] == [0.3333, 0.3333] and recall["ci_method"] == "bootstrap_bca"
        for row in final["report"]:
            if row["ci95"] is not None:
                assert row["ci95"][0] <= row["score"] <= row["ci95"][1], row
                assert row["ci95"] == [round(bound, 4) for bound in row["ci95"]], row
