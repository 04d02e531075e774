"""The status badge: an evaluation or run that completed with errored results says so, never
with the green "completed" badge (HTTP, both backends)."""

import json
import re

import httpx

from tests.comparisons.helpers import quiz_dataset
from tests.console.helpers import signed_in
from tests.fixtures.api import Api
from tests.fixtures.judge import Reply, ScriptedJudge, plausible_answer
from tests.runs.helpers import wait_run

G_EVAL = {
    "type": "g_eval",
    "name": "helpful",
    "evaluation_steps": ["Check the answer."],
    "evaluation_params": ["input", "actual_output"],
}


def refusing(judge: ScriptedJudge) -> None:
    """The judge refuses (the result errors) every request mentioning `[refused]`."""

    def answer(request: dict):  # type: ignore[no-untyped-def]
        if "[refused]" in json.dumps(request):
            return Reply(status=400)
        return plausible_answer(request)

    judge.script(answer)


def judged(api: Api, client: httpx.Client, name: str, refused: bool) -> dict:
    cases = [
        {
            "id": f"c{i}",
            "input": f"{name} {i}" + (" [refused]" if refused else ""),
            "actual_output": "a",
        }
        for i in range(2)
    ]
    response = client.post(
        "/v1/evaluations", json={"name": name, "test_cases": cases, "metrics": [G_EVAL]}
    )
    assert response.status_code == 202, response.text
    return api.wait(client, response.json()["id"])


def badge(html: str, near: str) -> str:
    """The status badge on the first line of `html` (a table row or the status line) after
    `near`."""
    found = re.search(
        re.escape(near) + r'.*?(<span class="status status-[^"]+"[^>]*>[^<]*</span>)',
        html,
        re.S,
    )
    assert found, f"no status badge after {near!r}"
    return found.group(1)


class TestStatusBadge:
    def test_errored_results_get_their_own_badge(self, api: Api, judge: ScriptedJudge) -> None:
        # Every result errored (the judge was down): it was "completed" with a green badge.
        refusing(judge)
        key = api.new_key()
        client = api.client(key)
        broken = judged(api, client, "judge down", refused=True)
        clean = judged(api, client, "judge up", refused=False)
        assert broken["status"] == "completed" and broken["completed_with_errors"] is True
        assert broken["result_counts"]["errored"] == 2
        assert clean["status"] == "completed" and clean["completed_with_errors"] is False

        console = signed_in(api, key)
        listed = console.get("/console/evaluations")
        assert listed.status_code == 200
        assert badge(listed.text, "judge down") == (
            '<span class="status status-completed_with_errors">completed with errors</span>'
        )
        assert badge(listed.text, "judge up") == (
            '<span class="status status-completed">completed</span>'
        )
        page = console.get(f"/console/evaluations/{broken['id']}")
        assert page.status_code == 200
        # The status a page watches stays the API's status; the words and colour say the rest.
        assert badge(page.text, 'class="status-line"') == (
            '<span class="status status-completed_with_errors" data-status="completed">'
            "completed with errors</span>"
        )
        fragment = console.get(f"/console/evaluations/{broken['id']}/progress")
        assert "completed with errors" in fragment.text
        clean_page = console.get(f"/console/evaluations/{clean['id']}")
        assert badge(clean_page.text, 'class="status-line"') == (
            '<span class="status status-completed" data-status="completed">completed</span>'
        )
        # The badge is not green: its class has the errored colours, not the passed ones.
        css = console.get("/static/console.css").text
        rule = re.search(r"\.status-completed_with_errors \{([^}]*)\}", css)
        assert rule and "var(--err" in rule.group(1) and "var(--pass" not in rule.group(1)

    def test_a_run_with_errored_results_says_so(self, api: Api, judge: ScriptedJudge) -> None:
        judge.script(lambda request: Reply(status=400))
        key = api.new_key()
        client = api.client(key)
        dataset = quiz_dataset(client, rows=2)
        predictions = [{"index": i, "prediction": "ANSWER: A"} for i in range(2)]
        response = client.post(
            "/v1/runs",
            json={
                "name": "run judge down",
                "dataset_id": dataset,
                "predictions": predictions,
                "limit": 2,
                "metrics": [G_EVAL],
            },
        )
        assert response.status_code == 202, response.text
        final = wait_run(api, client, response.json()["id"])
        assert final["status"] == "completed" and final["completed_with_errors"] is True

        console = signed_in(api, key)
        expected = '<span class="status status-completed_with_errors">completed with errors</span>'
        assert badge(console.get("/console/runs").text, "run judge down") == expected
        run_page = console.get(f"/console/runs/{final['id']}").text
        assert badge(run_page, 'class="status-line"') == expected
