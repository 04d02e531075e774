"""A rule's day is an open evaluation: every result stored does not complete it while its UTC
day lasts, the ticker's sweep completes it once the day is over, and a tenant's cap on active
evaluations does not count it (issue 26, on issue 25's lifecycle)."""

from datetime import timedelta

from sqlalchemy import update

from app.db import utcnow
from app.evaluations import recovery
from app.models import Evaluation
from app.tenants import repository
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge
from tests.online.test_receiver import judged_results, make_rule, model_and_judge, semconv_span


def send_one(api: Api, key: str) -> dict:
    client = api.client(key)
    rule = make_rule(client, metrics=[{"type": "answer_relevancy"}])
    body = {"resourceSpans": [semconv_span("00f067aa0ba902b7", "app", "Capital of France?")]}
    assert client.post("/v1/traces", json=body).status_code == 200
    [result] = judged_results(api, client, rule["id"], 1)
    return result


def status_of(api: Api, evaluation_id: str) -> str:
    with api.served.runtime.session() as session:
        evaluation = session.get(Evaluation, evaluation_id)
        assert evaluation is not None
        return evaluation.status


def age(api: Api, evaluation_id: str, **metadata: str) -> None:
    """Make the day's evaluation silent for an hour (and its metadata as given)."""
    with api.served.runtime.session() as session:
        evaluation = session.get(Evaluation, evaluation_id)
        assert evaluation is not None
        values = {"heartbeat_at": utcnow() - timedelta(hours=1)}
        if metadata:
            values["metadata_"] = {**evaluation.metadata_, **metadata}
        session.execute(update(Evaluation).where(Evaluation.id == evaluation_id).values(values))
        session.commit()


class TestDays:
    def test_a_day_stays_open_while_it_lasts_and_the_sweep_closes_it_after(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(model_and_judge)
        result = send_one(api, api.new_key())
        evaluation_id = result["evaluation_id"]
        assert status_of(api, evaluation_id) == "in_progress"
        # Silent for an hour with every result stored: idle, not stuck, while its day lasts.
        age(api, evaluation_id)
        recovery.sweep(api.served.runtime)
        assert status_of(api, evaluation_id) == "in_progress"
        # Once its day is over, the sweep completes it.
        yesterday = (utcnow() - timedelta(days=1)).date().isoformat()
        age(api, evaluation_id, day=yesterday)
        assert evaluation_id in recovery.sweep(api.served.runtime)
        assert status_of(api, evaluation_id) == "completed"

    def test_an_open_day_does_not_count_toward_the_cap_on_active_evaluations(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(model_and_judge)
        name = f"capped-{api.mode}"
        key = api.new_key(name)
        with api.served.runtime.session() as session:
            tenant = repository.tenant_by_name(session, name)
            assert tenant is not None
            tenant.max_active_evaluations = 1
            session.commit()
        send_one(api, key)
        body = {
            "test_cases": [{"input": "2+2?", "actual_output": "4", "expected_output": "4"}],
            "metrics": [{"type": "exact_match"}],
        }
        response = api.client(key).post("/v1/evaluations", json=body)
        assert response.status_code == 202, response.text
