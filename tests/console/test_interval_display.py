"""The console shows each interval's method, or that n is too small for one (both backends)."""

import re
from html import unescape
from typing import Any

from tests.comparisons.helpers import quiz_dataset, run
from tests.console.helpers import csrf_of, signed_in
from tests.fixtures.api import Api


def submitted(api: Api, key: str, correct: list[bool]) -> dict[str, Any]:
    client = api.client(key)
    # A wrong answer still shares most words: BLEU scores it between 0 and 1.
    cases = [
        {
            "id": f"c{i}",
            "input": "q",
            "actual_output": "the cat sat on the mat",
            "expected_output": "the cat sat on the mat" if ok else "the cat sat on a mat",
        }
        for i, ok in enumerate(correct)
    ]
    response = client.post(
        "/v1/evaluations",
        json={"test_cases": cases, "metrics": [{"type": "exact_match"}, {"type": "bleu"}]},
    )
    assert response.status_code == 202, response.text
    return api.wait(client, response.json()["id"])


def text_of(html: str) -> str:
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


class TestIntervalDisplay:
    def test_evaluation_page_names_wilson_and_says_when_n_is_too_small(self, api: Api) -> None:
        # The walk-through's two exact_match results: [-5.85, 6.85] before; now Wilson.
        key = api.new_key()
        evaluation = submitted(api, key, [True, False])
        page = signed_in(api, key).get(f"/console/evaluations/{evaluation['id']}")
        assert page.status_code == 200
        shown = text_of(page.text)
        assert "[0.095, 0.905] wilson" in shown or "[0.0945, 0.9055] wilson" in shown, shown
        assert "-5.85" not in shown and "6.85" not in shown
        # BLEU scores between 0 and 1 at n = 2: no bootstrap, and the note says why, as text.
        assert "no interval from 2 scores: at least 10 are needed" in shown

    def test_run_report_and_comparison_show_the_method(self, api: Api) -> None:
        key = api.new_key()
        client = api.client(key)
        dataset = quiz_dataset(client, rows=2)
        run_id = run(api, client, dataset, {1}, rows=2)
        console = signed_in(api, key)
        report = text_of(console.get(f"/console/runs/{run_id}").text)
        assert "wilson" in report

        first = submitted(api, key, [True] * 12)
        second = submitted(api, key, [True] * 6 + [False] * 6)
        form = console.get("/console/compare", params={"baseline": first["id"]})
        created = console.post(
            "/console/compare",
            data={
                "baseline_id": first["id"],
                "candidate_id": second["id"],
                "csrf_token": csrf_of(form.text),
            },
        )
        assert created.status_code == 303
        shown = text_of(console.get(created.headers["location"]).text)
        assert "paired bootstrap bca" in shown
