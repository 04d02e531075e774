"""The console's evaluations list (app/evaluations/list_rows.py) shows what the API says of
each evaluation: its status (completed with errors included), its progress and each metric's
pass rate and errored results, for completed, errored and canceled evaluations alike."""

import json
import re
from html import unescape

from app.console.views import percent
from tests.console.helpers import signed_in
from tests.fixtures.api import Api
from tests.fixtures.judge import Reply, ScriptedJudge, plausible_answer

RIGHT = {
    "type": "g_eval",
    "name": "right",
    "criteria": "Is it right?",
    "evaluation_params": ["input", "actual_output"],
}
ROW = re.compile(r"<tr>(.*?)</tr>", re.S)
METRIC = re.compile(
    r'<li><span class="metric">(.*?)</span> <span class="rate[^"]*">(.*?)</span>'
    r'(?: <span class="errored">(\d+) errored</span>)?</li>'
)


def garbled_for_one_case(request: dict) -> Reply | dict:
    if "GARBLE-ME" in json.dumps(request):
        return Reply(content="{the verdict is: good")
    return plausible_answer(request)


def submit(client, name: str, cases: list[dict], metrics: list[dict]) -> str:
    response = client.post(
        "/v1/evaluations", json={"name": name, "test_cases": cases, "metrics": metrics}
    )
    assert response.status_code == 202, response.text
    return response.json()["id"]


def listed_on_the_page(html: str) -> dict[str, tuple]:
    """Per evaluation id: (status shown, done, total, [(metric, rate, errored)])."""
    rows = {}
    for row in ROW.findall(html.split("<tbody>", 1)[1]):
        evaluation_id = re.search(r'href="/console/evaluations/([^"]+)"', row).group(1)
        status = re.search(r'class="status status-([a-z_]+)"', row).group(1)
        done, total = re.search(r'class="progress-count">(\d+) / (\d+)<', row).groups()
        metrics = [
            (unescape(name), unescape(rate), int(errored) if errored else 0)
            for name, rate, errored in METRIC.findall(row)
        ]
        rows[evaluation_id] = (status, int(done), int(total), metrics)
    return rows


def as_the_api_says(evaluation: dict) -> tuple:
    counts = evaluation["result_counts"]
    errors = evaluation["status"] == "completed" and evaluation["completed_with_errors"]
    return (
        "completed_with_errors" if errors else evaluation["status"],
        # Stored results: a canceled evaluation's unscored ones are not done.
        counts["passed"] + counts["failed"] + counts["errored"],
        counts["total"],
        [
            (metric["label"], percent(metric["pass_rate"]), metric["errored"])
            for metric in evaluation["per_metric"]
        ],
    )


def test_the_list_shows_what_the_api_says_of_each_evaluation(
    api: Api, judge: ScriptedJudge
) -> None:
    judge.script(garbled_for_one_case)
    key = api.new_key()
    client = api.client(key)
    cases = [
        {"id": "right", "input": "2+2?", "actual_output": "4", "expected_output": "4"},
        {"id": "wrong", "input": "3+3?", "actual_output": "7", "expected_output": "6"},
        {"id": "broken", "input": "4+4?", "actual_output": "8 GARBLE-ME", "expected_output": "8"},
    ]
    errored = submit(client, "with an errored result", cases, [{"type": "exact_match"}, RIGHT])
    plain = submit(client, "exact only", cases[:2], [{"type": "exact_match"}])
    for evaluation_id in (errored, plain):
        assert api.wait(client, evaluation_id)["status"] == "completed"
    judge.hold()
    # The hold stays: it is released after the test, once the canceled job has stopped at its
    # held call (released here, the job could make its next call before it sees the cancel).
    # Asked anew (the judge's cache holds the first evaluation's answers to these cases,
    # which completed it before the cancel came, now and then).
    fresh = [{**case, "input": case["input"] + " (again)"} for case in cases[:2]]
    canceled = submit(client, "canceled", fresh, [{"type": "exact_match"}, RIGHT])
    response = client.post(f"/v1/evaluations/{canceled}/cancel")
    assert response.status_code in (200, 202), response.text
    assert api.wait(client, canceled)["status"] == "canceled"

    page = signed_in(api, key).get("/console/evaluations")
    assert page.status_code == 200, page.text
    shown = listed_on_the_page(page.text)
    evaluations = client.get("/v1/evaluations", params={"limit": 100}).json()["data"]
    assert set(shown) == {errored, plain, canceled}
    for evaluation in evaluations:
        assert shown[evaluation["id"]] == as_the_api_says(evaluation), evaluation["name"]
    assert shown[errored][0] == "completed_with_errors"
    assert shown[errored][3][1][2] == 1  # right: the garbled case
    assert shown[plain][3] == [("exact_match", "50%", 0)]
    assert shown[canceled][0] == "canceled"
