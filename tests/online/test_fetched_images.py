"""A traced call's image given by URL is fetched once per export, however many of the tenant's
span rules take the call: each rule stores the image with its own case, from the one fetch.
Fetched once per rule, a call taken by three rules cost three fetches of the same image, one
after another inside the export request (a slow image host could keep the exporter past its
10 s deadline, and it then sends the batch again)."""

import base64
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge, image_parts
from tests.media.loopback import LoopbackServer, Route
from tests.media.test_own_urls import unique_png
from tests.online.test_conversation_target import counts
from tests.online.test_receiver import TRACE_ID, judged_results, make_rule, model_and_judge
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


def image_span(span_id: str, question: str, url: str) -> dict:
    """An OTLP/JSON span of one chat call in the GenAI conventions, asking about the image at
    `url`."""
    asked = [
        {
            "role": "user",
            "parts": [
                {"type": "text", "content": question},
                {"type": "uri", "modality": "image", "uri": url},
            ],
        }
    ]
    answered = [{"role": "assistant", "parts": [{"type": "text", "content": "A square."}]}]
    attributes = {
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": "openai",
        "gen_ai.request.model": "gpt-4o-mini",
        "gen_ai.input.messages": json.dumps(asked),
        "gen_ai.output.messages": json.dumps(answered),
    }
    return {
        "traceId": TRACE_ID,
        "spanId": span_id,
        "name": "chat gpt-4o-mini",
        "kind": 3,
        "attributes": [
            {"key": key, "value": {"stringValue": value}} for key, value in attributes.items()
        ],
    }


def resource(service: str) -> dict:
    return {
        "resource": {"attributes": [{"key": "service.name", "value": {"stringValue": service}}]}
    }


class _Together(BaseHTTPRequestHandler):
    """Answers an image only once `PARTIES` requests for images are in flight at once: fetched
    one after another, the first waits for the second in vain and is answered 503."""

    PARTIES = 2
    barrier = threading.Barrier(PARTIES)
    picture = b""

    def do_GET(self) -> None:  # noqa: N802 - http.server's naming
        try:
            type(self).barrier.wait(timeout=5)
        except threading.BrokenBarrierError:
            self.send_response(503)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", "image/png")
        self.send_header("Content-Length", str(len(self.picture)))
        self.end_headers()
        self.wfile.write(self.picture)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def together_server() -> Iterator[str]:
    _Together.barrier = threading.Barrier(_Together.PARTIES)
    _Together.picture = unique_png()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Together)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02})
    thread.daemon = True
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        _Together.barrier.abort()
        server.shutdown()
        server.server_close()


def test_the_calls_of_one_export_fetch_their_images_together(
    api: Api, judge: ScriptedJudge, together_server: str
) -> None:
    """An export's calls are taken in together: their images fetched at once, not each call's
    after the last one's (512 calls of a batch, each image 0.3 s away, took minutes, and the
    exporter gives up after 10 s)."""
    key = api.new_key()
    client = api.client(key)
    rule = make_rule(client, filter=[{"attribute": "service.name", "op": "eq", "value": "batch"}])
    judge.script(model_and_judge)
    spans = [
        image_span(f"{n + 1:016x}", f"Which picture is this? ({n})", f"{together_server}/{n}.png")
        for n in range(_Together.PARTIES)
    ]
    export = {"resourceSpans": [{**resource("batch"), "scopeSpans": [{"spans": spans}]}]}
    response = client.post("/v1/traces", json=export)
    assert response.status_code == 200, response.text

    assert counts(client, rule)["skipped"] == {}
    results = judged_results(api, client, rule["id"], _Together.PARTIES)
    assert [result["error"] for result in results] == [None] * _Together.PARTIES


def test_a_retried_export_does_not_fetch_the_images_of_calls_stored_before(
    api: Api, judge: ScriptedJudge, images_server: LoopbackServer
) -> None:
    """An exporter sends a batch again when it missed the answer (past its deadline, say): the
    calls the rule stored are its duplicates before their images are fetched again. They were
    found duplicates only after the fetch: a slow image host cost every retry its answer time
    again, the very delay that made the exporter retry. A call the rule refused (its image
    could not be fetched) is no duplicate: sent again, its image is fetched again."""
    images_server.routes = {
        "/photo.png": Route(body=unique_png()),
        "/later.png": Route(status=404, body=b"", content_type="text/plain"),
    }
    client = api.tenant_client()
    rule = make_rule(client, filter=[{"attribute": "service.name", "op": "eq", "value": "retry"}])
    judge.script(model_and_judge)

    def export(*spans: dict) -> dict:
        return {"resourceSpans": [{**resource("retry"), "scopeSpans": [{"spans": list(spans)}]}]}

    stored = image_span("00f067aa0ba90d01", "Which one?", images_server.url("/photo.png"))
    refused = image_span("00f067aa0ba90d02", "And later?", images_server.url("/later.png"))
    assert client.post("/v1/traces", json=export(stored, refused)).status_code == 200
    [result] = judged_results(api, client, rule["id"], 1)
    assert result["error"] is None
    assert counts(client, rule)["skipped"] == {"image_refused": 1}
    fetched = [path for path, _ in images_server.hits]
    assert fetched.count("/photo.png") == 1 and fetched.count("/later.png") >= 1

    # The retry, with a call of its own; the refused call's image is there now.
    images_server.routes["/later.png"] = Route(body=unique_png())
    images_server.routes["/other.png"] = Route(body=unique_png())
    new = image_span("00f067aa0ba90d03", "And this one?", images_server.url("/other.png"))
    assert client.post("/v1/traces", json=export(stored, refused, new)).status_code == 200

    again = [path for path, _ in images_server.hits][len(fetched) :]
    assert sorted(again) == ["/later.png", "/other.png"]
    judged_results(api, client, rule["id"], 3)
    found = counts(client, rule)
    assert (found["received"], found["sent"]) == (5, 3)
    assert found["skipped"] == {"image_refused": 1, "duplicate": 1}
