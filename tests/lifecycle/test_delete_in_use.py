"""What a queued or running run still uses is kept from deletion alike: its dataset (409) and
its candidate model (it answered 204, and the run's remaining samples each failed
`candidate_missing`); and a model an online rule judges with (409 naming the rules)."""

import time
import uuid

from sqlalchemy import delete

from app.models import CandidateModel
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge, plausible_answer
from tests.runs.helpers import register_model
from tests.runs.test_endpoints import vqa_dataset
from tests.tenants.test_every_route_is_scoped import image_span


class TestModelInUse:
    def test_is_kept_while_a_run_calls_it_and_deleted_once_none_does(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        client = api.tenant_client()
        dataset_id = vqa_dataset(client)
        model_id = register_model(client, judge.base_url)
        judge.hold()
        # The hold stays: it is released after the test, once the canceled job has stopped at its
        # held call (released here, the job could make its next call before it sees the cancel).
        body = {"dataset_id": dataset_id, "model_id": model_id, "limit": 1}
        created = client.post("/v1/runs", json=body)
        assert created.status_code == 202, created.text
        run_id = created.json()["id"]
        refused = client.delete(f"/v1/models/{model_id}")
        assert refused.status_code == 409, refused.text
        problem = refused.json()
        assert problem["type"].endswith("/model-in-use") and run_id in problem["detail"]
        assert [error["loc"] for error in problem["errors"]] == ["path.model_id"], problem
        # The dataset the run reads answers the same way.
        assert client.delete(f"/v1/datasets/{dataset_id}").status_code == 409
        assert client.get(f"/v1/models/{model_id}").status_code == 200
        assert client.post(f"/v1/runs/{run_id}/cancel").status_code == 200
        assert client.delete(f"/v1/models/{model_id}").status_code == 204
        assert client.get(f"/v1/models/{model_id}").status_code == 404
        assert client.get(f"/v1/runs/{run_id}").json()["status"] == "canceled"


class TestModelAnOnlineRuleJudgesWith:
    def test_is_kept_until_no_rule_judges_with_it(self, api: Api, judge: ScriptedJudge) -> None:
        """Changing a rule's judge is a team admin's: a key that may only delete models gets a
        409 naming every rule judging with the model (as the rule's judge, a metric's or a panel
        member), where it used to delete it and the rules' next days went to the server's judge."""
        team = f"judged-{uuid.uuid4().hex[:8]}"
        admin = api.client(api.new_key(team))
        writer = api.client(api.new_key(team, ["read", "write"]))
        model_id = register_model(admin, judge.base_url)
        relevancy = {"type": "answer_relevancy"}
        judges = {
            "rule judge": {"metrics": [relevancy], "judge": {"model_id": model_id}},
            "metric judge": {"metrics": [{**relevancy, "judge": {"model_id": model_id}}]},
            "panel member": {
                "metrics": [{**relevancy, "judge": {"panel": [{"model_id": model_id}, {}]}}]
            },
        }
        rules = {}
        for name, choice in judges.items():
            made = admin.post(
                "/v1/online_rules", json={"name": name, "sampling": {"rate": 1}, **choice}
            )
            assert made.status_code == 201, made.text
            rules[name] = made.json()["id"]

        refused = writer.delete(f"/v1/models/{model_id}")
        assert refused.status_code == 409, refused.text
        problem = refused.json()
        assert problem["type"].endswith("/model-in-use"), problem
        assert all(rule_id in problem["detail"] for rule_id in rules.values()), problem
        assert [error["loc"] for error in problem["errors"]] == ["path.model_id"], problem
        assert writer.get(f"/v1/models/{model_id}").status_code == 200

        changed = admin.patch(f"/v1/online_rules/{rules['rule judge']}", json={"judge": None})
        assert changed.status_code == 200, changed.text
        changed = admin.patch(
            f"/v1/online_rules/{rules['metric judge']}", json={"metrics": [relevancy]}
        )
        assert changed.status_code == 200, changed.text
        still = writer.delete(f"/v1/models/{model_id}")
        assert still.status_code == 409 and rules["panel member"] in still.json()["detail"]
        assert rules["rule judge"] not in still.json()["detail"]
        assert admin.delete(f"/v1/online_rules/{rules['panel member']}").status_code == 204
        assert writer.delete(f"/v1/models/{model_id}").status_code == 204

    def test_a_rule_whose_model_is_gone_calls_no_other_judge(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        """A model deleted before it was kept (its row gone, as such a delete left it): the
        rule's next day went to the server's judge, the team's traced calls with it. Its calls
        now fail naming the model, and no judge is asked."""
        client = api.tenant_client()
        judge.script(plausible_answer)
        with ScriptedJudge() as own:
            own.script(plausible_answer)
            model_id = register_model(client, own.base_url)
            rule = client.post(
                "/v1/online_rules",
                json={
                    "name": "own judge",
                    "sampling": {"rate": 1},
                    "metrics": [{"type": "answer_relevancy"}],
                    "judge": {"model_id": model_id},
                },
            )
            assert rule.status_code == 201, rule.text
            with api.served.runtime.session() as session:
                session.execute(delete(CandidateModel).where(CandidateModel.id == model_id))
                session.commit()
            traced = client.post(
                "/v1/traces", json={"resourceSpans": [image_span("0a0b0c0d0e0f0102")]}
            )
            assert traced.status_code == 200, traced.text
            results = f"/v1/online_rules/{rule.json()['id']}/results"
            deadline = time.monotonic() + 60
            while not (found := client.get(results).json()["data"]):
                assert time.monotonic() < deadline, "the traced call was never judged"
                api.run_queue()
                time.sleep(0.05)
            assert own.requests == []
        [result] = found
        assert result["score"] is None and model_id in result["error"]["message"], result
        assert judge.requests == []
