"""Comparisons of evaluations whose items come in clusters (`cluster_by`: several questions about
one image) test, bound and size the change over clusters, not items, through the HTTP API on both
backends; checked against statsmodels' cluster-robust OLS and power."""

import math
from typing import Any

import httpx
import numpy as np
import pytest
from statsmodels.api import OLS
from statsmodels.stats.power import TTestPower

from tests.comparisons.helpers import compare
from tests.fixtures.api import Api

WORDS = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"] * 2
# Ten images of five questions: each image's questions moved together (by the image's shift),
# and a little apart (by the question's offset), from BLEU 0.5 on the baseline.
SHIFTS = [0.3, 0.2, 0.1, 0.0, -0.1, 0.2, 0.1, 0.0, -0.2, 0.1]
OFFSETS = [0.0, 0.1, 0.0, -0.1, 0.0]


def bleu_evaluation(
    api: Api, client: httpx.Client, scores: list[float], images: list[str], cluster: bool
) -> str:
    """A completed BLEU-1 evaluation whose case i scores `scores[i]` (a multiple of 0.05: the
    answer's first 20·(1 − score) words of 20 swapped for an unknown one), about `images[i]`."""
    cases = [
        {
            "id": f"q{index}",
            "input": f"what is in the picture ({index})",
            "actual_output": " ".join(
                ["zzz"] * round(20 * (1 - score)) + WORDS[round(20 * (1 - score)) :]
            ),
            "expected_output": " ".join(WORDS),
            "metadata": {"image": image},
        }
        for index, (score, image) in enumerate(zip(scores, images, strict=True))
    ]
    body: dict[str, Any] = {"test_cases": cases, "metrics": [{"type": "bleu"}]}
    if cluster:
        body["cluster_by"] = "image"
    response = client.post("/v1/evaluations", json=body)
    assert response.status_code == 202, response.text
    final = api.wait(client, response.json()["id"])
    assert final["status"] == "completed", final
    return final["id"]


def planted(shifts: list[float], offsets: list[float]) -> tuple[list[float], list[str]]:
    """The candidate's scores and each item's image."""
    scores = [round(0.5 + shift + offset, 2) for shift in shifts for offset in offsets]
    images = [f"img-{image}" for image in range(len(shifts)) for _ in offsets]
    return scores, images


class TestClusteredComparison:
    def test_a_change_the_clusters_do_not_bear_out_is_not_a_verdict(self, api: Api) -> None:
        # The per-item paired t gave p = 0.0027 over 50 pairs and called it `improved`; over
        # 10 images the change is 0.07 with a cluster-robust p of 0.17.
        client = api.tenant_client()
        scores, images = planted(SHIFTS, OFFSETS)
        baseline = bleu_evaluation(api, client, [0.5] * len(scores), images, cluster=True)
        candidate = bleu_evaluation(api, client, scores, images, cluster=True)
        response = compare(client, baseline, candidate)
        assert response.status_code == 200, response.text
        (bleu,) = response.json()["metrics"]

        differences = np.array(scores) - 0.5
        groups = np.repeat(np.arange(len(SHIFTS)), len(OFFSETS))
        fit = OLS(differences, np.ones(len(differences))).fit(
            cov_type="cluster", cov_kwds={"groups": groups}, use_t=True
        )
        assert (bleu["n"], bleu["cluster_by"], bleu["clusters"]) == (50, "image", 10)
        assert bleu["mean_difference"] == pytest.approx(differences.mean())
        assert bleu["p_value"] == pytest.approx(fit.pvalues[0], rel=1e-9)
        assert bleu["adjusted_p_value"] == pytest.approx(fit.pvalues[0], rel=1e-9)
        assert bleu["verdict"] == "no_detectable_change"
        assert bleu["ci_method"] == "cluster_bootstrap_bca"
        low, high = bleu["ci95"]
        assert low < 0 < bleu["mean_difference"] < high
        # A one-sample t over 10 clusters with the clustered SE.
        size = TTestPower().solve_power(nobs=10, alpha=0.05, power=0.8, alternative="two-sided")
        expected = size * math.sqrt(10) * fit.bse[0]
        assert bleu["minimum_detectable_effect"] == pytest.approx(expected, rel=1e-5)
        assert any(
            note.startswith("clustered by 'image' (10 clusters over 50 pairs)")
            for note in bleu["notes"]
        )

        # The same scores without `cluster_by` are compared item by item, as before.
        alone = compare(
            client,
            bleu_evaluation(api, client, [0.5] * len(scores), images, cluster=False),
            bleu_evaluation(api, client, scores, images, cluster=False),
        ).json()["metrics"][0]
        assert (alone["cluster_by"], alone["clusters"]) == (None, None)
        assert alone["verdict"] == "improved" and alone["p_value"] < 0.01

    def test_few_clusters_give_no_interval_and_no_verdict_of_no_change(self, api: Api) -> None:
        # Four images of five questions: 20 pairs made a bootstrap interval, but 4 clusters
        # are too few for one.
        client = api.tenant_client()
        scores, images = planted(SHIFTS[:4], OFFSETS)
        baseline = bleu_evaluation(api, client, [0.5] * len(scores), images, cluster=True)
        candidate = bleu_evaluation(api, client, scores, images, cluster=True)
        (bleu,) = compare(client, baseline, candidate).json()["metrics"]
        assert (bleu["n"], bleu["clusters"], bleu["ci95"]) == (20, 4, None)
        assert bleu["verdict"] == "undecided"
        assert any(note.startswith("no interval from 4 clusters") for note in bleu["notes"])
