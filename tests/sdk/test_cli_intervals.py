"""`loupe-client compare` prints each interval with its method, or that none can be made."""

import re

from tests.comparisons.helpers import outcomes
from tests.fixtures.api import Api
from tests.sdk.test_cli import loupe_client


class TestCompareIntervalColumn:
    def test_the_interval_is_named_and_inside_the_range(self, api: Api) -> None:
        key = api.new_key()
        client = api.client(key)
        baseline = outcomes(api, client, [True] * 12)
        candidate = outcomes(api, client, [True] * 6 + [False] * 6)
        compared = loupe_client(api, key, "compare", baseline, candidate)
        assert compared.returncode == 1, compared.stdout + compared.stderr
        match = re.search(
            r"-0\.500 \[([-+]\d\.\d+), ([-+]\d\.\d+)\] paired newcombe", compared.stdout
        )
        assert match is not None, compared.stdout
        low, high = float(match.group(1)), float(match.group(2))
        assert -1.0 <= low < -0.5 < high <= 0.0

    def test_two_pairs_print_no_interval_and_the_reason(self, api: Api) -> None:
        # The walk-through's two exact_match results: [-5.85, 6.85] was printed before.
        key = api.new_key()
        client = api.client(key)
        baseline, candidate = (
            outcomes(api, client, [True, True]),
            outcomes(api, client, [True, False]),
        )
        compared = loupe_client(api, key, "compare", baseline, candidate)
        assert "-0.500 [no interval]" in compared.stdout, compared.stdout
        assert "no interval from 2 pairs: at least 10 are needed" in compared.stdout
        assert compared.returncode == 2
