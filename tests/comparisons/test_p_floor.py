"""A p-value is never exactly 0 (issue 27's audit): when every paired difference is the same
non-zero number the paired t is undefined, and the comparison answered p 0 ("p (Holm) 0" in the
gate). It now takes the exact sign-flip permutation test's p, 2 / 2ⁿ."""

from app.stats import compare_metric
from app.stats._paired import constant_difference_p, holm_adjust
from tests.comparisons.helpers import compare, outcomes
from tests.fixtures.api import Api


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
