"""The evaluation page's score histograms come from the counts the scoring write keeps in the
metric summaries: after real scoring they match the scores the results report, bin by bin."""

import re
from html import unescape

from app.models.metric_summary import HISTOGRAM_BINS, score_bin
from tests.console.helpers import signed_in
from tests.fixtures.api import Api

WORDS = ["the", "cat", "sat", "on", "the", "mat", "with", "a", "hat"]


def cases(count: int) -> list[dict]:
    # Outputs that share more or fewer words with the expected one: scores across [0, 1].
    return [
        {
            "id": f"c{index}",
            "input": "say it",
            "actual_output": " ".join(WORDS[: 1 + index % len(WORDS)]),
            "expected_output": " ".join(WORDS),
        }
        for index in range(count)
    ]


def shown(page: str, metric: str) -> list[int]:
    figure = re.search(
        rf'aria-label="Score histogram of {re.escape(metric)}">(.*?)</svg>', page, re.S
    )
    assert figure, f"no histogram of {metric}"
    labels = re.findall(r"<title>([^<]*)</title>", figure.group(1))
    return [int(unescape(label).rsplit(": ", 1)[1]) for label in labels]


def test_histograms_count_every_stored_score(api: Api) -> None:
    key = api.new_key()
    metrics = [{"type": "rouge", "name": "rouge"}, {"type": "exact_match", "name": "exact"}]
    with api.client(key) as client:
        response = client.post(
            "/v1/evaluations", json={"metrics": metrics, "test_cases": cases(27)}
        )
        assert response.status_code == 202, response.text
        evaluation_id = response.json()["id"]
        api.wait(client, evaluation_id)
        results = client.get(
            f"/v1/evaluations/{evaluation_id}/results", params={"limit": 100}
        ).json()["data"]
    page = signed_in(api, key).get(f"/console/evaluations/{evaluation_id}").text
    for metric in ("rouge", "exact"):
        expected = [0] * HISTOGRAM_BINS
        for result in results:
            if result["metric"] == metric and score_bin(result["score"]) is not None:
                expected[score_bin(result["score"])] += 1
        assert shown(page, metric) == expected
        assert sum(expected) == 27
    # The rouge scores spread over several bins; exact_match's fall in the first and the last.
    assert sum(1 for count in shown(page, "rouge") if count) >= 3
    assert [i for i, count in enumerate(shown(page, "exact")) if count] == [0, HISTOGRAM_BINS - 1]
