"""Verdicts a gate can trust, through the HTTP API and the console's pages, on both backends: no
"no detectable change" where no interval could be made or the sides' settings differ, and
OpenAI eval runs compared like evaluations (from the console's picker too)."""

import re
from typing import Any

import httpx

from tests.comparisons.helpers import compare, outcomes
from tests.console.helpers import csrf_of, signed_in
from tests.fixtures.api import Api
from tests.sdk.test_cli import loupe_client

UNDECIDED_NOTE = "the verdict is undecided: without a 95% interval of the difference"
NOTHING_NOTE = "the verdict is undecided: no item was scored on both sides"


def badges(html: str) -> list[str]:
    """The verdict badges' texts on a comparison page."""
    return re.findall(r'<span class="verdict-badge[^"]*"[^>]*>([^<]*)</span>', html)


class TestUndecided:
    def test_one_pair_is_undecided_in_the_api_and_on_the_page(self, api: Api) -> None:
        # It said "no_detectable_change" (p null, ci95 null) and the page showed that badge.
        key = api.new_key()
        client = api.client(key)
        right, wrong = outcomes(api, client, [True]), outcomes(api, client, [False])
        created = compare(client, right, wrong)
        assert created.status_code == 200, created.text
        body = created.json()
        assert client.get(f"/v1/comparisons/{body['id']}").json() == body
        (exact,) = body["metrics"]
        assert (exact["n"], exact["ci95"], exact["p_value"]) == (1, None, None)
        assert exact["verdict"] == "undecided"
        # The note counts in the singular ("1 pair", not "1 pairs"), and says why undecided.
        assert any(
            note.startswith("no interval from 1 pair: at least 10 are needed")
            for note in exact["notes"]
        ), exact["notes"]
        assert any(note.startswith(UNDECIDED_NOTE) for note in exact["notes"]), exact["notes"]

        page = signed_in(api, key).get(f"/console/comparisons/{body['id']}")
        assert page.status_code == 200, page.text
        assert badges(page.text) == ["undecided"]
        assert "no detectable change" not in page.text
        assert "Only 1 test case scored on both sides" in page.text

    def test_few_pairs_without_a_significant_change_are_undecided(self, api: Api) -> None:
        client = api.tenant_client()
        pattern = [True, False, True, True]
        (exact,) = compare(
            client, outcomes(api, client, pattern), outcomes(api, client, pattern)
        ).json()["metrics"]
        assert (exact["n"], exact["ci95"], exact["verdict"]) == (4, None, "undecided")
        assert any(n.startswith("no interval from 4 pairs:") for n in exact["notes"])

    def test_nothing_compared_is_undecided_in_the_api_and_on_the_page(self, api: Api) -> None:
        # No shared id: n = 0 said "no_detectable_change", and the page showed that badge.
        key = api.new_key()
        client = api.client(key)
        baseline = outcomes(api, client, [True] * 12)
        cases = [
            {"id": f"z{i}", "input": "q", "actual_output": "a", "expected_output": "a"}
            for i in range(12)
        ]
        submitted = client.post(
            "/v1/evaluations", json={"test_cases": cases, "metrics": [{"type": "exact_match"}]}
        )
        candidate = api.wait(client, submitted.json()["id"])["id"]
        body = compare(client, baseline, candidate).json()
        (exact,) = body["metrics"]
        assert (exact["n"], exact["ci95"], exact["verdict"]) == (0, None, "undecided")
        assert any(note.startswith(NOTHING_NOTE) for note in exact["notes"]), exact["notes"]
        assert body["unmatched"]["baseline_only"] == 12

        page = signed_in(api, key).get(f"/console/comparisons/{body['id']}")
        assert badges(page.text) == ["undecided"]
        assert "no detectable change" not in page.text
        assert "No test case was scored on both sides" in page.text

    def test_ten_pairs_are_decided(self, api: Api) -> None:
        client = api.tenant_client()
        pattern = [True, False] * 5
        (exact,) = compare(
            client, outcomes(api, client, pattern), outcomes(api, client, pattern)
        ).json()["metrics"]
        assert exact["ci95"][0] < 0 < exact["ci95"][1]
        assert exact["verdict"] == "no_detectable_change"
        assert not any(n.startswith(UNDECIDED_NOTE) for n in exact["notes"])


class TestSettingsDifferOnThePage:
    def test_no_plain_no_detectable_change_badge(self, api: Api) -> None:
        # The CLI says CANNOT; the page showed a plain "no detectable change".
        key = api.new_key()
        client = api.client(key)
        pattern = [True] * 12
        # One-word answers: BLEU-2 and BLEU-3 are both 0, so the scores do not move.
        bigram = outcomes(api, client, pattern, [{"type": "bleu", "name": "q", "n": 2}])
        trigram = outcomes(api, client, pattern, [{"type": "bleu", "name": "q", "n": 3}])
        body = compare(client, bigram, trigram).json()
        (q,) = body["metrics"]
        assert q["settings_differ"] == ["n"] and q["verdict"] == "no_detectable_change"

        page = signed_in(api, key).get(f"/console/comparisons/{body['id']}")
        assert page.status_code == 200, page.text
        assert badges(page.text) == ["settings differ"]
        assert "no detectable change" not in page.text
        assert "different n-gram orders" in page.text


ROWS = 12
CRITERION = {
    "type": "string_check",
    "name": "exact",
    "operation": "eq",
    "input": "{{ sample.output_text }}",
    "reference": "{{ item.answer }}",
}


def eval_with_runs(api: Api, client: httpx.Client, wrong: list[set[int]]) -> tuple[str, list[str]]:
    """The eval "capitals" (one string_check criterion) and one completed run per `wrong` set
    (named "run 0", "run 1", …), answered wrongly on those rows: (eval id, run ids)."""
    created = client.post(
        "/v1/evals",
        json={
            "name": "capitals",
            "data_source_config": {
                "type": "custom",
                "item_schema": {"type": "object"},
                "include_sample_schema": True,
            },
            "testing_criteria": [CRITERION],
        },
    )
    assert created.status_code in (200, 201), created.text
    eval_id = created.json()["id"]
    run_ids = []
    for number, rows_wrong in enumerate(wrong):
        content: list[dict[str, Any]] = [
            {
                "item": {"answer": f"answer {index}"},
                "sample": {"output_text": "nope" if index in rows_wrong else f"answer {index}"},
            }
            for index in range(ROWS)
        ]
        run = client.post(
            f"/v1/evals/{eval_id}/runs",
            json={
                "name": f"run {number}",
                "data_source": {
                    "type": "jsonl",
                    "source": {"type": "file_content", "content": content},
                },
            },
        )
        assert run.status_code in (200, 201), run.text
        finished = api.wait(client, run.json()["id"])
        assert finished["status"] == "completed", finished
        run_ids.append(finished["id"])
    return eval_id, run_ids


class TestEvalRuns:
    def test_two_runs_of_an_eval_compare_through_the_api_and_the_console(self, api: Api) -> None:
        # "compare with…" on an eval run's page led to a picker without eval runs.
        key = api.new_key()
        client = api.client(key)
        _, (good, bad) = eval_with_runs(api, client, [set(), set(range(6))])
        created = compare(client, good, bad)
        assert created.status_code == 200, created.text
        body = created.json()
        assert body["kind"] == "eval_run"
        (exact,) = body["metrics"]
        assert exact["metric"].startswith("exact-") and exact["type"] == "string_check"
        assert exact["n"] == ROWS and exact["mean_difference"] == -0.5
        assert exact["verdict"] == "regressed"
        # The criterion's name beside its id, and taken where the id is: a gate on a criterion
        # by name worked for no eval (its id changes with every eval).
        assert exact["label"] == "exact"
        named = compare(client, good, bad, metrics=["exact"])
        assert named.status_code == 200, named.text
        assert [m["metric"] for m in named.json()["metrics"]] == [exact["metric"]]
        moved = client.get(f"/v1/comparisons/{body['id']}/items", params={"metric": "exact"})
        assert moved.status_code == 200, moved.text
        assert {item["metric"] for item in moved.json()["data"]} == {exact["metric"]}
        unknown = compare(client, good, bad, metrics=["exact", "nearly"])
        assert unknown.status_code == 422, unknown.text
        assert [e["loc"] for e in unknown.json()["errors"]] == ["metrics[1]"]
        assert f"both have ['exact ({exact['metric']})']" in unknown.json()["detail"]
        cli = loupe_client(api, key, "compare", good, bad, "--metric", "exact")
        assert cli.returncode == 1, cli.stdout + cli.stderr
        assert f"exact (n={ROWS})" in cli.stdout and exact["metric"] not in cli.stdout
        assert "FAIL: regressed: exact\n" in cli.stdout

        console = signed_in(api, key)
        picker = console.get(f"/console/compare?baseline={good}")
        assert picker.status_code == 200, picker.text
        assert re.search(rf'<option value="{good}" selected>capitals · run 0 · ', picker.text), (
            picker.text
        )
        assert re.search(rf'<option value="{bad}">capitals · run 1 · ', picker.text)
        posted = console.post(
            "/console/compare",
            data={"baseline_id": good, "candidate_id": bad, "csrf_token": csrf_of(picker.text)},
        )
        assert posted.status_code == 303, posted.text
        page = console.get(posted.headers["location"])
        assert page.status_code == 200, page.text
        assert "capitals · run 0" in page.text and "capitals · run 1" in page.text
        assert badges(page.text) == ["regressed"]
        # The criterion by its name, not its `<name>-<uuid>` id; each side links to its page.
        assert '<th scope="row">exact' in page.text
        assert f'<th scope="row">{exact["metric"]}' not in page.text
        assert f'href="/console/evaluations/{good}"' in page.text
