"""Evaluations that go with what owns them (an online rule's days with the rule) are deleted
as any evaluation's delete is: through the one lifecycle, so their images are collected and the
delete is logged and counted (an online rule's delete used to drop its days' rows directly,
leaving their images stored and served)."""

import json
import logging
import re

from app.telemetry.metrics import EVALUATIONS_DELETED
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge
from tests.online.test_receiver import judged_results, make_rule, model_and_judge
from tests.otlp.capture import Receiver, ask_about_image, data_url, instrumented, red_square_png


class TestOnlineRuleDelete:
    def test_its_days_go_as_a_delete_does_with_their_images(
        self, api: Api, judge: ScriptedJudge, log_records: list[logging.LogRecord]
    ) -> None:
        key = api.new_key()
        client = api.client(key)
        rule = make_rule(
            client, filter=[{"attribute": "service.name", "op": "eq", "value": "app-openllmetry"}]
        )
        judge.script(model_and_judge)
        with instrumented(
            "openllmetry", Receiver(api.base_url), headers={"Authorization": f"Bearer {key}"}
        ):
            ask_about_image(judge.base_url, data_url(red_square_png()))
        [result] = judged_results(api, client, rule["id"], 1)
        day_id = result["evaluation_id"]
        day = client.get(f"/v1/evaluations/{day_id}").json()
        # The day is open (it takes the rest of the day's calls) when its rule is deleted.
        assert day["status"] in ("queued", "in_progress"), day
        [case] = client.get(f"/v1/evaluations/{day_id}/test_cases").json()["data"]
        [media] = re.findall(r'"(http[^"]*/v1/media/[0-9a-f]{64})"', json.dumps(case["input"]))
        assert client.get(media).status_code == 200
        counter = EVALUATIONS_DELETED.labels("online")
        before = counter._value.get()

        assert client.delete(f"/v1/online_rules/{rule['id']}").status_code == 204

        assert client.get(f"/v1/evaluations/{day_id}").status_code == 404
        # No row of the tenant names the image any more: it is no longer the tenant's to read.
        assert client.get(media).status_code == 404
        [line] = [
            record
            for record in log_records
            if record.getMessage() == "evaluation.deleted"
            and getattr(record, "evaluation_id", None) == day_id
        ]
        assert line.kind == "online"  # type: ignore[attr-defined]
        assert counter._value.get() == before + 1
        events = client.get("/v1/audit_events", params={"object_id": day_id}).json()["data"]
        assert [event["action"] for event in events] == ["online.delete"], events
