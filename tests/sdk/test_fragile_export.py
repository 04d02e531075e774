"""The fragile filter in the Python SDK's export and `loupe-client results --fragile`
(issue 27's audit), against a live server whose judge disagrees with itself on one item."""

import csv
import io
import json

from tests.evaluations.test_stability import G_EVAL, Disagreeing, cases, evaluated
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge
from tests.sdk.test_cli import loupe_client
from tests.sdk.test_python import connect


class TestFragileExport:
    def test_sdk_and_cli(self, api: Api, judge: ScriptedJudge) -> None:
        judge.script(
            Disagreeing({("judge-model", "steady"): [8], ("judge-model", "shaky"): [2, 8, 9]})
        )
        key = api.new_key()
        body = {
            "metrics": [{**G_EVAL, "judge": {"samples": 3}}],
            "test_cases": cases("steady", "shaky"),
        }
        with api.client(key) as http:
            evaluation_id = evaluated(api, http, body)["id"]
        with connect(api, key) as client:
            lines = client.evaluations.export(evaluation_id, fragile=True).splitlines()
            assert [json.loads(line)["test_case_id"] for line in lines] == ["shaky"]
            text = client.evaluations.export(evaluation_id, format="csv", fragile=False)
            assert [row["test_case_id"] for row in csv.DictReader(io.StringIO(text))] == ["steady"]
        for flag, expected in (("--fragile", ["shaky"]), ("--no-fragile", ["steady"])):
            printed = loupe_client(api, key, "results", evaluation_id, flag)
            assert printed.returncode == 0, printed.stderr
            ids = [json.loads(line)["test_case_id"] for line in printed.stdout.splitlines()]
            assert ids == expected
        everything = loupe_client(api, key, "results", evaluation_id)
        assert len(everything.stdout.splitlines()) == 2
