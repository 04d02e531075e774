"""Alignments through the API and the scripted judge: a candidate version proposed from people's
labelled disagreements carries their guidance in its prompt, agrees with planted labels better
than the current version on held-out items (κ equal to scikit-learn's on the same judgments),
and is activated or declined, each audited; the split never puts one item or one image on both
sides; too few labels are refused naming why; another tenant sees none of it."""

import re
import warnings

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score
from sqlalchemy import select

from app.alignments.split import split
from app.models import AuditEvent, Tenant
from app.stats._human import BINS
from tests.alignments.helpers import (
    ITEMS,
    NOTES,
    answer,
    cases,
    guided,
    label_all,
    user_text,
    wait,
)
from tests.fixtures.api import Api
from tests.fixtures.judge import Reply, ScriptedJudge
from tests.labels.helpers import Team, problem


def audit_actions(api: Api, team: Team) -> list[tuple[str, str]]:
    with api.served.runtime.session() as session:
        tenant_id = session.scalars(select(Tenant.id).where(Tenant.name == team.name)).one()
        rows = session.execute(
            select(AuditEvent.action, AuditEvent.object_id)
            .where(AuditEvent.tenant_id == tenant_id, AuditEvent.object_type == "alignment")
            .order_by(AuditEvent.id)
        ).all()
    return [(action, object_id) for action, object_id in rows]


@pytest.fixture
def labelled(api: Api, judge: ScriptedJudge) -> tuple[Team, str, dict[str, str]]:
    """A team with a g_eval version whose 24 items people labelled: (team, version, keys)."""
    judge.script(answer)
    team = Team(api)
    evaluation_id = team.evaluate(cases=cases())
    keys = label_all(team.client, evaluation_id)
    version = team.results(evaluation_id)[("c0", "helpfulness")]["metric_version"]
    return team, version, keys


class TestAlignment:
    def test_the_candidate_agrees_better_and_is_activated(
        self, api: Api, judge: ScriptedJudge, labelled: tuple[Team, str, dict[str, str]]
    ) -> None:
        team, version, keys = labelled
        judge.requests.clear()
        response = team.client.post("/v1/alignments", json={"metric_version": version})
        assert response.status_code == 202, response.text
        created = response.json()
        assert response.headers["location"] == f"/v1/alignments/{created['id']}"
        assert created["id"].startswith("aln_") and created["decision"] is None
        assert created["metric_version"] == version == created["active_version"]
        candidate = created["candidate_version"]
        assert candidate != version and candidate.startswith("mv_")
        # One call wrote the notes; the guidance holds them and the people's verdicts.
        assert len(judge.calls_for("rubric_notes")) == 1
        guidance = created["guidance"]
        assert guidance["notes"] == NOTES
        failed = [example for example in guidance["examples"] if example["verdict"] == "fail"]
        assert failed and all(example["rationale"] == "the sum is wrong" for example in failed)
        assert created["candidate_metric"]["guidance"] == guidance
        assert created["notes_usage"]["calls"] == 1

        shown = team.client.get(f"/v1/metric_versions/{candidate}").json()
        assert (shown["status"], shown["parent_id"]) == ("candidate", version)
        assert shown["definition"]["options"]["guidance"] == guidance

        body = wait(api, team.client, created["id"])
        assert body["status"] == "completed"
        split_ = body["split"]
        held_out, proposal = split_["held_out"], split_["proposal"]
        assert sorted(held_out + proposal) == sorted(keys.values())
        assert not set(held_out) & set(proposal)
        # Half, give or take the one image group that tips it over.
        assert abs(len(held_out) - ITEMS // 2) <= 1
        # One image never sits on both sides.
        for first, second in (("c0", "c1"), ("c2", "c3")):
            assert (keys[first] in held_out) == (keys[second] in held_out)

        # The candidate's verdict calls carry the guidance; the current version's do not.
        scored = judge.calls_for("g_eval_score")
        with_guidance = [request for request in scored if guided(request)]
        assert len(with_guidance) == len(held_out) == len(scored) - len(held_out)
        system = with_guidance[0]["messages"][0]["content"]
        assert NOTES in system and "the sum is wrong" in system

        report = body["report"]
        assert report["label_kind"] == "pass_fail"
        assert report["before"]["metric_version"] == version
        assert report["after"]["metric_version"] == candidate
        items = report["items"]
        assert [item["item_key"] for item in items] == held_out
        people = [all(item["labels"].values()) for item in items]
        for side, name in (("before", "current"), ("after", "candidate")):
            judged = [item[name] >= report["threshold"] for item in items]
            expected = cohen_kappa_score(people, judged, labels=[False, True])
            assert report[side]["cohen_kappa"]["value"] == pytest.approx(expected)
            assert report[side]["n"] == len(held_out)
        before = report["before"]["cohen_kappa"]["value"]
        after = report["after"]["cohen_kappa"]["value"]
        assert after == pytest.approx(1.0) and after > before and report["improved"] is True
        low, high = report["before"]["cohen_kappa"]["ci95"]
        assert low <= before <= high
        assert body["usage"]["calls"] == 2 * len(held_out) + 1

        listed = team.client.get("/v1/alignments", params={"metric_version": version}).json()
        assert [row["id"] for row in listed["data"]] == [created["id"]]

        activated = team.client.post(f"/v1/alignments/{created['id']}/activate")
        assert activated.status_code == 200, activated.text
        assert activated.json()["decision"] == "activated"
        assert activated.json()["active_version"] == candidate
        assert activated.json()["decided_by"].startswith("key:")
        shown = team.client.get(f"/v1/metric_versions/{candidate}").json()
        assert shown["status"] == "active"
        again = team.client.post(f"/v1/alignments/{created['id']}/decline")
        assert problem(again, 409)["errors"][0]["loc"] == "alignment_id"
        assert audit_actions(api, team) == [
            ("alignment.create", created["id"]),
            ("alignment.activate", created["id"]),
        ]

        # candidate_metric is submittable as it stands, under the metric's own name, and its
        # results carry the candidate's version.
        metric = body["candidate_metric"]
        assert metric["name"] == "helpfulness"
        submitted = team.client.post(
            "/v1/evaluations", json={"test_cases": cases(2), "metrics": [metric]}
        )
        assert submitted.status_code == 202, submitted.text
        assert api.wait(team.client, submitted.json()["id"])["status"] == "completed"
        rows = team.results(submitted.json()["id"])
        assert {row["metric_version"] for row in rows.values()} == {candidate}

    def test_declined_and_isolated(
        self, api: Api, judge: ScriptedJudge, labelled: tuple[Team, str, dict[str, str]]
    ) -> None:
        team, version, _ = labelled
        created = team.client.post(
            "/v1/alignments", json={"metric_version": version, "seed": 7}
        ).json()
        other = Team(api)
        for method, path in (
            ("GET", f"/v1/alignments/{created['id']}"),
            ("POST", f"/v1/alignments/{created['id']}/activate"),
            ("POST", f"/v1/alignments/{created['id']}/decline"),
            ("POST", f"/v1/alignments/{created['id']}/cancel"),
        ):
            assert problem(other.client.request(method, path), 404)["status"] == 404
        # Another team's version, named in a body: a 422 naming the field (404s are for paths).
        refused = other.client.post("/v1/alignments", json={"metric_version": version})
        assert [error["loc"] for error in problem(refused, 422)["errors"]] == ["metric_version"]
        assert other.client.get("/v1/alignments").json()["data"] == []

        declined = team.client.post(f"/v1/alignments/{created['id']}/decline")
        assert declined.status_code == 200, declined.text
        assert declined.json()["decision"] == "declined"
        assert declined.json()["active_version"] == version
        shown = team.client.get(f"/v1/metric_versions/{created['candidate_version']}").json()
        assert shown["status"] == "declined"
        assert ("alignment.decline", created["id"]) in audit_actions(api, team)
        wait(api, team.client, created["id"])

    def test_declining_another_alignment_of_an_active_candidate_leaves_it_active(
        self, api: Api, labelled: tuple[Team, str, dict[str, str]]
    ) -> None:
        """Two alignments of one version proposing the same candidate (versions are named by
        their content) share it: declining the second left the one the first activated
        `declined`, and the parent's results no longer said an aligned version is active."""
        team, version, _ = labelled
        first = team.client.post("/v1/alignments", json={"metric_version": version}).json()
        wait(api, team.client, first["id"])
        second = team.client.post("/v1/alignments", json={"metric_version": version}).json()
        assert second["candidate_version"] == first["candidate_version"]
        wait(api, team.client, second["id"])
        activated = team.client.post(f"/v1/alignments/{first['id']}/activate")
        assert activated.status_code == 200, activated.text

        declined = team.client.post(f"/v1/alignments/{second['id']}/decline")

        assert declined.status_code == 200, declined.text
        assert declined.json()["decision"] == "declined"
        candidate = first["candidate_version"]
        shown = team.client.get(f"/v1/metric_versions/{candidate}").json()
        assert shown["status"] == "active"
        again = team.evaluate(cases=cases(2))
        agreement = team.results(again)[("c0", "helpfulness")]["agreement"]
        assert agreement["superseded_by"] == candidate
        assert ("alignment.decline", second["id"]) in audit_actions(api, team)


class TestPairedItems:
    def test_before_and_after_read_the_items_both_versions_scored(
        self, api: Api, judge: ScriptedJudge, labelled: tuple[Team, str, dict[str, str]]
    ) -> None:
        """A candidate that judges as the current version does, but errors on some of the
        items the current version gets wrong: on the items both scored their κ is the same,
        so it is no improvement (measured on its own items, it was)."""
        team, version, keys = labelled

        def errs_where_the_current_is_wrong(request: dict) -> Reply | dict:
            found = re.search(r"What is (\d+)\+", user_text(request))
            if guided(request) and found and int(found.group(1)) % 4 == 1:
                return Reply(status=400, content="refused")
            if guided(request):
                # As the current version judges, guidance or not.
                request = {**request, "messages": request["messages"][1:]}
            return answer(request)

        judge.script(errs_where_the_current_is_wrong)
        created = team.client.post("/v1/alignments", json={"metric_version": version}).json()
        report = wait(api, team.client, created["id"])["report"]
        items = report["items"]
        errored = [item for item in items if item["candidate"] is None]
        both = [item for item in items if item["candidate"] is not None]
        assert errored and all(item["current"] is not None for item in items)
        assert all(item["candidate"] == item["current"] for item in both)
        people = [all(item["labels"].values()) for item in both]
        expected = cohen_kappa_score(
            people, [item["current"] >= report["threshold"] for item in both], labels=[False, True]
        )
        for side in ("before", "after"):
            assert report[side]["n"] == len(both)
            assert report[side]["cohen_kappa"]["value"] == pytest.approx(expected)
            assert f"{len(errored)} left out" in report[side]["cohen_kappa"]["note"]
        assert report["improved"] is False


class TestScoreLabels:
    def test_weighted_kappa_before_and_after_equal_scikit_learns(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(answer)
        team = Team(api)
        evaluation_id = team.evaluate(cases=cases())
        label_all(team.client, evaluation_id, scale=True)
        version = team.results(evaluation_id)[("c0", "helpfulness")]["metric_version"]
        created = team.client.post("/v1/alignments", json={"metric_version": version}).json()
        # A score label is an example's verdict with its value.
        assert "fail (0.20)" in {example["verdict"] for example in created["guidance"]["examples"]}
        report = wait(api, team.client, created["id"])["report"]
        assert report["label_kind"] == "score"
        items = report["items"]
        low, high = report["scale"]

        def binned(values: list[float]) -> list[int]:
            return [min(BINS - 1, int((value - low) / (high - low) * BINS)) for value in values]

        people = binned([sum(item["labels"].values()) / len(item["labels"]) for item in items])
        for side, name in (("before", "current"), ("after", "candidate")):
            expected = cohen_kappa_score(
                people,
                binned([item[name] for item in items]),
                labels=list(range(BINS)),
                weights="quadratic",
            )
            assert report[side]["weighted_kappa"]["value"] == pytest.approx(expected)
            assert report[side]["weighted_kappa"]["ci95"] is not None
        assert (
            report["after"]["weighted_kappa"]["value"] > report["before"]["weighted_kappa"]["value"]
        )


class TestRefusals:
    def test_too_few_labels(self, api: Api, judge: ScriptedJudge) -> None:
        judge.script(answer)
        team = Team(api)
        evaluation_id = team.evaluate(cases=cases(12))
        label_all(team.client, evaluation_id, 12)
        version = team.results(evaluation_id)[("c0", "helpfulness")]["metric_version"]
        body = problem(team.client.post("/v1/alignments", json={"metric_version": version}), 422)
        assert [error["loc"] for error in body["errors"]] == ["metric_version", "held_out_share"]
        assert "would be held out and at least 10 are needed" in body["errors"][0]["msg"]
        assert body["errors"][0]["type"] == "too_few_labels"
        assert judge.calls_for("rubric_notes") == []

    def test_unknown_version_and_bad_share(self, api: Api, judge: ScriptedJudge) -> None:
        team = Team(api)
        missing = team.client.post("/v1/alignments", json={"metric_version": "mv_nothing"})
        # The body's field is at fault (a 422), not a path parameter the route does not have.
        (error,) = problem(missing, 422)["errors"]
        assert (error["loc"], error["pointer"]) == ("metric_version", "/metric_version")
        assert error["type"] == "not_found" and "mv_nothing" in error["msg"]
        bad = team.client.post("/v1/alignments", json={"metric_version": "x", "held_out_share": 1})
        assert sorted(error["loc"] for error in problem(bad, 422)["errors"]) == [
            "held_out_share",
            "metric_version",
        ]
        # An unknown version among other faults: one answer names them all, the same status.
        everything = {"metric_version": "mv_nope", "held_out_share": 2, "seed": "x", "foo": 1}
        body = problem(team.client.post("/v1/alignments", json=everything), 422)
        assert sorted(error["loc"] for error in body["errors"]) == [
            "foo",
            "held_out_share",
            "metric_version",
            "seed",
        ], body


class TestGuidance:
    def test_guidance_is_a_new_version_and_in_the_prompt(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(answer)
        team = Team(api)
        plain = team.evaluate(cases=cases(2))
        guidance = {
            "examples": [{"input": "1+1?", "actual_output": "3", "verdict": "fail"}],
            "notes": "Arithmetic must be right.",
        }
        judge.requests.clear()
        body = {
            "test_cases": cases(2),
            "metrics": [
                {
                    "type": "g_eval",
                    "name": "helpfulness",
                    "evaluation_steps": ["Check the answer is right."],
                    "evaluation_params": ["input", "actual_output"],
                    "guidance": guidance,
                }
            ],
        }
        response = team.client.post("/v1/evaluations", json=body)
        assert response.status_code == 202, response.text
        assert api.wait(team.client, response.json()["id"])["status"] == "completed"
        with_guidance = team.results(response.json()["id"])[("c0", "helpfulness")]
        without = team.results(plain)[("c0", "helpfulness")]
        assert with_guidance["metric_version"] != without["metric_version"]
        requests = judge.calls_for("g_eval_score")
        assert requests and all(guided(request) for request in requests)
        system = requests[0]["messages"][0]["content"]
        assert "Arithmetic must be right." in system and "People's verdict: fail" in system
        too_many = {**body["metrics"][0], "guidance": {"examples": [guidance["examples"][0]] * 9}}
        refused = team.client.post("/v1/evaluations", json={**body, "metrics": [too_many]})
        assert problem(refused, 422)["errors"]


class TestSplit:
    def test_groups_sharing_an_image_stay_together(self) -> None:
        items = {f"k{n:02d}": ({f"blob:sha256:{n // 3}"} if n < 12 else set()) for n in range(40)}
        for seed in range(20):
            proposal, held_out = split(items, 0.5, seed)
            assert sorted(proposal + held_out) == sorted(items)
            for image in range(4):
                members = {f"k{n:02d}" for n in range(image * 3, image * 3 + 3)}
                assert members <= set(held_out) or members <= set(proposal)
        assert split(items, 0.5, 3) == split(items, 0.5, 3)
        assert split(items, 0.5, 3) != split(items, 0.5, 4)


def kappa_change_bootstrap(report: dict, seed: int) -> tuple[float, float]:
    """κ(candidate) − κ(current) over item resamples, by scikit-learn's κ per resample with
    numpy's generator (not the service's formulas): its 95% percentile interval."""
    items = report["items"]
    people = np.array([all(item["labels"].values()) for item in items])
    current = np.array([item["current"] >= report["threshold"] for item in items])
    candidate = np.array([item["candidate"] >= report["threshold"] for item in items])
    rng = np.random.default_rng(seed)
    changes = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(2000):
            idx = rng.integers(0, len(items), len(items))
            kappas = [
                cohen_kappa_score(people[idx], side[idx], labels=[False, True])
                for side in (current, candidate)
            ]
            changes.append(kappas[1] - kappas[0])
    finite = np.array(changes)[np.isfinite(changes)]
    low, high = np.percentile(finite, [2.5, 97.5])
    return float(low), float(high)


class TestKappaDifference:
    """`improved` compares two estimates; whether the candidate agrees better beyond the
    choice of items is the paired difference's interval (two κ on the same items share their
    labels, so their own intervals overlapping says little). There was none: the docs said
    "compare the intervals"."""

    def test_a_real_improvement_has_an_interval_above_0(
        self, api: Api, judge: ScriptedJudge, labelled: tuple[Team, str, dict[str, str]]
    ) -> None:
        team, version, _ = labelled
        created = team.client.post("/v1/alignments", json={"metric_version": version}).json()
        report = wait(api, team.client, created["id"])["report"]
        before = report["before"]["cohen_kappa"]["value"]
        after = report["after"]["cohen_kappa"]["value"]
        change = report["kappa_difference"]
        assert change["value"] == pytest.approx(after - before)
        low, high = change["ci95"]
        assert 0 < low <= change["value"] <= high
        expected = kappa_change_bootstrap(report, seed=7)
        assert (low, high) == pytest.approx(expected, abs=0.1)

    def test_one_item_judged_better_is_improved_but_not_beyond_chance(
        self, api: Api, judge: ScriptedJudge, labelled: tuple[Team, str, dict[str, str]]
    ) -> None:
        team, version, _ = labelled
        # The candidate judges as the current version does but on the first held-out item it
        # is asked about that the current version wrongly passes (an odd sum): that one it
        # fails, as the people do. (Only held-out items reach the candidate; the judge answers
        # one request at a time, so "first" is one item.)
        better: list[int] = []

        def better_on_one_item(request: dict) -> Reply | dict:
            found = re.search(r"What is (\d+)\+", user_text(request))
            if guided(request) and found:
                number = int(found.group(1))
                if not better and number % 2 == 1:
                    better.append(number)
                if number in better:
                    return answer(request)
                request = {**request, "messages": request["messages"][1:]}
            return answer(request)

        judge.script(better_on_one_item)
        created = team.client.post("/v1/alignments", json={"metric_version": version}).json()
        report = wait(api, team.client, created["id"])["report"]
        moved = [item for item in report["items"] if item["current"] != item["candidate"]]
        assert len(moved) == 1 and len(better) == 1
        # κ −0.31 → −0.09 on 12 items: `improved`, but the paired interval holds 0.
        assert report["improved"] is True
        change = report["kappa_difference"]
        low, high = change["ci95"]
        assert low <= 0 < change["value"] <= high
        assert (low, high) == pytest.approx(kappa_change_bootstrap(report, seed=7), abs=0.1)

    def test_every_item_errored_keeps_the_peoples_label_kind(
        self, api: Api, judge: ScriptedJudge, labelled: tuple[Team, str, dict[str, str]]
    ) -> None:
        """Judging that errored on every held-out item measures nothing, but the people's
        pass/fail labels are still pass/fail (it said "score", the kind of no labels)."""
        team, version, _ = labelled

        def refuses_judging(request: dict) -> Reply | dict:
            if "g_eval_score" in str(request):
                return Reply(status=400, content="refused")
            return answer(request)

        judge.script(refuses_judging)
        created = team.client.post("/v1/alignments", json={"metric_version": version}).json()
        report = wait(api, team.client, created["id"])["report"]
        assert report["before"]["n"] == report["after"]["n"] == 0
        assert all(item["current"] is None for item in report["items"])
        assert report["label_kind"] == "pass_fail"
