"""Labels survive deleting and re-running an evaluation of the same version through their
export: a line whose result is gone is bound by its metric version and item (to a result of the
version holding the item when one exists), imported twice it adds nothing, and agreement counts
it as before. Without such a result, a team admin restores it as exported; anyone else is
refused at the line."""

import csv
import io
import json

import pytest
from sqlalchemy import event

from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge
from tests.labels.helpers import CASES, Team, answer, problem

TYPES = {"jsonl": "application/x-ndjson", "csv": "text/csv"}
GIVEN = {"sum": 0.9, "product": False}


def _label(team: Team, evaluation_id: str) -> str:
    """Label the evaluation's judged results; their metric version."""
    results = team.results(evaluation_id)
    for case, value in GIVEN.items():
        body = {"result_id": results[(case, "helpfulness")]["id"], "value": value}
        response = team.client.post("/v1/labels", json={**body, "rationale": f"{case} checked"})
        assert response.status_code == 201, response.text
    return results[("sum", "helpfulness")]["metric_version"]


def _forget(team: Team, evaluation_id: str) -> None:
    """The evaluation deleted, and every label of the team with it (a restore's start)."""
    assert team.client.delete(f"/v1/evaluations/{evaluation_id}").status_code == 204
    for label in team.client.get("/v1/labels").json()["data"]:
        assert team.client.delete(f"/v1/labels/{label['id']}").status_code == 204


def _import(client, exported: bytes, fmt: str):  # type: ignore[no-untyped-def]
    return client.post("/v1/labels/import", content=exported, headers={"Content-Type": TYPES[fmt]})


def _agreement(team: Team, version: str) -> tuple[int, int]:
    report = team.client.get(f"/v1/metric_versions/{version}/agreement")
    assert report.status_code == 200, report.text
    return report.json()["n"], report.json()["n_labels"]


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_an_export_goes_back_after_the_evaluation_is_deleted_and_run_again(
    api: Api, judge: ScriptedJudge, fmt: str
) -> None:
    judge.script(answer)
    team = Team(api)
    first = team.evaluate()
    version = _label(team, first)
    before = _agreement(team, version)
    assert before == (2, 2)
    exported = team.client.get("/v1/labels/export", params={"format": fmt}).content
    _forget(team, first)
    assert _agreement(team, version)[1] == 0
    second = team.evaluate()
    rerun = team.results(second)

    imported = _import(team.client, exported, fmt)

    assert imported.status_code == 200, imported.text
    assert (imported.json()["created"], imported.json()["updated"]) == (2, 0)
    back = team.client.get("/v1/labels").json()["data"]
    # Bound to the re-run's results of the same version and item, with their judge's verdict.
    assert {label["test_case_id"]: label["result_id"] for label in back} == {
        case: rerun[(case, "helpfulness")]["id"] for case in GIVEN
    }
    assert {label["metric_version"] for label in back} == {version}
    for label in back:
        assert label["judge_score"] == rerun[(label["test_case_id"], "helpfulness")]["score"]
    assert _agreement(team, version) == before
    shown = team.results(second)[("sum", "helpfulness")]["labels"]
    assert shown is not None and shown["count"] == 1

    again = _import(team.client, exported, fmt)

    assert again.status_code == 200, again.text
    assert again.json()["created"] == 0
    assert len(team.client.get("/v1/labels").json()["data"]) == 2
    assert _agreement(team, version) == before


def test_without_a_result_a_team_admin_restores_the_export_and_no_one_else(
    api: Api, judge: ScriptedJudge
) -> None:
    judge.script(answer)
    team = Team(api)
    first = team.evaluate()
    version = _label(team, first)
    before = _agreement(team, version)
    exported = team.client.get("/v1/labels/export", params={"format": "jsonl"}).content
    lines = [json.loads(line) for line in exported.splitlines()]
    _forget(team, first)

    # A member importing the lines as their own: no result holds the items any more.
    member = api.client(team.new_key(["read", "write", "review"]))
    own = "\n".join(
        json.dumps({k: v for k, v in line.items() if k != "actor"}) for line in lines
    ).encode()
    refused = problem(_import(member, own, "jsonl"), 422)
    assert [error["pointer"] for error in refused["errors"]] == [
        "/lines/1/result_id",
        "/lines/2/result_id",
    ]
    assert "team admin" in refused["errors"][0]["msg"]
    # Named by version and test case alone (no item key), nothing can be bound.
    by_case = json.dumps(
        {"metric_version": version, "test_case_id": "sum", "metric": "helpfulness", "value": 1}
    ).encode()
    assert [
        e["pointer"] for e in problem(_import(team.client, by_case, "jsonl"), 422)["errors"]
    ] == ["/lines/1/metric_version"]

    restored = _import(team.client, exported, "jsonl")

    assert restored.status_code == 200, restored.text
    assert restored.json()["created"] == 2
    back = {label["test_case_id"]: label for label in team.client.get("/v1/labels").json()["data"]}
    for line in lines:
        label = back[line["test_case_id"]]
        for name in ("metric_version", "item_key", "result_id", "judge_score", "passed", "actor"):
            assert label[name] == line[name], name
    assert _agreement(team, version) == before
    # Twice: the same two labels.
    assert _import(team.client, exported, "jsonl").json()["created"] == 0
    assert len(team.client.get("/v1/labels").json()["data"]) == 2


def test_a_csv_line_with_no_result_id_names_its_version_and_item(
    api: Api, judge: ScriptedJudge
) -> None:
    judge.script(answer)
    team = Team(api)
    first = team.evaluate()
    version = _label(team, first)
    exported = team.client.get("/v1/labels/export", params={"format": "csv"}).text
    rows = list(csv.DictReader(io.StringIO(exported)))
    _forget(team, first)
    rerun = team.results(team.evaluate())
    written = io.StringIO()
    columns = ["metric_version", "item_key", "value", "rationale"]
    writer = csv.DictWriter(written, columns, extrasaction="ignore")
    writer.writeheader()
    for row in rows:
        writer.writerow({**row, "value": row["value"] or row["passed"]})

    imported = _import(team.client, written.getvalue().encode(), "csv")

    assert imported.status_code == 200, imported.text
    back = team.client.get("/v1/labels", params={"metric_version": version}).json()["data"]
    assert sorted(label["result_id"] for label in back) == sorted(
        rerun[(case, "helpfulness")]["id"] for case in GIVEN
    )


def test_a_rerun_under_other_test_case_ids_still_takes_its_labels(
    api: Api, judge: ScriptedJudge
) -> None:
    """Bound by content: the same items submitted again under new ids are the same items."""
    judge.script(answer)
    team = Team(api)
    first = team.evaluate()
    version = _label(team, first)
    exported = team.client.get("/v1/labels/export", params={"format": "jsonl"}).content
    _forget(team, first)
    renamed = [{**case, "id": f"{case['id']}-again"} for case in CASES]
    rerun = team.results(team.evaluate(cases=renamed))
    # A member's import: bound to results, so no admin is needed.
    member = api.client(team.new_key(["read", "write", "review"]))
    own = b"\n".join(
        json.dumps({k: v for k, v in json.loads(line).items() if k != "actor"}).encode()
        for line in exported.splitlines()
    )

    imported = _import(member, own, "jsonl")

    assert imported.status_code == 200, imported.text
    back = team.client.get("/v1/labels", params={"metric_version": version}).json()["data"]
    assert sorted(label["result_id"] for label in back) == sorted(
        rerun[(f"{case}-again", "helpfulness")]["id"] for case in GIVEN
    )
    assert {label["test_case_id"] for label in back} == {f"{case}-again" for case in GIVEN}


def test_an_import_reads_a_versions_results_once_however_many_lines_name_it(
    api: Api, judge: ScriptedJudge
) -> None:
    """Each line bound by version and item looked for its item among the version's newest 200
    results: an import of 5,000 such lines, by any reviewer, read and hashed them 5,000 times.
    A search is read once per import."""
    judge.script(answer)
    team = Team(api)
    version = _label(team, team.evaluate())
    reviewer = api.client(team.new_key(["review"]))
    lines = "\n".join(
        json.dumps({"metric_version": version, "item_key": f"{number:064x}", "value": 1})
        for number in range(40)
    )
    statements: list[str] = []

    def watch(_conn, _cursor, statement: str, *_: object) -> None:  # type: ignore[no-untyped-def]
        statements.append(statement)

    event.listen(api.served.runtime.engine, "before_cursor_execute", watch)
    try:
        refused = _import(reviewer, lines.encode(), "jsonl")
    finally:
        event.remove(api.served.runtime.engine, "before_cursor_execute", watch)
    assert len(problem(refused, 422)["errors"]) >= 40
    searches = [s for s in statements if "JOIN test_case" in s]
    assert len(searches) == 1, len(searches)
