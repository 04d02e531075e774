"""What a candidate leaves out cannot pass the CI gate unseen: itself as its own baseline, a
metric of the baseline it dropped, items of the baseline it lacks; through `loupe compare` and
`loupe-client compare` run as a CI step runs them, against the served API, on both backends."""

from tests.comparisons.helpers import outcomes
from tests.fixtures.api import Api
from tests.test_gate import gate

COMMANDS = ("loupe", "loupe-client")
EXACT = {"type": "exact_match"}
STRICT = {"type": "exact_match", "name": "strict"}


class TestItself:
    def test_an_evaluation_compared_with_itself_cannot_pass(self, api: Api) -> None:
        # It printed "OK: no compared metric regressed" and exited 0.
        key = api.new_key()
        one = outcomes(api, api.client(key), [True] * 12)
        for command in COMMANDS:
            result = gate(api, key, one, one, command=command)
            assert result.returncode == 2, command + result.stdout + result.stderr
            assert "OK" not in result.stdout
            assert "422" in result.stderr and "candidate_id" in result.stderr
            assert "is the baseline itself" in result.stderr


class TestMissingMetrics:
    def test_a_metric_the_candidate_dropped_fails_unless_allowed(self, api: Api) -> None:
        # The baseline's `strict` would have regressed; the candidate left it out, and the gate
        # said "OK: no compared metric regressed" with exit 0, never naming it.
        key = api.new_key()
        client = api.client(key)
        baseline = outcomes(api, client, [True] * 12, [EXACT, STRICT])
        candidate = outcomes(api, client, [True] * 12, [EXACT])
        for command in COMMANDS:
            result = gate(api, key, baseline, candidate, command=command)
            assert result.returncode == 1, command + result.stdout + result.stderr
            assert "not compared: strict: only in the baseline" in result.stdout
            assert (
                "FAIL: metrics of the baseline missing from the candidate: strict (no verdict "
                "covers them; --allow-missing-metrics passes without them)"
            ) in result.stdout
            assert "OK" not in result.stdout

            allowed = gate(
                api, key, baseline, candidate, "--allow-missing-metrics", command=command
            )
            assert allowed.returncode == 0, command + allowed.stdout + allowed.stderr
            assert (
                "WARNING: metrics of the baseline missing from the candidate, not compared "
                "(allowed by --allow-missing-metrics): strict"
            ) in allowed.stdout
            assert "OK: no compared metric regressed" in allowed.stdout

        # Gating on named metrics: the others are not the gate's.
        named = gate(api, key, baseline, candidate, "--metric", "exact_match")
        assert named.returncode == 0, named.stdout + named.stderr
        assert "FAIL" not in named.stdout
        # A metric only the candidate has is listed, and never fails the gate.
        grown = gate(api, key, candidate, baseline, command="loupe-client")
        assert grown.returncode == 0, grown.stdout + grown.stderr
        assert "not compared: strict: only in the candidate" in grown.stdout
        assert "OK: no compared metric regressed" in grown.stdout

    def test_a_metric_of_another_type_on_the_candidate_is_missing_too(self, api: Api) -> None:
        key = api.new_key()
        client = api.client(key)
        baseline = outcomes(api, client, [True] * 12, [EXACT, STRICT])
        candidate = outcomes(api, client, [True] * 12, [EXACT, {"type": "bleu", "name": "strict"}])
        result = gate(api, key, baseline, candidate, command="loupe-client")
        assert result.returncode == 1, result.stdout + result.stderr
        assert "not compared: strict: exact_match on the baseline, bleu on the candidate" in (
            result.stdout
        )
        assert "FAIL: metrics of the baseline missing from the candidate: strict" in result.stdout


class TestUnmatchedItems:
    def test_a_candidate_covering_part_of_the_baseline_warns_and_can_fail(self, api: Api) -> None:
        # Twenty cases in the baseline, the first ten in the candidate: it passed with only
        # "unmatched items: 10 only in the baseline" in the table.
        key = api.new_key()
        client = api.client(key)
        baseline = outcomes(api, client, [True] * 20)
        candidate = outcomes(api, client, [True] * 10)
        default = gate(api, key, baseline, candidate)
        assert default.returncode == 0, default.stdout + default.stderr
        assert "unmatched items: 10 only in the baseline, 0 only in the candidate" in (
            default.stdout
        )
        assert (
            "WARNING: unmatched items: 10 items of the baseline not in the candidate; the gate "
            "saw only the items both sides have (--fail-on unmatched fails on this)"
        ) in default.stdout

        for command in COMMANDS:
            strict = gate(
                api,
                key,
                baseline,
                candidate,
                "--fail-on",
                "regressed",
                "--fail-on",
                "unmatched",
                command=command,
            )
            assert strict.returncode == 1, command + strict.stdout + strict.stderr
            assert (
                "FAIL: unmatched items: 10 items of the baseline not in the candidate"
                in strict.stdout
            )
            assert "OK" not in strict.stdout

        # Items only in the candidate hide nothing of the baseline's.
        grown = gate(
            api, key, candidate, baseline, "--fail-on", "regressed", "--fail-on", "unmatched"
        )
        assert grown.returncode == 0, grown.stdout + grown.stderr
        assert "WARNING: unmatched" not in grown.stdout
        assert (
            "OK: no compared metric regressed; the candidate has every item of the baseline"
            in grown.stdout
        )


class TestRegressionLeftOutOfFailOn:
    def test_a_regression_the_gate_does_not_fail_on_is_warned(self, api: Api) -> None:
        # `--fail-on errored` alone leaves regressions out of the gate, as documented; it printed
        # "OK: no compared metric has more errored items" and exited 0 with no word of the
        # REGRESSED metric beside the table, where the other conditions it leaves out warn.
        key = api.new_key()
        client = api.client(key)
        baseline = outcomes(api, client, [True] * 12)
        candidate = outcomes(api, client, [False] * 12)
        for command in COMMANDS:
            result = gate(api, key, baseline, candidate, "--fail-on", "errored", command=command)
            assert result.returncode == 0, command + result.stdout + result.stderr
            assert (
                "WARNING: regressed: exact_match (--fail-on regressed fails on this)"
                in result.stdout
            )
            assert "OK: no compared metric has more errored items" in result.stdout
