"""Labels exported and imported back keep their rationales as written, whatever they hold:
commas, quotes, newlines, line separators a JSON string carries raw (U+2028, U+0085), text
in any script, and text that starts with a quote or a formula character."""

import json

import pytest

from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge
from tests.labels.helpers import Team, answer, problem

NDJSON = {"Content-Type": "application/x-ndjson"}
CSV = {"Content-Type": "text/csv"}

RATIONALES = {
    "sum": (
        'Right, "exactly" so;\nsecond line\r\nthird\u2028fourth\u0085fifth '
        "\u200f\u05e9\u05dc\u05d5\u05dd 👍"
    ),
    "product": "'=not a formula, a quote typed before it",
}


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_rationales_come_back_as_written(api: Api, judge: ScriptedJudge, fmt: str) -> None:
    judge.script(answer)
    team = Team(api)
    results = team.results(team.evaluate())
    for case, rationale in RATIONALES.items():
        body = {"result_id": results[(case, "helpfulness")]["id"], "value": 0.5}
        response = team.client.post("/v1/labels", json={**body, "rationale": rationale})
        assert response.status_code == 201, response.text
    exported = team.client.get("/v1/labels/export", params={"format": fmt}).content
    for label in team.client.get("/v1/labels").json()["data"]:
        assert team.client.delete(f"/v1/labels/{label['id']}").status_code == 204

    imported = team.client.post(
        "/v1/labels/import", content=exported, headers=NDJSON if fmt == "jsonl" else CSV
    )

    assert imported.status_code == 200, imported.text
    back = team.client.get("/v1/labels").json()["data"]
    assert {label["test_case_id"]: label["rationale"] for label in back} == RATIONALES


def test_a_json_line_is_counted_by_newlines_only(api: Api, judge: ScriptedJudge) -> None:
    """A line separator inside a JSON string neither splits its line nor moves the number of
    the bad line after it."""
    judge.script(answer)
    team = Team(api)
    result_id = team.results(team.evaluate())[("sum", "helpfulness")]["id"]
    lines = [
        json.dumps(
            {"result_id": result_id, "value": 0.5, "rationale": "a\u2028b"}, ensure_ascii=False
        ),
        json.dumps({"result_id": result_id, "value": 7}),
    ]
    body = problem(
        team.client.post("/v1/labels/import", content="\n".join(lines).encode(), headers=NDJSON),
        422,
    )
    assert [error["pointer"] for error in body["errors"]] == ["/lines/2/value"]
