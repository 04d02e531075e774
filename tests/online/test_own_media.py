"""A traced call whose image is this server's own `/v1/media/<sha256>` URL (an image the
application read from Loupe, a dataset row's or a test case's) is judged with the image read
from the store, the tenant's own blobs only, as a submission naming it is; never fetched
(which the address policy refuses, and which would need a key)."""

import base64
import hashlib

import httpx
import pytest
from openinference.instrumentation import using_session

from tests.datasets.test_endpoints import ask, data_url, image, jsonl, rows_of
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge, image_parts, task_of
from tests.media.test_own_urls import unique_png
from tests.online.test_conversation_target import (
    TURN_RELEVANCY,
    counts,
    model_and_turns,
    sweep_past_idle,
)
from tests.online.test_receiver import judged_results, make_rule, model_and_judge
from tests.otlp.capture import Receiver, ask_about_image, instrumented
from tests.runs.helpers import upload

APP_MODEL = {"attribute": "model", "op": "eq", "value": "gpt-4o-mini"}


def own_media_url(client: httpx.Client, picture: bytes) -> str:
    """This server's media URL of `picture`, stored as one of the client's tenant's dataset
    rows and read back."""
    response = upload(
        client, "seen.jsonl", jsonl(ask(image(data_url(picture, "image/png")))), "general_vqa"
    )
    assert response.status_code == 201, response.text
    [row] = rows_of(client, response.json()["id"])
    return row["messages"][0]["content"][1]["image_url"]["url"]


def images_judged(judge: ScriptedJudge, task: str) -> list[bytes]:
    return [
        base64.b64decode(url.split(",", 1)[1])
        for call in judge.calls_for(task)
        for url in image_parts(call)
    ]


def for_service(which: str) -> list[dict[str, str]]:
    return [{"attribute": "service.name", "op": "eq", "value": f"app-{which}"}, APP_MODEL]


class TestSpanRules:
    # The span's own attributes, and its log records (joined to it in a later request).
    @pytest.mark.parametrize("which", ["openllmetry", "openllmetry-events"])
    def test_a_call_naming_this_servers_media_is_judged_with_the_image(
        self, api: Api, judge: ScriptedJudge, which: str
    ) -> None:
        key = api.new_key()
        client = api.client(key)
        picture = unique_png()
        url = own_media_url(client, picture)
        assert url == f"{api.base_url}/v1/media/{hashlib.sha256(picture).hexdigest()}"
        rule = make_rule(client, filter=for_service(which))
        judge.script(model_and_judge)
        with instrumented(
            which, Receiver(api.base_url), headers={"Authorization": f"Bearer {key}"}
        ):
            ask_about_image(judge.base_url, url)

        [result] = judged_results(api, client, rule["id"], 1)
        assert result["error"] is None
        assert images_judged(judge, "g_eval_score") == [picture]
        assert counts(client, rule)["skipped"] == {}
        (case,) = client.get(f"/v1/evaluations/{result['evaluation_id']}/test_cases").json()["data"]
        assert case["input"][1]["image_url"]["url"] == url

    def test_another_tenants_media_is_refused(self, api: Api, judge: ScriptedJudge) -> None:
        theirs = own_media_url(api.tenant_client(), unique_png())
        key = api.new_key()
        client = api.client(key)
        rule = make_rule(client, filter=for_service("openllmetry"))
        judge.script(model_and_judge)
        with instrumented(
            "openllmetry", Receiver(api.base_url), headers={"Authorization": f"Bearer {key}"}
        ):
            ask_about_image(judge.base_url, theirs)

        counted = counts(client, rule)
        assert (counted["sampled"], counted["sent"]) == (1, 0)
        assert counted["skipped"] == {"image_refused": 1}
        assert [call for call in judge.requests if task_of(call) is not None] == []


class TestConversationRules:
    def test_a_held_call_naming_this_servers_media_is_judged_with_the_image(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        key = api.new_key()
        client = api.client(key)
        picture = unique_png()
        url = own_media_url(client, picture)
        rule = make_rule(
            client,
            name="chats",
            target="conversation",
            metrics=[TURN_RELEVANCY],
            filter=for_service("openinference"),
        )
        judge.script(model_and_turns)
        with (
            instrumented(
                "openinference", Receiver(api.base_url), headers={"Authorization": f"Bearer {key}"}
            ),
            using_session("own-media-chat"),
        ):
            ask_about_image(judge.base_url, url)

        # Judged by the ticker, with no request to say which host is this server's.
        assert sweep_past_idle(api) >= 1
        [result] = judged_results(api, client, rule["id"], 1)
        assert result["error"] is None
        assert images_judged(judge, "turn_relevancy_verdicts") == [picture]
        assert counts(client, rule)["skipped"] == {}
