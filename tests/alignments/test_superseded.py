"""A submission of a version an activated alignment improved on is told so (issue 29): its
metric's agreement line names the active candidate in `superseded_by`, in the create's answer
and on every read, until then null; a declined candidate supersedes nothing."""

from typing import Any

import httpx

from tests.alignments.helpers import HELPFULNESS, aligned, cases
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge


def line(body: dict[str, Any]) -> dict[str, Any] | None:
    (metric,) = [row for row in body["per_metric"] if row["metric"] == "helpfulness"]
    return metric["agreement"]


def submitted(api: Api, client: httpx.Client) -> tuple[dict[str, Any], dict[str, Any]]:
    """The parent's spec submitted again: the create's answer and the completed read."""
    response = client.post(
        "/v1/evaluations", json={"test_cases": cases(2), "metrics": [HELPFULNESS]}
    )
    assert response.status_code == 202, response.text
    return response.json(), api.wait(client, response.json()["id"])


def test_the_parent_names_its_activated_candidate(api: Api, judge: ScriptedJudge) -> None:
    client = api.tenant_client()
    alignment = client.get(f"/v1/alignments/{aligned(api, client, judge)}").json()
    created, read = submitted(api, client)
    assert line(created)["superseded_by"] is None and line(read)["superseded_by"] is None
    assert line(read)["metric_version"] == alignment["metric_version"]

    assert client.post(f"/v1/alignments/{alignment['id']}/activate").status_code == 200
    created, read = submitted(api, client)
    candidate = alignment["candidate_version"]
    assert line(created)["superseded_by"] == candidate
    assert line(read)["superseded_by"] == candidate
    results = client.get(f"/v1/evaluations/{read['id']}/results").json()["data"]
    assert {row["agreement"]["superseded_by"] for row in results} == {candidate}


def test_a_declined_candidate_supersedes_nothing(api: Api, judge: ScriptedJudge) -> None:
    client = api.tenant_client()
    alignment_id = aligned(api, client, judge)
    assert client.post(f"/v1/alignments/{alignment_id}/decline").status_code == 200
    _, read = submitted(api, client)
    assert line(read)["superseded_by"] is None
