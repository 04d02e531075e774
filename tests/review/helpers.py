"""A tenant with judged evaluations to review, and reviewers' keys, through the API."""

import json
import re
import threading
import uuid
from collections import defaultdict
from typing import Any

import httpx

from app.tenants.service import create_key
from tests.console.helpers import csrf_of
from tests.fixtures.api import Api
from tests.fixtures.judge import plausible_answer, task_of

G_EVAL = {
    "type": "g_eval",
    "name": "helpful",
    "evaluation_steps": ["Check the answer."],
    "evaluation_params": ["input", "actual_output"],
    "threshold": 0.5,
}
REVIEWER = ["read", "review"]


class Scores:
    """Scores out of 10 per case (`answer <name>` in the output), one after another per case
    as its calls arrive (several: the case's samples disagree)."""

    def __init__(self, scores: dict[str, list[int]]) -> None:
        self.scores = scores
        self.calls: dict[str, int] = defaultdict(int)
        self.lock = threading.Lock()

    def __call__(self, request: dict) -> Any:
        if task_of(request) != "g_eval_score":
            return plausible_answer(request)
        match = re.search(r"answer (\w+)", json.dumps(request))
        assert match is not None
        name = match.group(1)
        with self.lock:
            made = self.calls[name]
            self.calls[name] += 1
        planned = self.scores[name]
        score = planned[made % len(planned)]
        return {"reason": f"The judge gives {name} {score} of 10.", "score": score}


class Team:
    """A tenant with a key of every scope, and reviewers' keys (each its own actor)."""

    def __init__(self, api: Api) -> None:
        self.api = api
        self.name = f"review-{uuid.uuid4().hex[:8]}"
        self.client = api.client(self.key(None))

    def key(self, scopes: list[str] | None) -> str:
        with self.api.served.runtime.session() as session:
            _, key = create_key(session, self.name, scopes=scopes)
            session.commit()
        return key

    def reviewer(self, scopes: list[str] = REVIEWER) -> httpx.Client:
        return self.api.client(self.key(scopes))

    def evaluate(self, scores: dict[str, list[int]], samples: int = 1) -> str:
        metric = {**G_EVAL, "judge": {"samples": samples}} if samples > 1 else G_EVAL
        cases = [
            {"id": name, "input": f"question {name}", "actual_output": f"answer {name}"}
            for name in scores
        ]
        response = self.client.post(
            "/v1/evaluations", json={"test_cases": cases, "metrics": [metric]}
        )
        assert response.status_code == 202, response.text
        final = self.api.wait(self.client, response.json()["id"])
        assert final["status"] == "completed", final
        return final["id"]

    def queue(self, evaluation_id: str, **fields: Any) -> dict[str, Any]:
        body = {
            "name": "helpful review",
            "evaluation_ids": [evaluation_id],
            "metric": "helpful",
            "routing": {"audit_share": 1},
            **fields,
        }
        response = self.client.post("/v1/review_queues", json=body)
        assert response.status_code == 201, response.text
        return response.json()


def claimed_page(console: httpx.Client, queue_id: str) -> httpx.Response:
    """The page a console session is led to by the queue page's Start button (a POST that
    claims the next item): the item, blind, or the queue saying nothing is left."""
    queue_page = console.get(f"/console/review/{queue_id}")
    assert queue_page.status_code == 200, queue_page.text
    claimed = console.post(
        f"/console/review/{queue_id}/claim", data={"csrf_token": csrf_of(queue_page.text)}
    )
    assert claimed.status_code == 303, claimed.text
    return console.get(claimed.headers["location"])
