"""A p-value is never exactly 0 (issue 27's audit): when every paired difference is the same
non-zero number the paired t is undefined, and the comparison answered p 0 ("p (Holm) 0" in the
gate). It now takes the exact sign-flip permutation test's p, 2 / 2ⁿ."""

import sys

import pytest

from app.stats import compare_metric
from app.stats._paired import constant_difference_p, holm_adjust
from tests.comparisons.helpers import compare, outcomes
from tests.fixtures.api import Api

WORDS = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"] * 2


class TestConstantDifferences:
    def test_the_exact_sign_flip_p(self) -> None:
        assert constant_difference_p(2) == 0.5
        assert constant_difference_p(10) == 2 / 1024
        compared = compare_metric([0.0] * 10, [1.0] * 10, None, None, 0.05)
        assert compared.p_value == 2 / 1024
        lower = compare_metric([1.0] * 10, [0.7] * 10, None, None, 0.05)
        assert lower.p_value == 2 / 1024
        assert holm_adjust([lower.p_value, 0.5]) == [2 * 2 / 1024, 0.5]

    def test_through_the_comparison_api(self, api: Api) -> None:
        client = api.tenant_client()
        baseline = outcomes(api, client, [False] * 10)
        candidate = outcomes(api, client, [True] * 10)
        response = compare(client, baseline, candidate)
        assert response.status_code == 200, response.text
        (exact,) = response.json()["metrics"]
        assert exact["mean_difference"] == 1
        assert exact["p_value"] == 2 / 1024 and exact["adjusted_p_value"] == 2 / 1024


def bleu_evaluation(api: Api, client, replaced: list[int]) -> str:  # type: ignore[no-untyped-def]
    """A completed BLEU-1 evaluation of len(replaced) cases against one 20-word reference, each
    answer with its first `replaced[i]` words swapped for an unknown one (precision 1 − k/20)."""
    cases = [
        {
            "id": f"c{index}",
            "input": f"say the words ({index})",
            "actual_output": " ".join(["zzz"] * count + WORDS[count:]),
            "expected_output": " ".join(WORDS),
        }
        for index, count in enumerate(replaced)
    ]
    response = client.post(
        "/v1/evaluations", json={"test_cases": cases, "metrics": [{"type": "bleu"}]}
    )
    assert response.status_code == 202, response.text
    final = api.wait(client, response.json()["id"])
    assert final["status"] == "completed", final
    return final["id"]


class TestUnderflow:
    def test_a_strong_change_over_many_pairs_has_a_p_above_0(self, api: Api) -> None:
        # 300 pairs differing by -0.25 or -0.3: the paired t is about 190 on 299 df, whose
        # p (far below 1e-308) scipy returns as 0.0; the comparison answered p 0 and the gate
        # printed "p (Holm) 0".
        client = api.tenant_client()
        baseline = bleu_evaluation(api, client, [0] * 300)
        candidate = bleu_evaluation(api, client, [5, 6] * 150)
        response = compare(client, baseline, candidate)
        assert response.status_code == 200, response.text
        (bleu,) = response.json()["metrics"]
        assert bleu["mean_difference"] == pytest.approx(-0.275)
        assert bleu["verdict"] == "regressed"
        # Below what a double holds, a p is given as the smallest normal double: never 0.
        assert bleu["p_value"] == bleu["adjusted_p_value"] == sys.float_info.min
        assert 0 < bleu["wilcoxon_p_value"] < 1e-30

    def test_a_constant_difference_over_many_pairs_has_a_p_above_0(self) -> None:
        # 2 / 2ⁿ is 0.0 in a double from n = 1,076 on.
        assert constant_difference_p(1076) == sys.float_info.min
        assert compare_metric([0.0] * 1100, [1.0] * 1100, None, None, 0.05).p_value > 0
