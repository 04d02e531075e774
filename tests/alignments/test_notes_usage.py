"""An alignment's rubric-notes call is a judge call like every other: in the tenant's
`GET /v1/usage` and today's budget, and not made once that budget is spent (judge-model: 2 / 8
USD per million tokens; the scripted judge reports 10 prompt and 5 completion tokens a call)."""

import json

import pytest

from app.tenants import limits, repository
from tests.alignments.helpers import NOTES, answer, cases, label_all, wait
from tests.console.helpers import csrf_of, signed_in
from tests.fixtures.api import Api
from tests.fixtures.judge import Reply, ScriptedJudge, plausible_answer
from tests.labels.helpers import Team

NOTES_CALL_USD = (10 * 2.0 + 5 * 8.0) / 1_000_000


def _budget(api: Api, name: str, usd: float | None) -> None:
    with api.served.runtime.session() as session:
        tenant = repository.tenant_by_name(session, name)
        assert tenant is not None
        limits.set_limits(session, tenant, daily_usd=usd)
        session.commit()


def _judge_usage(team: Team) -> dict:
    response = team.client.get("/v1/usage")
    assert response.status_code == 200, response.text
    return response.json()["judge"]


class TestNotesUsage:
    def test_the_notes_call_is_in_usage_and_counted_against_the_budget(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(answer)
        team = Team(api)
        evaluation_id = team.evaluate(cases=cases())
        label_all(team.client, evaluation_id)
        version = team.results(evaluation_id)[("c0", "helpfulness")]["metric_version"]
        before = _judge_usage(team)

        # The day's budget spent: refused before any call is made.
        _budget(api, team.name, before["cost_usd"])
        judge.requests.clear()
        refused = team.client.post("/v1/alignments", json={"metric_version": version})
        assert refused.status_code == 429, refused.text
        assert refused.headers["content-type"].startswith("application/problem+json")
        assert "daily_usd" in refused.json()["detail"]
        assert judge.calls_for("rubric_notes") == []

        _budget(api, team.name, None)
        created = team.client.post("/v1/alignments", json={"metric_version": version})
        assert created.status_code == 202, created.text
        assert created.json()["notes_usage"]["calls"] == 1
        body = wait(api, team.client, created.json()["id"])
        assert body["status"] == "completed"
        after = _judge_usage(team)
        # The tenant's usage grew by all the alignment used: its judging and the notes call.
        used = body["usage"]
        assert used["calls"] == 2 * len(body["split"]["held_out"]) + 1
        assert after["calls"] - before["calls"] == used["calls"]
        assert after["prompt_tokens"] - before["prompt_tokens"] == used["prompt_tokens"]
        assert after["cost_usd"] - before["cost_usd"] == pytest.approx(used["cost_usd"])
        assert created.json()["notes_usage"]["cost_usd"] == pytest.approx(NOTES_CALL_USD)

    def test_an_alignment_refused_for_the_tenants_cap_makes_no_notes_call(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        """The cap on active evaluations was checked after the notes call: refused (429), the
        call was made and paid, and rolled back out of usage and the budget, as often as the
        caller asked."""
        judge.script(answer)
        team = Team(api)
        evaluation_id = team.evaluate(cases=cases())
        label_all(team.client, evaluation_id)
        version = team.results(evaluation_id)[("c0", "helpfulness")]["metric_version"]
        opened = team.client.post(
            "/v1/evaluations",
            json={"open": True, "metrics": [{"type": "exact_match"}]},
        )
        assert opened.status_code == 202, opened.text
        with api.served.runtime.session() as session:
            tenant = repository.tenant_by_name(session, team.name)
            assert tenant is not None
            limits.set_limits(session, tenant, max_active_evaluations=1)
            session.commit()
        judge.requests.clear()

        refused = team.client.post("/v1/alignments", json={"metric_version": version})

        assert refused.status_code == 429, refused.text
        assert refused.headers["content-type"].startswith("application/problem+json")
        assert judge.calls_for("rubric_notes") == []


def _unmoved(request: dict) -> Reply | dict:
    """A judge whose scores guidance does not move (9 for every answer): the disagreements,
    and so the examples, stay the same from one version to its candidate."""
    task = json.dumps(request)
    if "rubric_notes" in task:
        return {"notes": NOTES}
    if "g_eval_score" not in task:
        return plausible_answer(request)
    return {"reason": "scored", "score": 9}


class TestRefusedAfterTheNotesCall:
    """Whether the candidate is the version's own depends on the notes the call writes: such a
    refusal comes after the call, which was made and paid, and is in usage all the same."""

    def test_a_same_version_refusal_counts_its_notes_call(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(_unmoved)
        team = Team(api)
        evaluation_id = team.evaluate(cases=cases())
        label_all(team.client, evaluation_id)
        version = team.results(evaluation_id)[("c0", "helpfulness")]["metric_version"]
        first = team.client.post("/v1/alignments", json={"metric_version": version})
        assert first.status_code == 202, first.text
        candidate = first.json()["candidate_version"]
        # The candidate judged and labelled as its parent was: aligning it proposes the same
        # examples, and the judge writes the same notes.
        metric = {**first.json()["candidate_metric"], "name": "helpfulness"}
        again = team.client.post(
            "/v1/evaluations", json={"test_cases": cases(), "metrics": [metric]}
        )
        assert again.status_code == 202, again.text
        assert api.wait(team.client, again.json()["id"])["status"] == "completed"
        assert team.results(again.json()["id"])[("c0", "helpfulness")]["metric_version"] == (
            candidate
        )
        label_all(team.client, again.json()["id"])
        before = _judge_usage(team)
        judge.requests.clear()

        refused = team.client.post("/v1/alignments", json={"metric_version": candidate})

        problem = refused.json()
        assert refused.status_code == 409, refused.text
        assert problem["type"].endswith("/same-version")
        assert [error["pointer"] for error in problem["errors"]] == ["/metric_version"]
        assert len(judge.calls_for("rubric_notes")) == 1
        after = _judge_usage(team)
        assert after["calls"] == before["calls"] + 1
        assert after["prompt_tokens"] == before["prompt_tokens"] + 10
        assert after["cost_usd"] == pytest.approx(before["cost_usd"] + NOTES_CALL_USD)
        # Nothing else of the refused request stayed: no alignment, no candidate.
        listed = team.client.get("/v1/alignments").json()["data"]
        assert [each["id"] for each in listed] == [first.json()["id"]]

    def test_a_notes_call_that_failed_counts_its_failed_requests(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        def failing(request: dict) -> Reply | dict:
            if "rubric_notes" in json.dumps(request):
                return Reply(content=json.dumps({"error": {"message": "down"}}), status=500)
            return answer(request)

        judge.script(answer)
        team = Team(api)
        evaluation_id = team.evaluate(cases=cases())
        label_all(team.client, evaluation_id)
        version = team.results(evaluation_id)[("c0", "helpfulness")]["metric_version"]
        before = _judge_usage(team)
        judge.script(failing)
        judge.requests.clear()

        refused = team.client.post("/v1/alignments", json={"metric_version": version})

        assert refused.status_code == 502, refused.text
        assert refused.json()["type"].endswith("/judge-error")
        sent = len(judge.calls_for("rubric_notes"))
        assert sent >= 1
        after = _judge_usage(team)
        assert after["failed_calls"] == before["failed_calls"] + sent
        assert after["calls"] == before["calls"]


class TestProposedInTheConsole:
    def test_a_notes_call_that_failed_counts_its_failed_requests(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        """The console's form refused after the notes call counts the call as the API does
        (it rolled it back with the refused request)."""

        def failing(request: dict) -> Reply | dict:
            if "rubric_notes" in json.dumps(request):
                return Reply(content=json.dumps({"error": {"message": "down"}}), status=500)
            return answer(request)

        judge.script(answer)
        team = Team(api)
        evaluation_id = team.evaluate(cases=cases())
        label_all(team.client, evaluation_id)
        version = team.results(evaluation_id)[("c0", "helpfulness")]["metric_version"]
        before = _judge_usage(team)
        judge.script(failing)
        judge.requests.clear()
        web = signed_in(api, team.key)
        form = web.get(f"/console/metric_versions/{version}")
        assert form.status_code == 200, form.text

        refused = web.post(
            f"/console/metric_versions/{version}/align",
            data={"csrf_token": csrf_of(form.text), "held_out_share": "0.4", "seed": "0"},
        )

        assert refused.status_code == 502, refused.text
        sent = len(judge.calls_for("rubric_notes"))
        assert sent >= 1
        after = _judge_usage(team)
        assert after["failed_calls"] == before["failed_calls"] + sent
        assert team.client.get("/v1/alignments").json()["data"] == []
