"""Another tenant gets 404 on every route with an id in its path, and changes nothing there.

Tenant A makes one object of every kind through the API (evaluations with test cases, results,
an image and a webhook delivery; a dataset with images of its own, a model, a run; a comparison;
a file, an eval, an eval run and its output items; a label, a review queue with a claimed item,
an alignment; an online rule with a traced call ingested over OTLP and judged, its image; audit
events); tenant B, holding objects of its own, then calls every route of the app whose path has
a parameter, with every method the route takes, A's ids put in the path. Each answer must be a
404 (problem+json on `/v1`, the console's error page on `/console`), and A must read every
object back as it was. The routes come from the app itself: a route with a parameter
`PARAMETERS` cannot fill fails `test_every_path_parameter_is_filled`, so a new route cannot be
forgotten here. B's lists (filtered by A's ids too) name none of A's objects; A's blobs, asked
for however (upper-case, If-None-Match), are the 404 of a digest nobody stored; and A's ids in
B's request bodies get the very answer an id nobody made gets.
"""

import base64
import io
import json
import re
import secrets
import time
import zipfile
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from fastapi.routing import iter_route_contexts
from PIL import Image

from app.api.routing import post_only_refusal
from app.main import create_app
from tests.alignments.helpers import aligned
from tests.comparisons.helpers import run as predictions_run
from tests.console.helpers import csrf_of, signed_in
from tests.fixtures.api import TERMINAL, Api, fast_settings
from tests.fixtures.judge import ScriptedJudge, plausible_answer
from tests.fixtures.receiver import WebhookReceiver
from tests.runs.helpers import register_model, upload

PROBLEM_JSON = "application/problem+json"
NOT_AN_OBJECT = None
# What each path parameter names, by the path up to and including it: the kind of A's object
# put there (a key of `World.ids`), or NOT_AN_OBJECT for a position inside an object already
# named (a test case's index in its evaluation). A route whose parameter is missing here fails.
PARAMETERS: dict[str, str | None] = {
    "/v1/evaluations/{evaluation_id}": "evaluation",
    "/v1/webhook_endpoints/{endpoint_id}": "webhook_endpoint",
    "/v1/datasets/{dataset_id}": "dataset",
    "/v1/models/{model_id}": "model",
    "/v1/runs/{run_id}": "run",
    "/v1/media/{sha256}": "image",
    "/v1/comparisons/{comparison_id}": "comparison",
    "/v1/evals/{eval_id}": "eval",
    "/v1/evals/{eval_id}/runs/{run_id}": "eval_run",
    "/v1/evals/{eval_id}/runs/{run_id}/output_items/{output_item_id}": "output_item",
    "/v1/files/{file_id}": "file",
    "/v1/online_rules/{rule_id}": "online_rule",
    "/v1/labels/{label_id}": "label",
    "/v1/metric_versions/{version_id}": "metric_version",
    "/v1/review_queues/{queue_id}": "review_queue",
    "/v1/review_queues/{queue_id}/items/{item_id}": "review_item",
    "/v1/alignments/{alignment_id}": "alignment",
    "/console/evaluations/{evaluation_id}": "evaluation",
    "/console/evaluations/{evaluation_id}/cases/{index}": NOT_AN_OBJECT,
    "/console/media/{sha256}": "image",
    "/console/runs/{run_id}": "run",
    "/console/datasets/{dataset_id}": "dataset",
    "/console/comparisons/{comparison_id}": "comparison",
    "/console/online_rules/{rule_id}": "online_rule",
    "/console/review/{queue_id}": "review_queue",
    "/console/review/{queue_id}/items/{item_id}": "review_item",
    "/console/metric_versions/{version_id}": "metric_version",
    "/console/alignments/{alignment_id}": "alignment",
}
# What a position parameter holds: the first one, which A's object has.
POSITIONS = {"index": "0"}
# Bodies B sends, valid in form, so that nothing but the tenant check can answer first.
EVAL_UPDATE = {"name": "taken over", "metadata": {"owner": "tenant b"}}
ROWS = [
    {"item": {"question": "Capital of France?", "answer": "Paris"}},
    {"item": {"question": "Two plus two?", "answer": "4"}},
]
EVAL_RUN_BODY = {
    "name": "from another tenant",
    "data_source": {"type": "jsonl", "source": {"type": "file_content", "content": ROWS}},
}
JSON_BODIES = {
    ("POST", "/v1/evals/{eval_id}"): EVAL_UPDATE,
    ("POST", "/v1/evals/{eval_id}/runs"): EVAL_RUN_BODY,
    ("POST", "/v1/evals/{eval_id}/runs/estimate"): EVAL_RUN_BODY,
    ("PATCH", "/v1/online_rules/{rule_id}"): {"name": "taken over", "enabled": False},
    ("POST", "/v1/online_rules/{rule_id}/backfill"): {},
    ("POST", "/v1/review_queues/{queue_id}/items/{item_id}/label"): {"value": True},
    ("POST", "/v1/evaluations/{evaluation_id}/test_cases"): {
        "test_cases": [{"input": "q", "actual_output": "a", "expected_output": "a"}]
    },
}
CRITERION = {
    "type": "string_check",
    "name": "exact",
    "operation": "eq",
    "input": "{{ item.answer }}",
    "reference": "{{ item.answer }}",
}
PARAMETER = re.compile(r"\{([^}:]+)(?::[^}]*)?\}")
G_EVAL = {
    "type": "g_eval",
    "name": "helpful",
    "evaluation_steps": ["Check the answer."],
    "evaluation_params": ["input", "actual_output"],
}


@dataclass(frozen=True)
class Route:
    method: str
    path: str

    def __str__(self) -> str:
        return f"{self.method} {self.path}"

    @property
    def parameters(self) -> list[tuple[str, str]]:
        """Each parameter's name and the path up to and including it."""
        return [
            (match.group(1), self.path[: match.end()]) for match in PARAMETER.finditer(self.path)
        ]

    @property
    def console(self) -> bool:
        return self.path.startswith("/console/")


# Every route of the app, those of its routers included.
APP = list(iter_route_contexts(create_app(fast_settings()).routes))


def app_routes() -> list[Route]:
    """Every method of every route whose path has a parameter."""
    routes = []
    for context in APP:
        path = context.path or ""
        if "{" not in path or context.endpoint is post_only_refusal:
            # A POST-only path's other methods answer 405 for any id, naming nothing
            # (tests/evaluations/test_estimate_validation.py).
            continue
        # A mount (no methods of its own) serves GET.
        for method in sorted(context.methods or {"GET"}):
            routes.append(Route(method, path))
    return routes


ROUTES = app_routes()


@dataclass
class World:
    """One tenant's objects of every kind, made through the API."""

    key: str
    webhook_url: str = ""
    ids: dict[str, str] = field(default_factory=dict)
    idempotency_key: str = ""
    evaluation_body: dict[str, Any] = field(default_factory=dict)
    queued_evaluation: str = ""


def filled(route: Route, owners: list[World]) -> str:
    """The route's path with its i-th object parameter naming `owners[i]`'s object."""
    path = route.path
    owned = 0
    for name, prefix in route.parameters:
        kind = PARAMETERS[prefix]
        if kind is NOT_AN_OBJECT:
            value = POSITIONS[name]
        else:
            value = owners[owned].ids[kind]
            owned += 1
        path = PARAMETER.sub(value, path, count=1)
    return path


def unique_png_bytes() -> bytes:
    """A PNG no other test submits (a random colour), so only its submitter's rows reference
    it."""
    colour = tuple(secrets.token_bytes(3))
    buffer = io.BytesIO()
    Image.new("RGB", (7, 5), colour).save(buffer, format="PNG")
    return buffer.getvalue()


def unique_png() -> str:
    """`unique_png_bytes` as a data URL."""
    return "data:image/png;base64," + base64.b64encode(unique_png_bytes()).decode()


MEDIA_URL = re.compile(r"/v1/media/([0-9a-f]{64})")


def unique_quiz_dataset(client: httpx.Client, rows: int = 4) -> tuple[str, str]:
    """A General-VMCQ dataset (answer A) whose rows show images of their own: its id and the
    digest of its first row's image."""
    lines = [
        {
            "question": f"<image 1> Question {index}?",
            "options": ["yes", "no"],
            "image_1": f"images/{index}.png",
            "answer": "A",
        }
        for index in range(rows)
    ]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("quiz_val.jsonl", "\n".join(json.dumps(line) for line in lines))
        for index in range(rows):
            archive.writestr(f"images/{index}.png", unique_png_bytes())
    dataset = created(upload(client, "quiz.zip", buffer.getvalue(), "general_vmcq"), 201)
    first = client.get(f"/v1/datasets/{dataset['id']}/rows", params={"limit": 1})
    # Rows show their media as this server's media URLs.
    [digest] = MEDIA_URL.findall(first.text)
    return dataset["id"], digest


def image_span(span_id: str) -> dict[str, Any]:
    """An OTLP/JSON resourceSpans entry: one chat call in the GenAI conventions whose question
    shows an image of its own."""
    image = {
        "type": "blob",
        "modality": "image",
        "mime_type": "image/png",
        "content": base64.b64encode(unique_png_bytes()).decode("ascii"),
    }
    question = [{"role": "user", "parts": [{"type": "text", "content": "Which colour?"}, image]}]
    answer = [{"role": "assistant", "parts": [{"type": "text", "content": "Red."}]}]
    attributes = {
        "gen_ai.operation.name": "chat",
        "gen_ai.request.model": "gpt-4o-mini",
        "gen_ai.input.messages": json.dumps(question),
        "gen_ai.output.messages": json.dumps(answer),
    }
    span = {
        "traceId": secrets.token_hex(16),
        "spanId": span_id,
        "name": "chat gpt-4o-mini",
        "kind": 3,
        "attributes": [{"key": k, "value": {"stringValue": v}} for k, v in attributes.items()],
    }
    service = {"key": "service.name", "value": {"stringValue": "app"}}
    return {
        "resource": {"attributes": [service]},
        "scopeSpans": [{"scope": {"name": "hand-written"}, "spans": [span]}],
    }


def cases(right: bool) -> list[dict[str, Any]]:
    return [
        {
            "id": f"case-{index}",
            "input": ["Which colour?", {"type": "image_url", "image_url": {"url": unique_png()}}]
            if index == 0
            else f"question {index}",
            "actual_output": f"answer {index}" if right or index % 2 else "wrong",
            "expected_output": f"answer {index}",
        }
        for index in range(4)
    ]


def created(response: httpx.Response, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    return response.json()


def wait_until(api: Api, client: httpx.Client, path: str, done: Any, timeout: float = 60) -> Any:
    """Run the queue and read `path` until `done(body)`; returns the body."""
    deadline = time.monotonic() + timeout
    while True:
        api.run_queue()
        body = client.get(path).json()
        if done(body):
            return body
        assert time.monotonic() < deadline, f"{path} never settled: {body}"
        time.sleep(0.05)


def build_world(api: Api, judge: ScriptedJudge, receiver: WebhookReceiver) -> World:
    world = World(key=api.new_key(), webhook_url=receiver.url)
    with api.client(world.key) as client:
        endpoint = created(client.post("/v1/webhook_endpoints", json={"url": receiver.url}), 201)
        world.ids["webhook_endpoint"] = endpoint["id"]
        world.idempotency_key = secrets.token_hex(8)
        world.evaluation_body = {
            "name": "scoped",
            "test_cases": cases(right=True),
            "metrics": [{"type": "exact_match"}],
        }
        evaluation = created(
            client.post(
                "/v1/evaluations",
                json=world.evaluation_body,
                headers={"Idempotency-Key": world.idempotency_key},
            ),
            202,
        )
        baseline = created(
            client.post(
                "/v1/evaluations",
                json={
                    "test_cases": cases(right=False),
                    "metrics": [{"type": "exact_match"}],
                    # Its completion is the delivery A's endpoint lists.
                    "webhook_url": receiver.url,
                },
            ),
            202,
        )
        for evaluation_id in (evaluation["id"], baseline["id"]):
            assert api.wait(client, evaluation_id)["status"] == "completed"
        world.ids["evaluation"] = evaluation["id"]
        # A comparison's two sides are two evaluations (one compared with itself is a 422).
        world.ids["baseline"] = baseline["id"]
        # The baseline's image: B sends the other's very body again (the idempotency test),
        # which makes that image B's too.
        first = client.get(f"/v1/evaluations/{baseline['id']}/test_cases").json()["data"][0]
        world.ids["image"] = first["input"][1]["image_url"]["url"].rsplit("/", 1)[1]
        comparison = client.post(
            "/v1/comparisons",
            json={"baseline_id": baseline["id"], "candidate_id": evaluation["id"]},
        )
        world.ids["comparison"] = created(comparison, 200)["id"]

        # A judged result with a label on it (a label needs a judged metric's version).
        judge.script(plausible_answer)
        judged = created(
            client.post(
                "/v1/evaluations", json={"test_cases": cases(True)[1:], "metrics": [G_EVAL]}
            ),
            202,
        )
        assert api.wait(client, judged["id"])["status"] == "completed"
        world.ids["judged"] = judged["id"]
        result = client.get(f"/v1/evaluations/{judged['id']}/results").json()["data"][0]
        label = client.post("/v1/labels", json={"result_id": result["id"], "value": 1})
        world.ids["label"] = created(label, 201)["id"]
        world.ids["metric_version"] = result["metric_version"]
        # A review queue of those results, one of its items claimed.
        queue = client.post(
            "/v1/review_queues",
            json={
                "name": "scoped queue",
                "evaluation_ids": [judged["id"]],
                "metric": "helpful",
                "routing": {"audit_share": 1},
            },
        )
        world.ids["review_queue"] = created(queue, 201)["id"]
        claim = client.post(f"/v1/review_queues/{world.ids['review_queue']}/claim")
        world.ids["review_item"] = created(claim, 200)["id"]
        # An alignment of a labelled version, judged to the end.
        world.ids["alignment"] = aligned(api, client, judge)

        world.ids["dataset"], world.ids["dataset_image"] = unique_quiz_dataset(client)
        world.ids["run"] = predictions_run(api, client, world.ids["dataset"], {1}, rows=4)
        world.ids["baseline_run"] = predictions_run(
            api, client, world.ids["dataset"], set(), rows=4
        )
        world.ids["model"] = register_model(client, judge.base_url)

        content = "\n".join(json.dumps(row) for row in ROWS).encode()
        uploaded = client.post(
            "/v1/files", files={"file": ("rows.jsonl", content)}, data={"purpose": "evals"}
        )
        world.ids["file"] = created(uploaded, 200)["id"]
        ev = client.post(
            "/v1/evals",
            json={
                "name": "scoped eval",
                "data_source_config": {"type": "custom", "item_schema": {"type": "object"}},
                "testing_criteria": [CRITERION],
            },
        )
        world.ids["eval"] = created(ev, 201)["id"]
        source = {"type": "file_id", "id": world.ids["file"]}
        eval_run = client.post(
            f"/v1/evals/{world.ids['eval']}/runs",
            json={"name": "nightly", "data_source": {"type": "jsonl", "source": source}},
        )
        world.ids["eval_run"] = created(eval_run, 201)["id"]
        run_path = f"/v1/evals/{world.ids['eval']}/runs/{world.ids['eval_run']}"
        finished = wait_until(api, client, run_path, lambda body: body["status"] in TERMINAL)
        assert finished["status"] == "completed", finished
        items = client.get(f"{run_path}/output_items").json()["data"]
        world.ids["output_item"] = items[0]["id"]

        rule = client.post(
            "/v1/online_rules",
            json={
                "name": "scoped rule",
                "sampling": {"rate": 1},
                "metrics": [{"type": "answer_relevancy"}],
            },
        )
        world.ids["online_rule"] = created(rule, 201)["id"]
        # A production call with an image, ingested and judged by the rule: the rule's day
        # (an evaluation of kind `online`), its result and the call's image.
        traced = client.post("/v1/traces", json={"resourceSpans": [image_span("0a0b0c0d0e0f0102")]})
        assert traced.status_code == 200, traced.text
        results = f"/v1/online_rules/{world.ids['online_rule']}/results"
        online = wait_until(api, client, results, lambda body: len(body["data"]) == 1)["data"][0]
        world.ids["online_evaluation"] = online["evaluation_id"]
        world.ids["online_result"] = online["id"]
        day_cases = client.get(f"/v1/evaluations/{online['evaluation_id']}/test_cases")
        [world.ids["online_image"]] = MEDIA_URL.findall(day_cases.text)
        world.ids["result"] = result["id"]

        deliveries = f"/v1/webhook_endpoints/{endpoint['id']}/deliveries"
        wait_until(api, client, deliveries, lambda body: any(d["succeeded"] for d in body["data"]))
        audited = client.get("/v1/audit_events", params={"limit": 1}).json()["data"]
        world.ids["audit_event"] = audited[0]["id"]
    return world


def queue_evaluation(api: Api, world: World) -> None:
    """An evaluation B could still cancel: in distributed mode nothing runs the queue after
    this, so it stays queued (the embedded worker may finish it; B's cancel is a 404 either way)."""
    with api.client(world.key) as client:
        body = {"test_cases": cases(right=True), "metrics": [{"type": "exact_match"}]}
        world.queued_evaluation = created(client.post("/v1/evaluations", json=body), 202)["id"]


@dataclass
class Worlds:
    api: Api
    a: World
    b: World
    a_http: httpx.Client
    b_http: httpx.Client
    a_console: httpx.Client
    b_console: httpx.Client
    # A's GET answers before B's calls: (status, body or None) by path.
    before: dict[str, tuple[int, bytes | None]] = field(default_factory=dict)
    # B's jobs started by the tests (path, as "/v1/runs/run_…"): canceled and settled at the
    # end, so that none calls the shared scripted judge during a later test.
    started: list[str] = field(default_factory=list)

    def settle(self) -> None:
        """Cancel every job still running here and wait until each has stopped."""
        jobs = [(self.a_http, f"/v1/evaluations/{self.a.queued_evaluation}")]
        jobs += [(self.b_http, f"/v1/evaluations/{self.b.queued_evaluation}")]
        jobs += [(self.b_http, path) for path in self.started]
        for client, path in jobs:
            if client.get(path).json()["status"] not in TERMINAL:
                client.post(f"{path}/cancel")  # a 409 if it finished meanwhile
        for client, path in jobs:
            wait_until(self.api, client, path, lambda body: body["status"] in TERMINAL)

    def client(self, world: World, route: Route) -> httpx.Client:
        if world is self.a:
            return self.a_console if route.console else self.a_http
        return self.b_console if route.console else self.b_http

    def reads(self) -> dict[str, tuple[int, bytes | None]]:
        """A's answer to every GET route with its own ids: status and body (the console's
        pages hold per-session tokens, so only their status is compared)."""
        answers = {}
        for route in ROUTES:
            if route.method != "GET":
                continue
            path = filled(route, [self.a] * len(route.parameters))
            response = self.client(self.a, route).get(path, params=_PINNED.get(route.path))
            if route.path in _PINNED:
                assert response.status_code == 200, response.text  # the window is taken
            html = response.headers.get("content-type", "").startswith("text/html")
            body = None if html else response.content
            answers[path] = (response.status_code, body)
        return answers

    def changes_to_a(self) -> list[str]:
        """What A now reads differently from before B's calls (nothing, when scoped)."""
        after = self.reads()
        changed = [
            f"A's {path} changed under B's calls: {self.before[path]} -> {answer}"
            for path, answer in after.items()
            if answer != self.before[path]
        ]
        queued = self.a_http.get(f"/v1/evaluations/{self.a.queued_evaluation}").json()
        if queued["status"] == "canceled":
            changed.append(f"B canceled A's evaluation {self.a.queued_evaluation}")
        return changed


# Reads whose default window follows the clock are asked for one fixed window around the
# module's run (it holds now and the next day): compared before and after B's calls, a default
# window would move when an hour ends between the two reads.
_NOW = datetime.now(UTC).replace(minute=0, second=0, microsecond=0)
_PINNED = {
    "/v1/online_rules/{rule_id}/trend": {
        "since": (_NOW - timedelta(days=2)).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "until": (_NOW + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }
}


@pytest.fixture(scope="module")
def receivers() -> Iterator[tuple[WebhookReceiver, WebhookReceiver]]:
    """A webhook receiver for each tenant: only its own registers its URL."""
    with WebhookReceiver() as a, WebhookReceiver() as b:
        yield a, b


@pytest.fixture(scope="module")
def worlds(
    api: Api, judge_server: ScriptedJudge, receivers: tuple[WebhookReceiver, WebhookReceiver]
) -> Iterator[Worlds]:
    judge_server.reset()
    a = build_world(api, judge_server, receivers[0])
    b = build_world(api, judge_server, receivers[1])
    queue_evaluation(api, a)
    queue_evaluation(api, b)
    made = Worlds(
        api=api,
        a=a,
        b=b,
        a_http=api.client(a.key),
        b_http=api.client(b.key),
        a_console=signed_in(api, a.key),
        b_console=signed_in(api, b.key),
    )
    made.before = made.reads()
    yield made
    made.settle()
    for client in (made.a_http, made.b_http, made.a_console, made.b_console):
        client.close()


def owner_mixes(route: Route, worlds: Worlds) -> list[list[World]]:
    """Whose object goes in each object parameter: A's in every one, then B's own parents with
    A's children (B's eval with A's run in it), so a child read only through a parent B may
    see is refused too."""
    count = sum(1 for _, prefix in route.parameters if PARAMETERS[prefix] is not NOT_AN_OBJECT)
    return [[worlds.b] * own + [worlds.a] * (count - own) for own in range(count)]


def send(worlds: Worlds, world: World, route: Route, path: str) -> httpx.Response:
    client = worlds.client(world, route)
    if route.console and route.method == "POST":
        # The console's forms carry the session's CSRF token: without it any POST is a 403.
        token = csrf_of(client.get("/console/compare").text)
        return client.post(path, data={"csrf_token": token})
    body = JSON_BODIES.get((route.method, route.path))
    return client.request(route.method, path, json=body)


def refusal(route: Route, path: str, response: httpx.Response) -> str | None:
    """What is wrong with B's answer, or None for a 404 of the route's kind."""
    content_type = response.headers.get("content-type", "")
    if response.status_code != 404:
        return f"{route} as {path}: {response.status_code} {response.text[:200]}"
    if route.console:
        if not content_type.startswith("text/html"):
            return f"{route} as {path}: 404 as {content_type}, not the console's page"
        return None
    if not content_type.startswith(PROBLEM_JSON) or response.json().get("status") != 404:
        return f"{route} as {path}: 404 as {content_type}: {response.text[:200]}"
    return None


def test_every_path_parameter_is_filled() -> None:
    """Each parameter of each route is in PARAMETERS (or POSITIONS), and every entry there is
    still some route's: a new route with an id must say which object it names."""
    unknown = sorted(
        f"{route}: {prefix}"
        for route in ROUTES
        for _, prefix in route.parameters
        if prefix not in PARAMETERS
    )
    assert not unknown, "routes with parameters this test cannot fill: " + "; ".join(unknown)
    positions = {
        name
        for route in ROUTES
        for name, prefix in route.parameters
        if PARAMETERS[prefix] is NOT_AN_OBJECT
    }
    assert positions <= POSITIONS.keys()
    used = {prefix for route in ROUTES for _, prefix in route.parameters}
    assert set(PARAMETERS) <= used, f"stale entries: {set(PARAMETERS) - used}"


@pytest.mark.parametrize("route", ROUTES, ids=str)
def test_another_tenant_gets_404(worlds: Worlds, route: Route) -> None:
    """B, with A's ids in the path (with its own parents and A's children, and with A's ids
    of every other kind), gets 404, where A reads its own; after B's cancels, deletes and
    updates every object of A's reads back as it was."""
    if route.method == "GET":
        # Each reads its own there: the ids filled in name what the route looks up.
        for world in (worlds.a, worlds.b):
            own = filled(route, [world] * len(route.parameters))
            answer = worlds.client(world, route).get(own)
            assert answer.status_code == 200, f"{own} of its own: {answer.text[:200]}"

    wrong: list[str | None] = []
    for owners in owner_mixes(route, worlds):
        path = filled(route, owners)
        wrong.append(refusal(route, path, send(worlds, worlds.b, route, path)))
    # A's id of any other kind in the last object parameter is no way in either.
    named = [prefix for _, prefix in route.parameters if PARAMETERS[prefix] is not NOT_AN_OBJECT]
    for kind, value in {**worlds.a.ids, "queued": worlds.a.queued_evaluation}.items():
        if kind == PARAMETERS[named[-1]]:
            continue
        sprayed = World(key="", ids={**worlds.a.ids, PARAMETERS[named[-1]]: value})
        path = filled(route, [sprayed] * len(named))
        wrong.append(refusal(route, path, send(worlds, worlds.b, route, path)))
    if route.method != "GET":
        wrong.extend(worlds.changes_to_a())
    problems = [problem for problem in wrong if problem]
    assert not problems, "\n".join(problems)


def list_routes() -> list[str]:
    """Every GET route of `/v1` and the console with no parameter in its path."""
    return sorted(
        context.path
        for context in APP
        if "GET" in (context.methods or set())
        and (context.path or "").startswith(("/v1/", "/console"))
        and "{" not in (context.path or "")
        and context.path != "/console/sign-in"
        # A team admin's and the operator's pages: a key's session gets their 403 page
        # (tests/people/test_keys_console.py, test_operator.py check what they show).
        and context.path not in ("/console/keys", "/console/operator")
        and context.endpoint is not post_only_refusal
    )


# Lists that show more when asked: the eval runs among the evaluations.
LIST_QUERIES = {
    "/v1/evaluations": [{}, {"kind": "eval_run"}, {"kind": "online"}],
    "/console/evaluations": [{}, {"kind": "eval_run"}, {"kind": "online"}],
}


@pytest.mark.parametrize("path", list_routes())
def test_lists_name_none_of_another_tenants_objects(worlds: Worlds, path: str) -> None:
    """B's lists (and its console's pages without an id) answer without any id of A's."""
    client = worlds.b_console if path.startswith("/console") else worlds.b_http
    for query in LIST_QUERIES.get(path, [{}]):
        response = client.get(path, params=query, follow_redirects=True)
        assert response.status_code == 200, f"{path} {query}: {response.text[:200]}"
        seen = [value for value in worlds.a.ids.values() if value in response.text]
        assert not seen, f"B's {path} {query} names A's {seen}"


def test_an_idempotency_key_is_the_tenants_own(worlds: Worlds) -> None:
    """B sending A's Idempotency-Key with A's very body gets an evaluation of its own, never A's
    stored answer; A's retry still gets A's."""
    headers = {"Idempotency-Key": worlds.a.idempotency_key}
    body = worlds.a.evaluation_body
    theirs = worlds.b_http.post("/v1/evaluations", json=body, headers=headers)
    assert theirs.status_code == 202, theirs.text
    worlds.started.append(f"/v1/evaluations/{theirs.json()['id']}")
    assert theirs.json()["id"] != worlds.a.ids["evaluation"]
    assert worlds.a.ids["evaluation"] not in theirs.text
    retried = worlds.a_http.post("/v1/evaluations", json=body, headers=headers)
    assert retried.status_code == 202, retried.text
    assert retried.json()["id"] == worlds.a.ids["evaluation"]


def references(worlds: Worlds, theirs: World) -> dict[str, tuple[str, str, dict[str, Any]]]:
    """Requests B makes naming `theirs`'s objects (A's, or B's own) in a body, by what they
    try."""
    a, b = theirs.ids, worlds.b.ids
    g_eval = {
        "type": "g_eval",
        "name": "right",
        "criteria": "Is it right?",
        "evaluation_params": ["input", "actual_output"],
    }
    judged = {**g_eval, "judge": {"model_id": a["model"]}}
    case = {"input": "q", "actual_output": "a", "expected_output": "a"}
    file_source = {"type": "jsonl", "source": {"type": "file_id", "id": a["file"]}}
    return {
        "comparison of A's evaluations": (
            "POST",
            "/v1/comparisons",
            {"json": {"baseline_id": a["baseline"], "candidate_id": a["evaluation"]}},
        ),
        "comparison of B's against A's": (
            "POST",
            "/v1/comparisons",
            {"json": {"baseline_id": b["baseline"], "candidate_id": a["evaluation"]}},
        ),
        "comparison of A's runs": (
            "POST",
            "/v1/comparisons",
            {"json": {"baseline_id": a["baseline_run"], "candidate_id": a["run"]}},
        ),
        "run over A's dataset": (
            "POST",
            "/v1/runs",
            {
                "json": {
                    "dataset_id": a["dataset"],
                    "predictions": [{"index": 0, "prediction": "A"}],
                    "limit": 1,
                }
            },
        ),
        "run of A's model": (
            "POST",
            "/v1/runs",
            {"json": {"dataset_id": b["dataset"], "model_id": a["model"], "limit": 1}},
        ),
        "evaluation judged by A's model": (
            "POST",
            "/v1/evaluations",
            {"json": {"test_cases": [case], "metrics": [judged]}},
        ),
        "eval run over A's file": (
            "POST",
            f"/v1/evals/{b['eval']}/runs",
            {"json": {"data_source": file_source}},
        ),
        "evaluation wholly judged by A's model": (
            "POST",
            "/v1/evaluations",
            {
                "json": {
                    "test_cases": [case],
                    "metrics": [g_eval],
                    "judge": {"model_id": a["model"]},
                }
            },
        ),
        "run judged by A's model": (
            "POST",
            "/v1/runs",
            {
                "json": {
                    "dataset_id": b["dataset"],
                    "predictions": [{"index": 0, "prediction": "A"}],
                    "limit": 1,
                    "judge": {"strategy": "llm", "model_id": a["model"]},
                }
            },
        ),
        "evaluation announced to A's webhook": (
            "POST",
            "/v1/evaluations",
            {
                "json": {
                    "test_cases": [case],
                    "metrics": [{"type": "exact_match"}],
                    "webhook_url": theirs.webhook_url,
                }
            },
        ),
        "run announced to A's webhook": (
            "POST",
            "/v1/runs",
            {
                "json": {
                    "dataset_id": b["dataset"],
                    "predictions": [{"index": 0, "prediction": "A"}],
                    "limit": 1,
                    "webhook_url": theirs.webhook_url,
                }
            },
        ),
        "eval run announced to A's webhook": (
            "POST",
            f"/v1/evals/{b['eval']}/runs",
            {"json": {**EVAL_RUN_BODY, "webhook_url": theirs.webhook_url}},
        ),
    }


REFERENCES = [
    "comparison of A's evaluations",
    "comparison of B's against A's",
    "comparison of A's runs",
    "run over A's dataset",
    "run of A's model",
    "evaluation judged by A's model",
    "evaluation wholly judged by A's model",
    "run judged by A's model",
    "eval run over A's file",
    "evaluation announced to A's webhook",
    "run announced to A's webhook",
    "eval run announced to A's webhook",
]


@pytest.mark.parametrize("attempt", REFERENCES)
def test_another_tenants_ids_in_a_body_are_not_found(worlds: Worlds, attempt: str) -> None:
    """An id of A's in B's request body is refused as unknown (a 404, or a 422 naming the
    field; 400 on the OpenAI-compatible routes) and changes nothing of A's, where the same
    request naming B's own is taken."""
    assert set(references(worlds, worlds.a)) == set(REFERENCES)
    method, path, arguments = references(worlds, worlds.a)[attempt]
    response = worlds.b_http.request(method, path, **arguments)
    assert response.status_code in (400, 404, 422), f"{attempt}: {response.text[:300]}"
    assert response.headers["content-type"].startswith(PROBLEM_JSON)
    assert not worlds.changes_to_a()
    method, path, arguments = references(worlds, worlds.b)[attempt]
    own = worlds.b_http.request(method, path, **arguments)
    assert own.is_success, f"{attempt}, B's own: {own.text[:300]}"
    if not path.endswith("/comparisons"):
        # Let finish here: its job would otherwise call the shared judge during a later test.
        started = f"{path}/{own.json()['id']}"
        wait_until(worlds.api, worlds.b_http, started, lambda body: body["status"] in TERMINAL)


def test_the_console_compares_only_the_tenants_own(worlds: Worlds) -> None:
    """The console's compare form, handed A's ids, neither offers nor compares them."""
    a = worlds.a.ids
    form = worlds.b_console.get(
        "/console/compare", params={"baseline": a["evaluation"], "candidate": a["run"]}
    )
    assert form.status_code == 200, form.text
    token = csrf_of(form.text)
    compared = worlds.b_console.post(
        "/console/compare",
        data={"baseline_id": a["evaluation"], "candidate_id": a["run"], "csrf_token": token},
    )
    assert compared.status_code in (400, 404, 422), compared.text[:300]
    assert "/console/comparisons/" not in compared.headers.get("location", "")


def test_naming_another_tenants_image_by_its_digest_gives_no_access(worlds: Worlds) -> None:
    """A test case naming a stored image of A's (`blob:sha256:` as Loupe stores it, or its
    media URL) is refused as if nobody held it: B learns nothing of A's by its digest."""
    digest = worlds.a.ids["image"]
    for url in (f"blob:sha256:{digest}", f"{worlds.api.base_url}/v1/media/{digest}"):
        case = {
            "input": ["Which colour?", {"type": "image_url", "image_url": {"url": url}}],
            "actual_output": "red",
            "expected_output": "red",
        }
        body = {"test_cases": [case], "metrics": [{"type": "exact_match"}]}
        response = worlds.b_http.post("/v1/evaluations", json=body)
        assert response.status_code == 422, f"{url}: {response.text[:300]}"
        assert response.headers["content-type"].startswith(PROBLEM_JSON)
        assert [e["type"] for e in response.json()["errors"]] == ["media_not_found"]
        assert worlds.b_http.get(f"/v1/media/{digest}").status_code == 404


# A's blobs, by what holds them: a test case's image, a dataset row's, a traced call's.
DIGESTS = ["image", "dataset_image", "online_image"]


@pytest.mark.parametrize("kind", DIGESTS)
def test_another_tenants_media_is_not_found_however_asked(worlds: Worlds, kind: str) -> None:
    """B asking for A's blob by its digest (as given, upper-case, with If-None-Match naming its
    ETag or `*`) gets the 404 a digest nobody stored gets, on the API and the console alike;
    never a 304 saying the blob exists."""
    digest = worlds.a.ids[kind]
    for prefix, client in (("/v1", worlds.b_http), ("/console", worlds.b_console)):
        own = worlds.client(worlds.a, Route("GET", f"{prefix}/media/{{sha256}}"))
        own = own.get(f"{prefix}/media/{digest}")
        assert own.status_code == 200, f"A's own {kind}: {own.status_code}"
        for asked in (digest, digest.upper()):
            for headers in ({}, {"If-None-Match": f'"{digest}"'}, {"If-None-Match": "*"}):
                answer = client.get(f"{prefix}/media/{asked}", headers=headers)
                nobodys = client.get(f"{prefix}/media/{'e' * 64}", headers=headers)
                assert answer.status_code == nobodys.status_code == 404, (prefix, asked, headers)
                if prefix == "/v1":
                    assert _comparable(answer, [asked]) == _comparable(nobodys, ["e" * 64])
                assert "etag" not in answer.headers


def filters(a: dict[str, str]) -> list[tuple[str, dict[str, str]]]:
    """B's lists filtered by A's ids."""
    return [
        ("/v1/labels", {"metric_version": a["metric_version"]}),
        ("/v1/labels", {"evaluation_id": a["evaluation"]}),
        ("/v1/labels", {"result_id": a["result"]}),
        ("/v1/labels/export", {"metric_version": a["metric_version"]}),
        ("/v1/labels/export", {"format": "csv", "result_id": a["result"]}),
        ("/v1/alignments", {"metric_version": a["metric_version"]}),
        ("/v1/audit_events", {"object_id": a["evaluation"]}),
        ("/v1/audit_events", {"object_id": a["online_rule"]}),
        ("/v1/evaluations", {"after": a["evaluation"]}),
        ("/v1/evaluations", {"kind": "online", "after": a["online_evaluation"]}),
    ]


def test_lists_filtered_by_another_tenants_ids_are_empty(worlds: Worlds) -> None:
    """B's lists and exports filtered by A's ids name nothing of A's (the filters are applied
    inside B's own rows)."""
    for path, query in filters(worlds.a.ids):
        response = worlds.b_http.get(path, params=query)
        assert response.status_code == 200, f"{path} {query}: {response.text[:200]}"
        named = [kind for kind, value in worlds.a.ids.items() if value in response.text]
        assert not named, f"B's {path} {query} names A's {named}"
        if path.endswith("/export"):
            assert response.text.count("\n") <= 1, f"{path} {query}: {response.text[:300]}"
        else:
            ids = [item["id"] for item in response.json()["data"]]
            assert not set(ids) & set(worlds.a.ids.values()), (path, query)


def made_up(value: str) -> str:
    """An id of the same form as `value` that nobody made (its prefix, zeros after)."""
    prefix, _, rest = value.rpartition("_")
    return f"{prefix}_{'0' * len(rest)}"


def naming(ids: dict[str, str]) -> dict[str, tuple[str, str, dict[str, Any], str]]:
    """Requests naming `ids`'s objects in their bodies: method, path, arguments and the
    pointer of the field that names the object."""
    line = {"evaluation_id": ids["judged"], "test_case_id": "case-1", "metric": "helpful"}
    return {
        "review queue of an evaluation": (
            "POST",
            "/v1/review_queues",
            {
                "json": {
                    "name": "taken",
                    "evaluation_ids": [ids["judged"]],
                    "metric": "helpful",
                    "routing": {"audit_share": 1},
                }
            },
            "/evaluation_ids/0",
        ),
        "review queue of an online rule": (
            "POST",
            "/v1/review_queues",
            {
                "json": {
                    "name": "taken",
                    "online_rule_ids": [ids["online_rule"]],
                    "metric": "answer_relevancy",
                    "routing": {"audit_share": 1},
                }
            },
            "/online_rule_ids/0",
        ),
        "alignment of a metric version": (
            "POST",
            "/v1/alignments",
            {"json": {"metric_version": ids["metric_version"]}},
            "/metric_version",
        ),
        "label of a result": (
            "POST",
            "/v1/labels",
            {"json": {"result_id": ids["result"], "value": 1}},
            "/result_id",
        ),
        "label of an online result": (
            "POST",
            "/v1/labels",
            {"json": {"result_id": ids["online_result"], "value": 1}},
            "/result_id",
        ),
        "label of a test case": (
            "POST",
            "/v1/labels",
            {"json": {**line, "value": 1}},
            "/evaluation_id",
        ),
        "labels imported onto a result": (
            "POST",
            "/v1/labels/import",
            {
                "content": json.dumps({"result_id": ids["result"], "value": 1}) + "\n",
                "headers": {"Content-Type": "application/x-ndjson"},
            },
            "/lines/1/result_id",
        ),
        "online rule judged by a model": (
            "POST",
            "/v1/online_rules",
            {
                "json": {
                    "name": "taken",
                    "sampling": {"rate": 1},
                    "metrics": [{"type": "answer_relevancy"}],
                    "judge": {"model_id": ids["model"]},
                }
            },
            "/judge/model_id",
        ),
        "comparison of an eval run": (
            "POST",
            "/v1/comparisons",
            {"json": {"baseline_id": ids["evaluation"], "candidate_id": ids["eval_run"]}},
            "/baseline_id",
        ),
        "run estimate over a dataset": (
            "POST",
            "/v1/runs/estimate",
            {"json": {"dataset_id": ids["dataset"], "limit": 1}},
            "/dataset_id",
        ),
        "evaluation estimate judged by a model": (
            "POST",
            "/v1/evaluations/estimate",
            {
                "json": {
                    "test_cases": [{"input": "q", "actual_output": "a"}],
                    "metrics": [{**G_EVAL, "judge": {"model_id": ids["model"]}}],
                }
            },
            "/metrics/0/judge/model_id",
        ),
    }


def _comparable(response: httpx.Response, ids: Iterable[str]) -> tuple[int, Any]:
    """The answer with the ids it may name, and the parts that differ per request, left out."""
    body = response.json()
    for volatile in ("instance", "request_id"):
        body.pop(volatile, None)
    text = json.dumps(body)
    # Longest first: `run_000…` is the tail of `evalrun_000…`.
    for value in sorted(ids, key=len, reverse=True):
        text = text.replace(value, "<id>")
    return response.status_code, json.loads(text)


@pytest.mark.parametrize("attempt", list(naming(defaultdict(str))))
def test_another_tenants_id_in_a_body_reads_as_one_nobody_made(
    worlds: Worlds, attempt: str
) -> None:
    """B naming A's object in a body gets the very answer an id nobody made gets (the field
    named, nothing saying the id exists elsewhere), and changes nothing of A's."""
    theirs = naming(worlds.a.ids)[attempt]
    nobodys = naming({kind: made_up(value) for kind, value in worlds.a.ids.items()})[attempt]
    method, path, arguments, pointer = theirs
    answer = worlds.b_http.request(method, path, **arguments)
    assert answer.status_code in (400, 404, 422), f"{attempt}: {answer.text[:300]}"
    assert answer.headers["content-type"].startswith(PROBLEM_JSON)
    assert pointer in [error.get("pointer") for error in answer.json()["errors"]], answer.text
    unknown = worlds.b_http.request(nobodys[0], nobodys[1], **nobodys[2])
    made = [made_up(value) for value in worlds.a.ids.values()]
    assert _comparable(answer, worlds.a.ids.values()) == _comparable(unknown, made), attempt
    assert not worlds.changes_to_a()
