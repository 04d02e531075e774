"""A traced call's image given by URL is fetched once per export, however many of the tenant's
span rules take the call: each rule stores the image with its own case, from the one fetch.
Fetched once per rule, a call taken by three rules cost three fetches of the same image, one
after another inside the export request (a slow image host could keep the exporter past its
10 s deadline, and it then sends the batch again)."""

import base64
from collections.abc import Iterator

import pytest

from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge, image_parts
from tests.media.loopback import LoopbackServer, Route
from tests.media.test_own_urls import unique_png
from tests.online.test_receiver import judged_results, make_rule, model_and_judge
from tests.otlp.capture import Receiver, ask_about_image, instrumented

SERVICE = [{"attribute": "service.name", "op": "eq", "value": "app-openllmetry"}]


@pytest.fixture
def images_server() -> Iterator[LoopbackServer]:
    with LoopbackServer() as server:
        yield server


def test_an_image_url_is_fetched_once_for_every_rule_taking_the_call(
    api: Api, judge: ScriptedJudge, images_server: LoopbackServer
) -> None:
    picture = unique_png()
    images_server.routes = {"/photo.png": Route(body=picture)}
    key = api.new_key()
    client = api.client(key)
    rules = [make_rule(client, name=f"vision {n}", filter=SERVICE) for n in range(3)]
    judge.script(model_and_judge)
    with instrumented(
        "openllmetry", Receiver(api.base_url), headers={"Authorization": f"Bearer {key}"}
    ):
        ask_about_image(judge.base_url, images_server.url("/photo.png"))

    assert [path for path, _ in images_server.hits] == ["/photo.png"]
    for rule in rules:
        [result] = judged_results(api, client, rule["id"], 1)
        assert result["error"] is None
        evaluation = result["evaluation_id"]
        (case,) = client.get(f"/v1/evaluations/{evaluation}/test_cases").json()["data"]
        media_url = case["input"][1]["image_url"]["url"]
        assert media_url.startswith(f"{api.base_url}/v1/media/")
        assert client.get(media_url).content == picture
    judged = [
        base64.b64decode(url.split(",", 1)[1])
        for call in judge.calls_for("g_eval_score")
        for url in image_parts(call)
    ]
    # The judge saw the fetched image (a call alike to one judged before is answered from
    # Loupe's judge cache, so fewer calls than rules may reach it).
    assert judged and set(judged) == {picture}
