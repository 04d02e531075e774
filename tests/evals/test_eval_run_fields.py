"""An eval run read through the evaluations API says what it is (issue 24, item 8): its eval's id
and name and its own name under `eval_run`, and each criterion's name as its metric's `label`
beside the `<name>-<uuid>` id that `?metric=` and results keep using; plain evaluations have no
`eval_run` and are labelled by their metric names."""

import openai

from tests.evals.helpers import CRITERIA, ROWS, create_eval, wait
from tests.evals.test_evaluation_kinds import plain_evaluation
from tests.fixtures.api import Api


class TestEvalRunFields:
    def test_listed_and_read_eval_runs_name_their_eval_run_and_criteria(
        self, api: Api, client: openai.OpenAI
    ) -> None:
        ev = create_eval(client, CRITERIA[:2])
        source = {"type": "file_content", "content": ROWS[:2]}
        run = client.evals.runs.create(
            ev.id, name="nightly", data_source={"type": "jsonl", "source": source}
        )
        wait(api, client, ev.id, run.id)
        ids = [criterion.id for criterion in ev.testing_criteria]  # type: ignore[union-attr]
        assert all(not criterion_id.endswith(("exact", "fuzzy")) for criterion_id in ids)

        with api.client(client.api_key) as http:
            listed = http.get("/v1/evaluations", params={"kind": "eval_run"}).json()["data"]
            read = http.get(f"/v1/evaluations/{run.id}").json()
            filtered = http.get(f"/v1/evaluations/{run.id}/results", params={"metric": ids[1]})
        assert [item["id"] for item in listed] == [run.id]
        for evaluation in (listed[0], read):
            assert evaluation["eval_run"] == {
                "eval_id": ev.id,
                "eval_name": "chart qa",
                "run_name": "nightly",
            }
            per_metric = [(m["metric"], m["label"]) for m in evaluation["per_metric"]]
            assert per_metric == [(ids[0], "exact"), (ids[1], "fuzzy")]
            assert [(m["name"], m["label"]) for m in evaluation["metrics"]] == per_metric
        # The ids stay the keys: a filter by one still finds its results.
        assert filtered.status_code == 200, filtered.text
        assert {r["metric"] for r in filtered.json()["data"]} == {ids[1]}

    def test_a_plain_evaluation_has_no_eval_run_and_its_names_as_labels(
        self, api: Api, client: openai.OpenAI
    ) -> None:
        evaluation_id = plain_evaluation(api, client.api_key)
        with api.client(client.api_key) as http:
            read = http.get(f"/v1/evaluations/{evaluation_id}").json()
        assert read["eval_run"] is None
        assert [(m["metric"], m["label"]) for m in read["per_metric"]] == [
            ("exact_match", "exact_match")
        ]
        assert ["label" in spec for spec in read["metrics"]] == [False]
