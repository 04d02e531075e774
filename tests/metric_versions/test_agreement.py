"""Agreement of a metric version with people, and the calibrated mean, through the HTTP API
(issue 29 items 4 and 5): GET /v1/metric_versions/{id}/agreement equals scikit-learn,
`krippendorff` and scipy on planted labels; one class only gives notes, not NaN; another tenant
gets 404; evaluation summaries and results say "not checked" until the version has labels,
then show κ; the calibrated mean equals ppi_py's on the evaluation's data with routed labels
left out; labels outlive the evaluation and count for a re-run of the same version."""

import json
import math
import re

import krippendorff
import numpy as np
import ppi_py
import pytest
from scipy.stats import spearmanr
from sklearn.metrics import cohen_kappa_score
from sqlalchemy import event, update

from app.models import Label
from tests.fixtures.api import Api
from tests.fixtures.judge import Reply, ScriptedJudge, plausible_answer, task_of
from tests.labels.helpers import Team, problem
from tests.online.test_receiver import judged_results, make_rule, model_and_judge, semconv_span

METRIC = {
    "type": "g_eval",
    "name": "helpfulness",
    "evaluation_steps": ["Check the answer is right."],
    "evaluation_params": ["input", "actual_output"],
    "threshold": 0.5,
}
N = 30
# The judge's score of `question i` (out of 10): a spread over the scale.
JUDGE = [(3 * i + 1) % 11 for i in range(N)]
STATISTICS = (
    "cohen_kappa",
    "weighted_kappa",
    "krippendorff_alpha",
    "krippendorff_alpha_people",
    "spearman",
    "tpr",
    "tnr",
    "mean_bias",
)


def scored_by_question(request: dict) -> Reply | dict:
    """The judge scores `question i` JUDGE[i] out of 10 (`constant i`: 8)."""
    text = json.dumps(request)
    if task_of(request) == "g_eval_score":
        found = re.search(r"question (\d+)", text)
        score = JUDGE[int(found.group(1))] if found else 8
        return Reply(content=json.dumps({"reason": f"graded {score}", "score": score}))
    return plausible_answer(request)


@pytest.fixture(autouse=True)
def scripted(judge: ScriptedJudge) -> None:
    judge.script(scored_by_question)


def cases(count: int = N, word: str = "question") -> list[dict]:
    return [
        {"id": f"q{i}", "input": f"{word} {i}", "actual_output": f"answer {i}"}
        for i in range(count)
    ]


def evaluate(team: Team, test_cases: list[dict]) -> dict:
    response = team.client.post(
        "/v1/evaluations", json={"test_cases": test_cases, "metrics": [METRIC]}
    )
    assert response.status_code == 202, response.text
    final = team.api.wait(team.client, response.json()["id"])
    assert final["status"] == "completed", final
    return final


def results(team: Team, evaluation_id: str) -> list[dict]:
    response = team.client.get(f"/v1/evaluations/{evaluation_id}/results", params={"limit": 100})
    assert response.status_code == 200, response.text
    return sorted(response.json()["data"], key=lambda row: row["test_case_index"])


def give(client, result_id: str, value: float | bool, rationale: str | None = None) -> dict:
    response = client.post(
        "/v1/labels", json={"result_id": result_id, "value": value, "rationale": rationale}
    )
    assert response.status_code == 201, response.text
    return response.json()


def agreement(team: Team, version: str, **params) -> dict:
    response = team.client.get(f"/v1/metric_versions/{version}/agreement", params=params)
    assert response.status_code == 200, response.text
    return response.json()


def planted(i: int) -> float:
    """Ann's label of item i: near the judge's score, far on every fifth."""
    judge = JUDGE[i] / 10
    return round(1 - judge, 2) if i % 5 == 0 else round(min(1.0, judge + 0.05 * (i % 3)), 2)


class TestAgreementEqualsTheLibraries:
    def test_every_statistic_is_the_librarys_number_on_planted_labels(self, api: Api) -> None:
        team = Team(api)
        final = evaluate(team, cases())
        rows = results(team, final["id"])
        version = rows[0]["metric_version"]
        ann = api.client(team.new_key(None, name="ann"))
        bob = api.client(team.new_key(None, name="bob"))
        bob_says = {}
        for i, row in enumerate(rows):
            give(ann, row["id"], planted(i), rationale=f"ann on {i}")
            if i % 2 == 0:
                bob_says[i] = round(max(0.0, planted(i) - 0.1), 2)
                give(bob, row["id"], bob_says[i], rationale=f"bob on {i}")

        found = agreement(team, version)

        judge = np.array([row["score"] for row in rows])
        assert list(judge) == [score / 10 for score in JUDGE]
        ann_values = np.array([planted(i) for i in range(N)])
        bob_values = np.array([bob_says.get(i, np.nan) for i in range(N)])
        people = np.nanmean(np.vstack([ann_values, bob_values]), axis=0)
        people_pass = (
            np.nanmean(
                np.vstack(
                    [ann_values >= 0.5, np.where(np.isnan(bob_values), np.nan, bob_values >= 0.5)]
                ),
                axis=0,
            )
            >= 0.5
        )
        judge_pass = judge >= 0.5
        bins = lambda values: np.clip(np.floor(values * 5), 0, 4).astype(int)  # noqa: E731
        (tn, fp), (fn, tp) = [
            [int(np.sum((people_pass == p) & (judge_pass == j))) for j in (False, True)]
            for p in (False, True)
        ]
        expected = {
            "cohen_kappa": cohen_kappa_score(people_pass, judge_pass),
            "weighted_kappa": cohen_kappa_score(
                bins(people), bins(judge), labels=list(range(5)), weights="quadratic"
            ),
            "krippendorff_alpha": krippendorff.alpha(
                reliability_data=np.vstack([judge, ann_values, bob_values]),
                level_of_measurement="interval",
            ),
            "krippendorff_alpha_people": krippendorff.alpha(
                reliability_data=np.vstack([ann_values, bob_values]),
                level_of_measurement="interval",
            ),
            "spearman": spearmanr(judge, people).statistic,
            "tpr": tp / (tp + fn),
            "tnr": tn / (tn + fp),
            "mean_bias": float(np.mean(judge - people)),
        }
        assert found["object"] == "metric_version.agreement"
        assert (found["n"], found["n_labels"], found["people"]) == (N, N + N // 2, 2)
        assert found["label_kind"] == "score"
        assert (found["threshold"], found["threshold_source"]) == (0.5, "labels")
        assert found["scale"] == [0.0, 1.0]
        assert found["interval_method"] == "percentile_bootstrap"
        for name, value in expected.items():
            statistic = found[name]
            assert statistic["value"] == pytest.approx(value, abs=1e-9), name
            low, high = statistic["ci95"]
            assert low <= high, name
        assert found["confusion_matrix"]["matrix"] == [[tn, fp], [fn, tp]]

        # Worst first, each naming where it was labelled and what each person said.
        gaps = [row["gap"] for row in found["disagreements"]]
        assert gaps == sorted(gaps, reverse=True) and gaps
        worst = found["disagreements"][0]
        i = int(worst["test_case_id"][1:])
        assert worst["result_id"] == rows[i]["id"] and worst["evaluation_id"] == final["id"]
        assert worst["score"] == pytest.approx(judge[i])
        named = {label["actor_name"]: label for label in worst["labels"]}
        assert named["ann"]["value"] == planted(i)
        assert named["ann"]["rationale"] == f"ann on {i}"
        assert named["ann"]["selection"] == "direct"

        # ?threshold= overrides the labels' threshold.
        strict = agreement(team, version, threshold=0.85)
        assert (strict["threshold"], strict["threshold_source"]) == (0.85, "query")
        expected_strict = cohen_kappa_score(
            np.nanmean(
                np.vstack(
                    [ann_values >= 0.85, np.where(np.isnan(bob_values), np.nan, bob_values >= 0.85)]
                ),
                axis=0,
            )
            >= 0.5,
            judge >= 0.85,
        )
        assert strict["cohen_kappa"]["value"] == pytest.approx(expected_strict, abs=1e-9)

    def test_pass_fail_labels_with_one_class_only_give_notes_not_nan(self, api: Api) -> None:
        team = Team(api)
        final = evaluate(team, cases(12, "constant"))
        rows = results(team, final["id"])
        for row in rows:
            give(team.client, row["id"], True)
        response = team.client.get(f"/v1/metric_versions/{rows[0]['metric_version']}/agreement")
        assert response.status_code == 200
        assert "NaN" not in response.text
        found = response.json()
        assert found["label_kind"] == "pass_fail" and found["n"] == 12
        assert found["confusion_matrix"]["matrix"] == [[0, 0], [0, 12]]
        for name in ("cohen_kappa", "spearman", "tnr", "weighted_kappa"):
            assert found[name]["value"] is None and found[name]["note"], name
        assert "one class only" in found["cohen_kappa"]["note"]
        assert found["tpr"]["value"] == 1.0
        assert found["disagreements"] == []


class TestTenants:
    def test_another_tenants_version_is_404_and_an_unknown_one_names_the_path(
        self, api: Api
    ) -> None:
        team, other = Team(api), Team(api)
        final = evaluate(team, cases(3))
        version = final["per_metric"][0]["metric_version"]
        assert agreement(team, version)["n"] == 0
        body = problem(other.client.get(f"/v1/metric_versions/{version}/agreement"), 404)
        assert body["errors"][0]["pointer"] == "/path/version_id"
        problem(team.client.get("/v1/metric_versions/mv_000000000000000000000000/agreement"), 404)


class TestSummaries:
    def test_not_checked_without_labels_then_kappa_and_the_calibrated_mean(self, api: Api) -> None:
        team = Team(api)
        final = evaluate(team, cases())
        summary = final["per_metric"][0]
        assert summary["agreement"] is None and summary["calibrated"] is None
        rows = results(team, final["id"])
        assert all(row["agreement"] is None for row in rows)
        version = summary["metric_version"]

        labelled = range(0, N, 2)
        routed = (1, 3, 5)
        for i in labelled:
            give(team.client, rows[i]["id"], planted(i))
        routed_ids = [give(team.client, rows[i]["id"], 0.0)["id"] for i in routed]
        with api.served.runtime.session() as session:
            session.execute(
                update(Label).where(Label.id.in_(routed_ids)).values(selection="routed")
            )
            session.commit()

        found = agreement(team, version)
        again = team.client.get(f"/v1/evaluations/{final['id']}").json()["per_metric"][0]
        line = again["agreement"]
        assert line["metric_version"] == version
        assert line["n_labels"] == found["n_labels"] == len(labelled) + len(routed)
        # The report's κ: its value, its interval and its note (none here).
        assert line["cohen_kappa"] == found["cohen_kappa"]
        assert line["cohen_kappa"]["note"] is None
        assert {json.dumps(row["agreement"]) for row in results(team, final["id"])} == {
            json.dumps(line)
        }

        calibrated = again["calibrated"]
        judge = np.array([row["score"] for row in rows])
        people = np.array([planted(i) for i in labelled])
        others = np.array([judge[i] for i in range(N) if i not in labelled])
        assert calibrated["n_labels"] == len(labelled)
        assert calibrated["n_unlabelled"] == N - len(labelled)
        assert calibrated["method"] == "ppi++"
        assert calibrated["mean"] == pytest.approx(
            float(ppi_py.ppi_mean_pointestimate(people, judge[list(labelled)], others)[0]),
            abs=1e-9,
        )
        low, high = ppi_py.ppi_mean_ci(people, judge[list(labelled)], others, alpha=0.05)
        assert calibrated["ci95"] == pytest.approx([float(low[0]), float(high[0])], abs=1e-9)
        assert "3 labels routed" in calibrated["note"]
        assert not math.isclose(calibrated["mean"], again["mean_score"])

    def test_the_calibrated_interval_is_null_where_it_would_claim_certainty(self, api: Api) -> None:
        """Passes given to results the judge passed: ppi_py's interval of the pass rate is
        [1, 1] (the labels do not vary, λ is tuned to 0), while the judge fails 14 of the 18
        other results; and 5 labels are too few for a 95% interval at all. The estimate stays,
        its interval is null with the reason."""
        team = Team(api)
        final = evaluate(team, cases())
        rows = results(team, final["id"])
        passing = [i for i in range(N) if JUDGE[i] >= 5]
        for i in passing[:5]:
            give(team.client, rows[i]["id"], True)
        few = team.client.get(f"/v1/evaluations/{final['id']}").json()["per_metric"][0]
        assert few["calibrated"]["estimand"] == "pass_rate"
        assert few["calibrated"]["mean"] == pytest.approx(1.0)
        assert few["calibrated"]["ci95"] is None
        assert "at least 10" in few["calibrated"]["note"]

        for i in passing[5:12]:
            give(team.client, rows[i]["id"], True)
        calibrated = team.client.get(f"/v1/evaluations/{final['id']}").json()["per_metric"][0][
            "calibrated"
        ]
        others = np.array([float(JUDGE[i] >= 5) for i in range(N) if i not in passing[:12]])
        assert calibrated["n_labels"] == 12 and others.size == 18 and others.sum() == 4
        low, high = ppi_py.ppi_mean_ci(np.ones(12), np.ones(12), others, alpha=0.05)
        assert (float(low[0]), float(high[0])) == (1.0, 1.0)
        assert calibrated["mean"] == pytest.approx(1.0)
        assert calibrated["ci95"] is None and "no width" in calibrated["note"]

    def test_an_item_held_twice_is_one_labelled_unit(self, api: Api) -> None:
        """Every case twice (the same judged content, another id): a label on an item covers
        both of its results, but it is one person's judgment of one item, so PPI's n counts it
        once (statistics.md 4.5: N items, n labelled). Counted twice, n_labels was 30 from 15
        labels, and the interval was ppi_py's for 30 labelled items: narrower than the labels
        allow."""
        team = Team(api)
        twice = cases() + [{**case, "id": f"{case['id']}-again"} for case in cases()]
        final = evaluate(team, twice)
        rows = results(team, final["id"])
        labelled = range(0, N, 2)
        for i in labelled:
            give(team.client, rows[i]["id"], planted(i))
        calibrated = team.client.get(f"/v1/evaluations/{final['id']}").json()["per_metric"][0][
            "calibrated"
        ]
        assert (calibrated["n_labels"], calibrated["n_unlabelled"]) == (N // 2, N // 2)
        judge = np.array([rows[i]["score"] for i in range(N)])
        assert [rows[N + i]["score"] for i in range(N)] == list(judge)
        people = np.array([planted(i) for i in labelled])
        others = np.array([judge[i] for i in range(N) if i not in labelled])
        assert calibrated["mean"] == pytest.approx(
            float(ppi_py.ppi_mean_pointestimate(people, judge[list(labelled)], others)[0]),
            abs=1e-9,
        )
        low, high = ppi_py.ppi_mean_ci(people, judge[list(labelled)], others, alpha=0.05)
        assert calibrated["ci95"] == pytest.approx([float(low[0]), float(high[0])], abs=1e-9)

    def test_labels_outlive_the_evaluation_and_count_for_a_re_run(self, api: Api) -> None:
        team = Team(api)
        first = evaluate(team, cases())
        rows = results(team, first["id"])
        version = rows[0]["metric_version"]
        for i in range(0, N, 3):
            give(team.client, rows[i]["id"], planted(i))
        before = agreement(team, version)
        assert team.client.delete(f"/v1/evaluations/{first['id']}").status_code == 204

        after = agreement(team, version)
        assert (after["n"], after["n_labels"]) == (before["n"], before["n_labels"]) == (10, 10)
        assert after["cohen_kappa"] == before["cohen_kappa"]

        rerun = evaluate(team, cases())
        summary = rerun["per_metric"][0]
        assert summary["metric_version"] == version
        assert summary["agreement"]["n_labels"] == 10
        assert summary["calibrated"]["n_labels"] == 10
        assert summary["calibrated"]["n_unlabelled"] == N - 10

    def test_a_list_page_reads_its_versions_label_counts_once(self, api: Api) -> None:
        """Each evaluation on a list page shows its version's agreement and calibrated mean; the
        page reads the label counts of all its versions in one query, however many it lists."""
        team = Team(api)
        first = evaluate(team, cases(6))
        rows = results(team, first["id"])
        for i in range(0, 6, 2):
            give(team.client, rows[i]["id"], planted(i))
        others = [evaluate(team, cases(6, word)) for word in ("another question", "a third one")]
        statements: list[str] = []

        def watch(_conn, _cursor, statement: str, *_: object) -> None:
            statements.append(statement)

        # The version's report is made once, then kept per process: list it first.
        team.client.get("/v1/evaluations", params={"limit": 3})
        event.listen(api.served.runtime.engine, "before_cursor_execute", watch)
        try:
            pages = {}
            for limit in (1, 3):
                statements.clear()
                response = team.client.get("/v1/evaluations", params={"limit": limit})
                assert response.status_code == 200, response.text
                pages[limit] = response.json()["data"]
                assert len([s for s in statements if "FROM label" in s]) == 1, statements
        finally:
            event.remove(api.served.runtime.engine, "before_cursor_execute", watch)
        listed = {row["id"]: row["per_metric"][0] for row in pages[3]}
        assert set(listed) == {first["id"], *(other["id"] for other in others)}
        for summary in listed.values():
            assert summary["metric_version"] == rows[0]["metric_version"]
            assert summary["agreement"]["n_labels"] == 3
        # The labels are first's items: only it has labelled results to calibrate with.
        assert listed[first["id"]]["calibrated"]["n_labels"] == 3
        assert all(listed[other["id"]]["calibrated"] is None for other in others), listed


class TestOnlineResults:
    def test_an_online_rules_results_show_their_versions_agreement(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(model_and_judge)
        client = api.tenant_client()
        rule = make_rule(client)
        body = {"resourceSpans": [semconv_span("00f067aa0ba902b7", "app", "Capital of France?")]}
        assert client.post("/v1/traces", json=body).status_code == 200
        [result] = judged_results(api, client, rule["id"], 1)
        assert result["metric_version"] and result["error"] is None, result
        assert result["agreement"] is None
        give(client, result["id"], True)
        page = client.get(f"/v1/online_rules/{rule['id']}/results").json()["data"]
        assert page[0]["agreement"]["metric_version"] == result["metric_version"]
        assert page[0]["agreement"]["n_labels"] == 1


class TestThresholds:
    def test_labelled_results_with_different_thresholds_say_which_is_used(self, api: Api) -> None:
        team = Team(api)
        first = results(team, evaluate(team, cases(12))["id"])
        response = team.client.post(
            "/v1/evaluations",
            json={
                "test_cases": cases(12, "another question"),
                "metrics": [{**METRIC, "threshold": 0.7}],
            },
        )
        assert response.status_code == 202, response.text
        team.api.wait(team.client, response.json()["id"])
        second = results(team, response.json()["id"])
        # The threshold is not part of the version: both evaluations judge with one.
        assert first[0]["metric_version"] == second[0]["metric_version"]
        for row in first[:6] + second[:2]:
            give(team.client, row["id"], 0.6)
        found = agreement(team, first[0]["metric_version"])
        assert (found["threshold"], found["threshold_source"]) == (0.5, "labels")
        assert found["thresholds"] == [0.5, 0.7]
        assert any("0.5 (6), 0.7 (2)" in note for note in found["notes"])


class TestMixedLabels:
    def test_a_few_pass_fail_labels_leave_the_scale_statistics_on_the_score_labels(
        self, api: Api
    ) -> None:
        # ann labels items 0-25 on the scale; bob passes or fails items 0-4 (beside ann) and
        # 26-29 (alone), as the console's Pass/Fail buttons do.
        team = Team(api)
        final = evaluate(team, cases())
        rows = results(team, final["id"])
        version = rows[0]["metric_version"]
        ann = api.client(team.new_key(None, name="ann"))
        bob = api.client(team.new_key(None, name="bob"))
        on_scale = list(range(26))
        bob_says = {i: i % 2 == 0 for i in [*range(5), *range(26, N)]}
        for i in on_scale:
            give(ann, rows[i]["id"], planted(i))
        for i, passed in bob_says.items():
            give(bob, rows[i]["id"], passed)

        found = agreement(team, version)

        judge = np.array([row["score"] for row in rows])
        ann_values = np.array([planted(i) for i in on_scale])
        assert found["label_kind"] == "mixed" and found["n"] == N
        assert any("26 on the scale and 9 pass/fail" in note for note in found["notes"])
        # On the scale: ann's labels of items 0-25 only.
        scale_judge = judge[on_scale]

        def bins(values: np.ndarray) -> np.ndarray:
            return np.minimum((values * 5).astype(int), 4)

        expected = {
            "weighted_kappa": cohen_kappa_score(
                bins(ann_values), bins(scale_judge), labels=range(5), weights="quadratic"
            ),
            "krippendorff_alpha": krippendorff.alpha(
                reliability_data=np.vstack([scale_judge, ann_values]),
                level_of_measurement="interval",
            ),
            "spearman": spearmanr(scale_judge, ann_values).statistic,
            "mean_bias": np.mean(scale_judge - ann_values),
        }
        for name, value in expected.items():
            assert found[name]["value"] == pytest.approx(value, abs=1e-9), name
            assert "from the 26 of 30 items" in found[name]["note"], name
        assert found["krippendorff_alpha_people"]["value"] is None
        # Pass/fail: every label, ann's cut at the threshold; a tie passes.
        verdicts = [
            [
                v
                for v in ([planted(i) >= 0.5] if i < 26 else []) + [bob_says.get(i)]
                if v is not None
            ]
            for i in range(N)
        ]
        people_pass = np.array([np.mean(v) >= 0.5 for v in verdicts])
        judge_pass = judge >= 0.5
        assert found["cohen_kappa"]["value"] == pytest.approx(
            cohen_kappa_score(people_pass, judge_pass), abs=1e-9
        )
        assert "from all 30 items" in found["cohen_kappa"]["note"]
        table = [
            [int(np.sum(~people_pass & ~judge_pass)), int(np.sum(~people_pass & judge_pass))],
            [int(np.sum(people_pass & ~judge_pass)), int(np.sum(people_pass & judge_pass))],
        ]
        assert found["confusion_matrix"]["matrix"] == table
        assert found["tpr"]["value"] == pytest.approx(table[1][1] / sum(table[1]))
        assert found["tnr"]["value"] == pytest.approx(table[0][0] / sum(table[0]))

        # The calibrated mean stays a mean on the scale: ann's labels are the labelled set,
        # the items with only bob's pass/fail count as unlabelled.
        calibrated = team.client.get(f"/v1/evaluations/{final['id']}").json()["per_metric"][0][
            "calibrated"
        ]
        others = judge[26:]
        assert calibrated["estimand"] == "mean"
        assert (calibrated["n_labels"], calibrated["n_unlabelled"]) == (26, 4)
        assert calibrated["mean"] == pytest.approx(
            float(ppi_py.ppi_mean_pointestimate(ann_values, scale_judge, others)[0]), abs=1e-9
        )
        assert "9 pass/fail labels are set aside" in calibrated["note"]


class TestThreshold:
    def test_a_threshold_outside_the_scale_is_refused(self, api: Api) -> None:
        team = Team(api)
        version = evaluate(team, cases(3))["per_metric"][0]["metric_version"]
        body = problem(
            team.client.get(f"/v1/metric_versions/{version}/agreement", params={"threshold": 5}),
            422,
        )
        (error,) = body["errors"]
        assert error["loc"] == "query.threshold" and "[0, 1]" in error["msg"]
        assert agreement(team, version, threshold=1)["threshold"] == 1

    def test_minus_zero_is_zero_and_a_near_miss_is_named_as_sent(self, api: Api) -> None:
        team = Team(api)
        version = evaluate(team, cases(3))["per_metric"][0]["metric_version"]
        path = f"/v1/metric_versions/{version}/agreement"
        minus = team.client.get(path, params={"threshold": "-0"})
        assert minus.status_code == 200 and '"threshold":-0.0' not in minus.text.replace(" ", "")
        assert '"threshold":-0.0' not in team.client.get(path, params={"threshold": 0}).text
        body = problem(team.client.get(path, params={"threshold": "1.0000001"}), 422)
        assert "threshold 1.0000001 is outside" in body["errors"][0]["msg"]
