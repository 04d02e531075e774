"""Wherever the console shows an interval the API accompanies with a note, the note is on the
page as text, not only in a tooltip (both backends): an interval of no width reads as certainty
without it. The evaluation summary (every G-Eval score 0.8: [0.8, 0.8]), its People column (the
judge passed every item: κ 0 [0, 0] whatever the people say) and the test case's line, a run
report's row with too few samples."""

import re
from html import unescape

from tests.comparisons.helpers import quiz_dataset, run
from tests.console.helpers import signed_in
from tests.console.test_interval_display import text_of
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge
from tests.labels.helpers import Team
from tests.metric_versions.test_agreement import METRIC, cases, give, results, scored_by_question

ZERO_WIDTH = "every score is 0.8: the resamples do not vary, so the interval has no width"
KAPPA_ZERO = "the judge passed every item: κ is 0 whatever the people say"


def notes_shown(html: str) -> list[str]:
    """The text of each interval note on a page, as a reader sees it."""
    return [
        unescape(re.sub(r"\s+", " ", found)).strip()
        for found in re.findall(r'<small class="interval-note">(.*?)</small>', html, re.S)
    ]


class TestIntervalNotes:
    def test_a_zero_width_interval_and_a_kappa_of_one_verdict_say_why(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        # `constant i` is scored 8 of 10 by the judge: 24 results of 0.8, every one passed.
        judge.script(scored_by_question)
        team = Team(api)
        created = team.client.post(
            "/v1/evaluations", json={"test_cases": cases(24, "constant"), "metrics": [METRIC]}
        )
        assert created.status_code == 202, created.text
        final = api.wait(team.client, created.json()["id"])
        summary = final["per_metric"][0]
        assert summary["ci95"] == [0.8, 0.8] and summary["interval_note"] == ZERO_WIDTH
        rows = results(team, final["id"])
        # People pass half the items and fail the rest: the judge passed them all.
        for i, row in enumerate(rows):
            give(team.client, row["id"], i % 2 == 0)
        brief = team.client.get(f"/v1/evaluations/{final['id']}").json()["per_metric"][0]
        kappa = brief["agreement"]["cohen_kappa"]
        assert kappa["value"] == 0 and kappa["ci95"] == [0, 0], kappa
        # The brief carries the agreement report's own note, as the full report does.
        assert kappa["note"] == KAPPA_ZERO

        console = signed_in(api, team.key)
        try:
            page = console.get(f"/console/evaluations/{final['id']}")
            case = console.get(f"/console/evaluations/{final['id']}/cases/0")
        finally:
            console.close()
        assert page.status_code == 200 and case.status_code == 200
        shown = text_of(page.text)
        assert "0.8 [0.8, 0.8] bootstrap bca" in shown
        assert ZERO_WIDTH in shown and KAPPA_ZERO in shown
        assert notes_shown(page.text) == [ZERO_WIDTH, KAPPA_ZERO]
        assert "κ 0.00 [0.00, 0.00], 24 labels" in shown
        assert notes_shown(case.text) == [KAPPA_ZERO]

    def test_a_run_report_row_without_an_interval_says_why(self, api: Api) -> None:
        key = api.new_key()
        client = api.client(key)
        run_id = run(api, client, quiz_dataset(client, rows=1), set(), rows=1)
        report = client.get(f"/v1/runs/{run_id}").json()["report"]
        notes = [row["interval_note"] for row in report if row["interval_note"]]
        assert notes and all(note.startswith("no interval from 1 score") for note in notes)
        console = signed_in(api, key)
        try:
            page = console.get(f"/console/runs/{run_id}")
        finally:
            console.close()
        assert page.status_code == 200
        assert notes_shown(page.text) == notes
        assert all(note in text_of(page.text) for note in notes)
