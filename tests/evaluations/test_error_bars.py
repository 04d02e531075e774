"""Error bars on evaluation summaries, checked against hand-computed answers, through the API."""

import math
from typing import Any

import pytest

from tests.fixtures.api import Api
from tests.fixtures.judge import Reply, ScriptedJudge


def exact_cases(outcomes: list[bool], clusters: list[str] | None = None) -> list[dict[str, Any]]:
    """Test cases exact_match scores 1 (True) or 0 (False), optionally with a cluster key."""
    cases = []
    for index, correct in enumerate(outcomes):
        case: dict[str, Any] = {
            "id": f"c{index}",
            "input": f"q{index}",
            "actual_output": "yes" if correct else "no",
            "expected_output": "yes",
        }
        if clusters is not None:
            case["metadata"] = {"image": clusters[index]}
        cases.append(case)
    return cases


def summary(api: Api, body: dict[str, Any]) -> dict[str, Any]:
    client = api.tenant_client()
    response = client.post("/v1/evaluations", json=body)
    assert response.status_code == 202, response.text
    final = api.wait(client, response.json()["id"])
    assert final["status"] == "completed"
    return final


class TestErrorBars:
    def test_binary_scores_get_wilson_intervals_on_known_vectors(self, api: Api) -> None:
        # Scores 1,1,0,0,1: mean 0.6, s² = (3·0.16 + 2·0.36)/4 = 0.3, SE = √(0.3/5).
        final = summary(
            api,
            {
                "test_cases": exact_cases([True, True, False, False, True]),
                "metrics": [{"type": "exact_match"}],
            },
        )
        row = final["per_metric"][0]
        stderr = math.sqrt(0.3 / 5)
        assert row["n"] == 5 and row["mean_score"] == pytest.approx(0.6)
        assert row["std"] == pytest.approx(math.sqrt(0.3))
        assert row["stderr"] == pytest.approx(stderr)
        # exact_match scores only its range's bounds, 0 and 1: the mean's interval is the
        # Wilson interval (the t interval, 0.6 ± 2.776·SE, is not bounded by the range).
        assert row["ci_method"] == "wilson" and row["interval_note"] is None
        assert row["ci95"] == pytest.approx(row["pass_rate_ci95"])
        # Wilson (1927) for 3 of 5, z = 1.959964: centre (p + z²/2n)/(1 + z²/n),
        # half-width z·√(p(1−p)/n + z²/4n²)/(1 + z²/n).
        z, n, p = 1.959964, 5, 0.6
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        assert row["pass_rate_ci95"] == pytest.approx([centre - half, centre + half], abs=1e-6)
        assert row["pass_rate_ci95"] == pytest.approx([0.2307, 0.8824], abs=1e-4)
        assert row["clustered"] is None and final["cluster_by"] is None

    def test_wilson_textbook_eight_of_ten(self, api: Api) -> None:
        final = summary(
            api,
            {
                "test_cases": exact_cases([True] * 8 + [False] * 2),
                "metrics": [{"type": "exact_match"}],
            },
        )
        row = final["per_metric"][0]
        # 8/10: the Wilson interval [0.4902, 0.9433] (Newcombe 1998, method 3).
        assert row["pass_rate_ci95"] == pytest.approx([0.4902, 0.9433], abs=1e-4)
        assert row["n"] == 10 and row["std"] == pytest.approx(math.sqrt(1.6 / 9))

    def test_below_two_scored_results_intervals_are_null(self, api: Api) -> None:
        final = summary(
            api,
            {"test_cases": exact_cases([True]), "metrics": [{"type": "exact_match"}]},
        )
        row = final["per_metric"][0]
        assert (row["n"], row["mean_score"]) == (1, 1.0)
        assert row["std"] is row["stderr"] is row["ci95"] is row["pass_rate_ci95"] is None
        assert row["ci_method"] is None and "at least 2" in row["interval_note"]

    def test_equal_binary_scores_keep_a_wilson_interval(self, api: Api) -> None:
        final = summary(
            api,
            {"test_cases": exact_cases([True] * 4), "metrics": [{"type": "exact_match"}]},
        )
        row = final["per_metric"][0]
        assert (row["std"], row["stderr"]) == (0.0, 0.0)
        # Four of four say little: Wilson leaves room below 1 where the t interval had none.
        assert row["ci95"] == row["pass_rate_ci95"] and row["ci_method"] == "wilson"
        # Wilson never collapses: 4 of 4 still leaves room below 1.
        assert row["pass_rate_ci95"][0] == pytest.approx(0.5101, abs=1e-4)

    def test_wilson_bounds_at_none_and_all_passed_are_exact(self, api: Api) -> None:
        # 10 of 10 gave 0.9999999999999999 and 0 of 7 gave 2.8e-17 before the bounds snapped.
        metrics = [{"type": "exact_match"}]
        (all_passed,) = summary(api, {"test_cases": exact_cases([True] * 10), "metrics": metrics})[
            "per_metric"
        ]
        (none_passed,) = summary(api, {"test_cases": exact_cases([False] * 7), "metrics": metrics})[
            "per_metric"
        ]
        assert all_passed["pass_rate_ci95"][1] == 1.0
        assert all_passed["pass_rate_ci95"][0] == pytest.approx(0.7225, abs=1e-4)
        assert none_passed["pass_rate_ci95"][0] == 0.0
        assert none_passed["pass_rate_ci95"][1] == pytest.approx(0.3543, abs=1e-4)

    def test_clustered_standard_error(self, api: Api) -> None:
        # Scores 1,1 | 0,0 | 1,0 in clusters a, b, c: mean 0.5, cluster sums of deviations
        # 1, −1, 0; SE = √(C/(C−1) · Σ D_c²)/n = √(3/2 · 2)/6 = √3/6 (Miller 2024, App. A).
        final = summary(
            api,
            {
                "test_cases": exact_cases(
                    [True, True, False, False, True, False], ["a", "a", "b", "b", "c", "c"]
                ),
                "metrics": [{"type": "exact_match"}],
                "cluster_by": "image",
            },
        )
        assert final["cluster_by"] == "image"
        row = final["per_metric"][0]
        clustered = row["clustered"]
        stderr = math.sqrt(3) / 6
        assert clustered["cluster_by"] == "image" and clustered["clusters"] == 3
        assert clustered["stderr"] == pytest.approx(stderr)
        # Binary scores: Wilson's over n_eff = p(1−p)/SE² = 0.25·12 = 3, with t(0.975, 2).
        t = 4.302652729749462
        half = t * math.sqrt(0.25 / 3 + t * t / 36) / (1 + t * t / 3)
        assert clustered["ci_method"] == "cluster_wilson"
        assert clustered["ci95"] == pytest.approx([0.5 - half, 0.5 + half])
        assert clustered["ci95"][0] < row["ci95"][0] and clustered["ci95"][1] > row["ci95"][1]
        # Plain SE² = 0.3/6 = 0.05; design effect (1/12)/0.05.
        assert row["stderr"] == pytest.approx(math.sqrt(0.05))
        assert clustered["design_effect"] == pytest.approx((1 / 12) / 0.05)

    def test_equal_binary_scores_keep_a_clustered_interval_no_narrower(self, api: Api) -> None:
        # Twenty exact_match scores of 1 in ten clusters: plain Wilson [0.839, 1], and the
        # cluster bootstrap gave [1, 1] (audit): clustering claimed a surer mean.
        final = summary(
            api,
            {
                "test_cases": exact_cases([True] * 20, [f"img{i // 2}" for i in range(20)]),
                "metrics": [{"type": "exact_match"}],
                "cluster_by": "image",
            },
        )
        (row,) = final["per_metric"]
        assert row["ci_method"] == "wilson" and row["ci95"][0] == pytest.approx(0.8389, abs=1e-4)
        clustered = row["clustered"]
        assert clustered["clusters"] == 10 and clustered["ci_method"] == "cluster_wilson"
        # Each cluster counted as one result, t(0.975, 9) for z: Wilson of 10/10 with t.
        assert clustered["ci95"][0] == pytest.approx(0.6615, abs=1e-4)
        assert clustered["ci95"][1] == 1.0
        assert clustered["stderr"] == 0.0 and clustered["design_effect"] is None

    def test_clusters_of_equal_means_have_zero_clustered_error(self, api: Api) -> None:
        # Two clusters (metadata.image true and 1), each half right: every cluster's deviations
        # sum to 0, so the clustered SE is 0 (the fit gave 1.1e-16 and a design effect of 9e-31).
        cases = exact_cases([index % 2 == 1 for index in range(20)])
        for index, case in enumerate(cases):
            case["metadata"] = {"image": True if index < 10 else 1}
        final = summary(
            api,
            {"test_cases": cases, "metrics": [{"type": "exact_match"}], "cluster_by": "image"},
        )
        clustered = final["per_metric"][0]["clustered"]
        assert clustered["stderr"] == 0.0 and clustered["design_effect"] == 0.0

    def test_equal_scores_have_a_zero_clustered_error(self, api: Api) -> None:
        # Twelve equal BLEU scores (0.8187…) in three clusters: the OLS fit gave a stderr of
        # 2.4e-16 and a design effect of 49.5 (noise over noise; 395062.5 in the audit).
        cases = [
            {
                "id": f"c{index}",
                "input": "q",
                "actual_output": "the cat sat on mat",
                "expected_output": "the cat sat on a mat",
                "metadata": {"image": f"img{index % 3}"},
            }
            for index in range(12)
        ]
        final = summary(
            api, {"test_cases": cases, "metrics": [{"type": "bleu"}], "cluster_by": "image"}
        )
        (row,) = final["per_metric"]
        assert 0 < row["mean_score"] < 1
        assert (row["std"], row["stderr"]) == (0.0, 0.0)
        assert row["ci95"][0] == row["ci95"][1] and row["ci_method"] == "bootstrap_bca"
        clustered = row["clustered"]
        assert clustered["clusters"] == 3 and clustered["stderr"] == 0.0
        assert clustered["ci95"] is None
        assert clustered["design_effect"] is None

    def test_clusters_are_told_apart_by_json_type(self, api: Api) -> None:
        # metadata.image 1 and "1" are two clusters (they were one: labels compared as strings).
        cases = exact_cases([True, False, True, True, False, False, True, False])
        for case, image in zip(cases, [1, "1", 2, "2", 3, "3", 1, 2], strict=True):
            case["metadata"] = {"image": image}
        final = summary(
            api,
            {"test_cases": cases, "metrics": [{"type": "exact_match"}], "cluster_by": "image"},
        )
        clustered = final["per_metric"][0]["clustered"]
        assert clustered["clusters"] == 6
        # Scores 1,0,1,1,0,0,1,0 in clusters {1: c0,c6}, {"1"}, {2: c2,c7}, {"2"}, {3}, {"3"}:
        # mean 0.5, cluster sums of deviations 1, −0.5, 0, 0.5, −0.5, −0.5; Σ D² = 2.
        assert clustered["stderr"] == pytest.approx(math.sqrt(6 / 5 * 2) / 8)

    def test_cluster_by_needs_the_key_on_every_case(self, api: Api) -> None:
        cases = exact_cases([True, False, True], ["a", "b", "a"])
        del cases[1]["metadata"]
        response = api.tenant_client().post(
            "/v1/evaluations",
            json={"test_cases": cases, "metrics": [{"type": "exact_match"}], "cluster_by": "image"},
        )
        assert response.status_code == 422, response.text
        assert [e["loc"] for e in response.json()["errors"]] == ["test_cases[1].metadata.image"]

    def test_errored_results_are_excluded_and_counted_apart(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(lambda request: Reply(status=400))
        final = summary(
            api,
            {
                "test_cases": exact_cases([True, False, True]),
                "metrics": [
                    {"type": "exact_match"},
                    {
                        "type": "g_eval",
                        "name": "judged",
                        "evaluation_steps": ["Check the answer."],
                        "evaluation_params": ["input", "actual_output"],
                    },
                ],
                "cache": False,
            },
        )
        exact, judged = final["per_metric"]
        assert (exact["n"], exact["errored"]) == (3, 0)
        assert (judged["n"], judged["errored"]) == (0, 3)
        assert judged["mean_score"] is judged["std"] is judged["ci95"] is None
