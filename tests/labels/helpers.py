"""Evaluations with a judged metric to label, through the API and the scripted judge."""

import json
import uuid
from typing import Any

import httpx
from sqlalchemy import select

from app.models import AuditEvent, Tenant
from app.tenants.service import create_key
from tests.fixtures.api import Api
from tests.fixtures.judge import Reply, plausible_answer

PROBLEM_JSON = "application/problem+json"
STEPS = ["Check the answer is right."]
# A judged metric (steps given, so one judge call a case) and a metric with no judge.
HELPFULNESS = {
    "type": "g_eval",
    "name": "helpfulness",
    "evaluation_steps": STEPS,
    "evaluation_params": ["input", "actual_output"],
}
EXACT = {"type": "exact_match"}
CASES = [
    {"id": "sum", "input": "2+2?", "actual_output": "4", "expected_output": "4"},
    {"id": "product", "input": "3*3?", "actual_output": "6", "expected_output": "9"},
    # The judge refuses this one's request: its helpfulness result errors.
    {"id": "refused", "input": "refuse me", "actual_output": "x", "expected_output": "x"},
]


def answer(request: dict) -> Reply | dict:
    """Plausible answers, except a 400 for the case asking to be refused."""
    if "refuse me" in json.dumps(request):
        return Reply(content=json.dumps({"error": {"message": "no"}}), status=400)
    return plausible_answer(request)


class Team:
    """A tenant with a key holding every key scope, and a way to make narrower keys."""

    def __init__(self, api: Api) -> None:
        self.api = api
        self.name = f"labels-{uuid.uuid4().hex[:8]}"
        self.key = self.new_key(None, name="reviewer bot")
        self.client = api.client(self.key)

    def new_key(self, scopes: list[str] | None, name: str | None = None) -> str:
        with self.api.served.runtime.session() as session:
            _, key = create_key(session, self.name, scopes=scopes, name=name)
            session.commit()
        return key

    def evaluate(self, steps: list[str] = STEPS, cases: list[dict] = CASES) -> str:
        """A completed evaluation of `cases` with helpfulness (these steps) and exact_match."""
        body = {"test_cases": cases, "metrics": [{**HELPFULNESS, "evaluation_steps": steps}, EXACT]}
        response = self.client.post("/v1/evaluations", json=body)
        assert response.status_code == 202, response.text
        evaluation_id = response.json()["id"]
        assert self.api.wait(self.client, evaluation_id)["status"] == "completed"
        return evaluation_id

    def results(self, evaluation_id: str) -> dict[tuple[str, str], dict[str, Any]]:
        """The evaluation's results by (test case id, metric name)."""
        response = self.client.get(f"/v1/evaluations/{evaluation_id}/results")
        assert response.status_code == 200, response.text
        return {(row["test_case_id"], row["metric"]): row for row in response.json()["data"]}

    def actions(self) -> list[tuple[str, str]]:
        """The tenant's audit events about labels, oldest first: (action, object id)."""
        with self.api.served.runtime.session() as session:
            tenant_id = session.scalars(select(Tenant.id).where(Tenant.name == self.name)).one()
            rows = session.execute(
                select(AuditEvent.action, AuditEvent.object_id)
                .where(AuditEvent.tenant_id == tenant_id, AuditEvent.object_type == "label")
                .order_by(AuditEvent.id)
            ).all()
            return [(action, object_id) for action, object_id in rows]


def problem(response: httpx.Response, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith(PROBLEM_JSON)
    return response.json()
