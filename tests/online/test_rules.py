"""Online rules through the HTTP API: create, read, list, change, enable, disable, delete, and
one 422 naming every problem of a rule (issue 26)."""

from typing import Any

from tests.fixtures.api import Api
from tests.test_problems import problem

G_EVAL = {
    "type": "g_eval",
    "name": "helpful",
    "criteria": "Does the answer help the user?",
    "evaluation_params": ["input", "actual_output"],
}


def rule_body(**changes: Any) -> dict[str, Any]:
    return {
        "name": "support bot",
        "filter": [
            {"attribute": "service.name", "op": "eq", "value": "support-bot"},
            {"attribute": "model", "op": "regex", "value": "^gpt-4o(-mini)?$"},
        ],
        "sampling": {"rate": 0.25},
        "metrics": [G_EVAL, {"type": "answer_relevancy", "threshold": 0.6}],
        "daily_usd": 2.5,
        **changes,
    }


class TestRules:
    def test_a_rule_is_made_read_listed_changed_and_deleted(self, api: Api) -> None:
        client = api.tenant_client()
        made = client.post("/v1/online_rules", json=rule_body())
        assert made.status_code == 201, made.text
        rule = made.json()
        assert rule["id"].startswith("rule_") and rule["object"] == "online_rule"
        assert rule["sampling"] == {"rate": 0.25} and rule["target"] == "span"
        assert [m["type"] for m in rule["metrics"]] == ["g_eval", "answer_relevancy"]
        assert rule["filter"][1] == {
            "attribute": "model",
            "op": "regex",
            "value": "^gpt-4o(-mini)?$",
        }
        assert rule["enabled"] is True and rule["daily_usd"] == 2.5
        assert rule["counts"] == {
            "received": 0,
            "matched": 0,
            "sampled": 0,
            "sent": 0,
            "judged": 0,
            "errored": 0,
            "backfilled": 0,
            "skipped": {},
            "dropped": {},
        }
        path = f"/v1/online_rules/{rule['id']}"
        assert client.get(path).json() == rule
        listed = client.get("/v1/online_rules").json()
        assert [each["id"] for each in listed["data"]] == [rule["id"]]

        changed = client.patch(path, json={"sampling": {"rate": 0.5}, "daily_usd": None})
        assert changed.status_code == 200, changed.text
        body = changed.json()
        assert body["sampling"] == {"rate": 0.5} and body["daily_usd"] is None
        # What was not given is kept.
        assert body["metrics"] == rule["metrics"] and body["name"] == "support bot"

        assert client.post(f"{path}/disable").json()["enabled"] is False
        assert client.get(path).json()["enabled"] is False
        assert client.post(f"{path}/enable").json()["enabled"] is True

        assert client.delete(path).status_code == 204
        problem(client.get(path), 404)
        assert client.get("/v1/online_rules").json()["data"] == []

    def test_every_problem_of_a_rule_is_named_in_one_answer(self, api: Api) -> None:
        client = api.tenant_client()
        body = rule_body(
            filter=[
                {"attribute": "service.name", "op": "regex", "value": "(a+)+\\1"},
                {"attribute": "x", "op": "like", "value": "y"},
            ],
            sampling={"rate": 1.5},
            metrics=[
                G_EVAL,
                {**G_EVAL, "criteria": "Twice the same name."},
                {"type": "exact_match"},
            ],
            judge={"model_id": "model_nope"},
            target="group",
        )
        body_problem = problem(client.post("/v1/online_rules", json=body), 422)
        locs = {error["loc"] for error in body_problem["errors"]}
        assert {
            "filter[0].value",
            "filter[1].op",
            "sampling.rate",
            "metrics[1].name",
            "metrics[2]",
            "judge.model_id",
            "target",
        } <= locs, body_problem["errors"]
        messages = {error["loc"]: error["msg"] for error in body_problem["errors"]}
        assert "RE2" in messages["filter[0].value"]
        assert "b'" not in messages["filter[0].value"]
        assert "expected_output" in messages["metrics[2]"]
        assert client.get("/v1/online_rules").json()["data"] == []

    def test_a_change_is_checked_with_what_it_keeps(self, api: Api) -> None:
        client = api.tenant_client()
        rule = client.post("/v1/online_rules", json=rule_body()).json()
        path = f"/v1/online_rules/{rule['id']}"
        refused = problem(
            client.patch(
                path,
                json={
                    "metrics": [G_EVAL, G_EVAL],
                    "filter": [{"attribute": "a", "op": "regex", "value": "("}],
                },
            ),
            422,
        )
        assert {e["loc"] for e in refused["errors"]} == {
            "metrics[1].name",
            "filter[0].value",
        }
        assert client.get(path).json() == rule

    def test_null_clears_a_field_a_rule_may_go_without_and_is_refused_for_the_others(
        self, api: Api
    ) -> None:
        client = api.tenant_client()
        rule = client.post("/v1/online_rules", json=rule_body(judge={"model": "gpt-4o"})).json()
        path = f"/v1/online_rules/{rule['id']}"
        assert rule["judge"] is not None and rule["daily_usd"] == 2.5

        refused = problem(
            client.patch(
                path,
                json={
                    "name": None,
                    "filter": None,
                    "sampling": None,
                    "metrics": None,
                    "target": None,
                    "enabled": None,
                    "daily_usd": None,
                },
            ),
            422,
        )
        assert {e["loc"]: e["type"] for e in refused["errors"]} == {
            field: "null_not_allowed"
            for field in ("name", "filter", "sampling", "metrics", "target", "enabled")
        }
        messages = {e["loc"]: e["msg"] for e in refused["errors"]}
        assert "leave it out to keep it" in messages["name"] and "[]" in messages["filter"]
        assert client.get(path).json() == rule

        cleared = client.patch(path, json={"judge": None, "daily_usd": None, "alert": None})
        assert cleared.status_code == 200, cleared.text
        body = cleared.json()
        assert body["judge"] is None and body["daily_usd"] is None and body["alert"] is None
        assert body["name"] == rule["name"] and body["filter"] == rule["filter"]
        assert body["enabled"] is True and body["metrics"] == rule["metrics"]
        # An empty filter is [] (every GenAI call), not null.
        emptied = client.patch(path, json={"filter": []})
        assert emptied.status_code == 200 and emptied.json()["filter"] == []
