"""Labels through the API: given on a judged result (by its id, or by test case and metric),
replaced, checked against the metric's scale, imported all or nothing, exported, deleted; bound
to the metric version and the item's content, so they outlive the evaluation and show on a
re-run of the same version, and not on another version's."""

import csv
import io
import json

from sqlalchemy import event

from app.labels.transfer import MAX_IMPORT_LINES
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge
from tests.labels.helpers import STEPS, Team, answer, problem


def _label(team: Team, body: dict, status: int) -> dict:
    response = team.client.post("/v1/labels", json=body)
    assert response.status_code == status, response.text
    return response.json()


class TestGiving:
    def test_by_result_then_by_case_replaces_the_callers_label(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(answer)
        team = Team(api)
        evaluation_id = team.evaluate()
        result = team.results(evaluation_id)[("sum", "helpfulness")]
        assert result["metric_version"] and result["labels"] is None

        first = _label(team, {"result_id": result["id"], "value": 0.75, "rationale": "ok"}, 201)
        assert first["object"] == "label" and first["id"].startswith("lbl_")
        assert first["value"] == 0.75 and first["passed"] is True
        assert first["metric_version"] == result["metric_version"]
        assert len(first["item_key"]) == 64
        assert (first["result_id"], first["evaluation_id"]) == (result["id"], evaluation_id)
        assert (first["test_case_id"], first["metric"]) == ("sum", "helpfulness")
        # The judge's verdict as it was, beside the person's.
        assert first["judge_score"] == result["score"]
        assert first["judge_passed"] == result["passed"]
        assert first["threshold"] == result["threshold"] == 0.5
        assert first["actor"].startswith("key:") and first["actor_name"] == "reviewer bot"

        by_case = {
            "evaluation_id": evaluation_id,
            "test_case_id": "sum",
            "metric": "helpfulness",
            "value": 0.25,
        }
        again = _label(team, by_case, 200)
        assert again["id"] == first["id"] and again["value"] == 0.25
        assert again["passed"] is False and again["rationale"] is None
        assert again["updated_at"] > first["updated_at"]
        assert again["created_at"] == first["created_at"]
        assert team.client.get(f"/v1/labels/{first['id']}").json() == again

        listed = team.client.get("/v1/labels").json()
        assert [label["id"] for label in listed["data"]] == [first["id"]]
        for name, value in (
            ("metric_version", result["metric_version"]),
            ("evaluation_id", evaluation_id),
            ("result_id", result["id"]),
            ("actor", first["actor"]),
        ):
            found = team.client.get("/v1/labels", params={name: value}).json()["data"]
            assert [label["id"] for label in found] == [first["id"]], name
            assert team.client.get("/v1/labels", params={name: "x"}).json()["data"] == []

        shown = team.results(evaluation_id)
        assert shown[("sum", "helpfulness")]["labels"] == {
            "item_key": first["item_key"],
            "count": 1,
            "mean_value": 0.25,
            "passed": 0,
            "failed": 1,
        }
        assert shown[("product", "helpfulness")]["labels"] is None
        assert team.actions() == [("label.create", first["id"]), ("label.update", first["id"])]

    def test_pass_fail_labels_and_a_second_reviewer(self, api: Api, judge: ScriptedJudge) -> None:
        judge.script(answer)
        team = Team(api)
        evaluation_id = team.evaluate()
        result = team.results(evaluation_id)[("product", "helpfulness")]
        mine = _label(team, {"result_id": result["id"], "value": False}, 201)
        assert mine["value"] is None and mine["passed"] is False
        second = api.client(team.new_key(["read", "review"], name="second"))
        theirs = second.post("/v1/labels", json={"result_id": result["id"], "value": True})
        assert theirs.status_code == 201, theirs.text
        assert theirs.json()["id"] != mine["id"] and theirs.json()["actor_name"] == "second"
        retried = {"Idempotency-Key": "label-once"}
        whole = team.client.post(
            "/v1/labels", json={"result_id": result["id"], "value": 1}, headers=retried
        )
        assert whole.status_code == 200 and whole.json()["value"] == 1.0
        assert whole.json()["passed"] is True
        replayed = team.client.post(
            "/v1/labels", json={"result_id": result["id"], "value": 1}, headers=retried
        )
        assert replayed.status_code == 200 and replayed.headers["Idempotent-Replayed"] == "true"
        assert replayed.json() == whole.json()
        summary = team.results(evaluation_id)[("product", "helpfulness")]["labels"]
        assert summary == {
            "item_key": mine["item_key"],
            "count": 2,
            "mean_value": 1.0,
            "passed": 2,
            "failed": 0,
        }

    def test_a_key_another_caller_labelled_under_replays_nothing_to_them(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        """Idempotency-Keys made from the item (`label-<result id>`) collide between callers: a
        blind reviewer's label under a key another caller used was a replay of that caller's
        label, the judge's score in it, and the reviewer's own was never stored. It is the 422
        of another request now, and the reviewer's label is stored under a key of their own."""
        judge.script(answer)
        team = Team(api)
        evaluation_id = team.evaluate()
        result = team.results(evaluation_id)[("sum", "helpfulness")]
        body = {"result_id": result["id"], "value": 1}
        key = {"Idempotency-Key": f"label-{result['id']}"}
        seeing = team.client.post("/v1/labels", json=body, headers=key)
        assert seeing.status_code == 201 and seeing.json()["judge_score"] == result["score"]
        blind = api.client(team.new_key(["review"], name="blind"))
        refused = blind.post("/v1/labels", json=body, headers=key)
        assert refused.status_code == 422, refused.text
        assert "idempotent-replayed" not in refused.headers
        assert str(result["score"]) not in refused.text and seeing.json()["id"] not in refused.text
        assert refused.json()["errors"][0]["loc"] == "header.Idempotency-Key", refused.text
        # The same caller's retry still replays; the reviewer's own key stores their label.
        again = team.client.post("/v1/labels", json=body, headers=key)
        assert again.headers["Idempotent-Replayed"] == "true" and again.json() == seeing.json()
        own = blind.post("/v1/labels", json=body, headers={"Idempotency-Key": "blind-1"})
        assert own.status_code == 201 and own.json()["actor_name"] == "blind", own.text
        assert own.json()["judge_score"] is None
        listed = team.client.get("/v1/labels", params={"result_id": result["id"]}).json()
        assert sorted(label["actor_name"] for label in listed["data"]) == ["blind", "reviewer bot"]


class TestRefusals:
    def test_values_off_the_scale_and_results_that_cannot_be_labelled(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(answer)
        team = Team(api)
        evaluation_id = team.evaluate()
        results = team.results(evaluation_id)
        judged = results[("sum", "helpfulness")]["id"]
        for value in (1.5, -0.1):
            body = problem(
                team.client.post("/v1/labels", json={"result_id": judged, "value": value}), 422
            )
            assert [error["loc"] for error in body["errors"]] == ["value"]
            assert "from 0 to 1" in body["errors"][0]["msg"], body
        body = problem(
            team.client.post("/v1/labels", json={"result_id": judged, "value": "high"}), 422
        )
        assert [error["loc"] for error in body["errors"]] == ["value"]
        # A rationale the schema refuses and a value off the scale: one answer names both
        # (the scale came only once the rationale was fixed).
        both_wrong = {"result_id": judged, "value": 7, "rationale": 5}
        body = problem(team.client.post("/v1/labels", json=both_wrong), 422)
        assert sorted(error["loc"] for error in body["errors"]) == ["rationale", "value"], body
        assert "from 0 to 1" in next(e["msg"] for e in body["errors"] if e["loc"] == "value")

        exact = results[("sum", "exact_match")]
        assert exact["metric_version"] is None
        body = problem(
            team.client.post("/v1/labels", json={"result_id": exact["id"], "value": 1}), 422
        )
        assert body["errors"][0]["loc"] == "result_id" and "judged" in body["errors"][0]["msg"]

        errored = results[("refused", "helpfulness")]
        assert errored["error"] is not None
        body = problem(
            team.client.post("/v1/labels", json={"result_id": errored["id"], "value": 1}), 422
        )
        assert body["errors"][0]["loc"] == "result_id" and "errored" in body["detail"]
        assert body["errors"][0]["type"] == "result_errored"

        both = {"result_id": judged, "evaluation_id": evaluation_id, "value": 1}
        problem(team.client.post("/v1/labels", json=both), 422)
        # An id in the body that names nothing is the body's fault: a 422 naming it.
        missing = problem(
            team.client.post("/v1/labels", json={"result_id": "res_0", "value": 1}), 422
        )
        assert missing["errors"][0]["loc"] == "result_id"
        no_case = {
            "evaluation_id": evaluation_id,
            "test_case_id": "nope",
            "metric": "helpfulness",
            "value": 1,
        }
        body = problem(team.client.post("/v1/labels", json=no_case), 422)
        assert [error["loc"] for error in body["errors"]] == ["test_case_id", "metric"]
        assert team.client.get("/v1/labels").json()["data"] == []

    def test_a_read_only_key_is_refused_naming_review(self, api: Api, judge: ScriptedJudge) -> None:
        judge.script(answer)
        team = Team(api)
        evaluation_id = team.evaluate()
        result = team.results(evaluation_id)[("sum", "helpfulness")]
        label = _label(team, {"result_id": result["id"], "value": 1}, 201)
        reader = api.client(team.new_key(["read", "write"]))
        for response in (
            reader.post("/v1/labels", json={"result_id": result["id"], "value": 0}),
            reader.post(
                "/v1/labels/import", content=b"{}", headers={"Content-Type": "application/x-ndjson"}
            ),
            reader.delete(f"/v1/labels/{label['id']}"),
        ):
            body = problem(response, 403)
            assert body["required_scope"] == "review" and "`review`" in body["detail"]
        # Reading them needs only `read`.
        assert reader.get(f"/v1/labels/{label['id']}").status_code == 200

    def test_another_tenants_results_are_unknown_and_labels_404(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(answer)
        team, stranger = Team(api), Team(api)
        evaluation_id = team.evaluate()
        result = team.results(evaluation_id)[("sum", "helpfulness")]
        label = _label(team, {"result_id": result["id"], "value": 1}, 201)
        by_case = {"evaluation_id": evaluation_id, "test_case_id": "sum", "metric": "helpfulness"}
        problem(
            stranger.client.post("/v1/labels", json={"result_id": result["id"], "value": 1}), 422
        )
        body = problem(stranger.client.post("/v1/labels", json={**by_case, "value": 1}), 422)
        assert body["errors"][0]["loc"] == "evaluation_id"
        problem(stranger.client.get(f"/v1/labels/{label['id']}"), 404)
        problem(stranger.client.delete(f"/v1/labels/{label['id']}"), 404)
        line = json.dumps({"result_id": result["id"], "value": 1}).encode()
        body = problem(
            stranger.client.post(
                "/v1/labels/import", content=line, headers={"Content-Type": "application/x-ndjson"}
            ),
            422,
        )
        assert body["errors"][0]["pointer"] == "/lines/1/result_id"
        assert stranger.client.get("/v1/labels").json()["data"] == []
        assert stranger.client.get("/v1/labels/export").text == ""
        assert team.client.get(f"/v1/labels/{label['id']}").status_code == 200


class TestFiles:
    def test_imports_are_all_or_nothing_naming_every_bad_line(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(answer)
        team = Team(api)
        evaluation_id = team.evaluate()
        results = team.results(evaluation_id)
        sum_id = results[("sum", "helpfulness")]["id"]
        product_id = results[("product", "helpfulness")]["id"]
        jsonl = "\n".join(
            [
                json.dumps({"result_id": sum_id, "value": 0.9, "rationale": "right"}),
                json.dumps({"result_id": product_id, "value": 3}),
                "{not json",
                json.dumps({"result_id": "res_missing", "value": True}),
                "",
                json.dumps({"evaluation_id": evaluation_id, "test_case_id": "product", "value": 1}),
            ]
        )
        ndjson = {"Content-Type": "application/x-ndjson"}
        response = team.client.post("/v1/labels/import", content=jsonl.encode(), headers=ndjson)
        body = problem(response, 422)
        pointers = [error["pointer"] for error in body["errors"]]
        assert pointers == ["/lines/2/value", "/lines/3", "/lines/4/result_id", "/lines/6"], body
        assert "nothing was imported" in body["detail"]
        assert team.client.get("/v1/labels").json()["data"] == []

        good = "\n".join(jsonl.splitlines()[:2]).replace('"value": 3', '"value": false')
        imported = team.client.post("/v1/labels/import", content=good.encode(), headers=ndjson)
        assert imported.status_code == 200, imported.text
        assert imported.json() == {"object": "label.import", "created": 2, "updated": 0}

        csv_headers = {"Content-Type": "text/csv"}
        bad_csv = (
            f'result_id,value,rationale\n{sum_id},0.1,"changed, my mind"\n{product_id},lots,\n,1,\n'
        )
        body = problem(
            team.client.post("/v1/labels/import", content=bad_csv.encode(), headers=csv_headers),
            422,
        )
        assert [error["pointer"] for error in body["errors"]] == ["/lines/3/value", "/lines/4"]
        assert {label["value"] for label in team.client.get("/v1/labels").json()["data"]} == {
            0.9,
            None,
        }
        good_csv = f'result_id,value,rationale\n{sum_id},0.1,"changed, my mind"\n'
        imported = team.client.post(
            "/v1/labels/import", content=good_csv.encode(), headers=csv_headers
        )
        assert imported.json() == {"object": "label.import", "created": 0, "updated": 1}
        labels = {
            label["result_id"]: label for label in team.client.get("/v1/labels").json()["data"]
        }
        assert labels[sum_id]["value"] == 0.1 and labels[sum_id]["rationale"] == "changed, my mind"
        assert labels[product_id]["passed"] is False

        body = problem(
            team.client.post(
                "/v1/labels/import", content=b"a,b\n", headers={"Content-Type": "text/plain"}
            ),
            415,
        )
        assert body["errors"][0]["loc"] == "header.Content-Type"
        body = problem(
            team.client.post(
                "/v1/labels/import", content=b"nope,value\n1,1\n", headers=csv_headers
            ),
            422,
        )
        assert body["errors"][0]["pointer"] == "/lines/1" and "nope" in body["errors"][0]["msg"]
        actions = [action for action, _ in team.actions()]
        assert actions == ["label.import", "label.import"]

    def test_a_form_upload_imports_its_file(self, api: Api, judge: ScriptedJudge) -> None:
        """`curl -F file=@labels.jsonl` (a part typed application/octet-stream): the file is
        read by its name's extension; a form without the file, or of plain fields, is a 4xx
        naming what is missing, never a 500."""
        judge.script(answer)
        team = Team(api)
        evaluation_id = team.evaluate()
        sum_id = team.results(evaluation_id)[("sum", "helpfulness")]["id"]
        line = json.dumps({"result_id": sum_id, "value": 0.4}).encode()
        files = {"file": ("labels.jsonl", line, "application/octet-stream")}
        imported = team.client.post("/v1/labels/import", files=files)
        assert imported.status_code == 200, imported.text
        assert imported.json()["created"] == 1
        as_csv = {"file": ("labels.csv", f"result_id,value\n{sum_id},0.6\n".encode(), "text/csv")}
        assert team.client.post("/v1/labels/import", files=as_csv).json()["updated"] == 1
        assert team.client.get("/v1/labels").json()["data"][0]["value"] == 0.6

        misnamed = {"labels": ("labels.jsonl", line, "application/x-ndjson")}
        body = problem(team.client.post("/v1/labels/import", files=misnamed), 422)
        assert [error["loc"] for error in body["errors"]] == ["body.file"]
        unknown = {"file": ("labels.txt", line, "text/plain")}
        body = problem(team.client.post("/v1/labels/import", files=unknown), 415)
        assert body["errors"][0]["loc"] == "header.Content-Type"
        body = problem(team.client.post("/v1/labels/import", data={"a": "1"}), 415)
        assert body["errors"][0]["loc"] == "header.Content-Type"

    def test_exports_in_both_formats_guard_against_formulas(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(answer)
        team = Team(api)
        evaluation_id = team.evaluate()
        results = team.results(evaluation_id)
        first = _label(
            team,
            {
                "result_id": results[("sum", "helpfulness")]["id"],
                "value": 0.5,
                "rationale": '=HYPERLINK("http://x")',
            },
            201,
        )
        second = _label(
            team, {"result_id": results[("product", "helpfulness")]["id"], "value": False}, 201
        )

        jsonl = team.client.get("/v1/labels/export")
        assert jsonl.status_code == 200
        assert jsonl.headers["content-type"].startswith("application/x-ndjson")
        rows = [json.loads(line) for line in jsonl.text.splitlines()]
        assert [row["id"] for row in rows] == [first["id"], second["id"]]
        assert rows[0]["rationale"] == '=HYPERLINK("http://x")'

        exported = team.client.get("/v1/labels/export", params={"format": "csv"})
        assert exported.headers["content-type"].startswith("text/csv")
        table = list(csv.DictReader(io.StringIO(exported.text)))
        assert [row["id"] for row in table] == [first["id"], second["id"]]
        assert table[0]["rationale"] == '\'=HYPERLINK("http://x")'
        assert table[1]["passed"] == "False" and table[1]["value"] == ""
        assert table[0]["actor_name"] == "reviewer bot"

        only = team.client.get("/v1/labels/export", params={"result_id": second["result_id"]})
        assert [json.loads(line)["id"] for line in only.text.splitlines()] == [second["id"]]

    def test_delete(self, api: Api, judge: ScriptedJudge) -> None:
        judge.script(answer)
        team = Team(api)
        evaluation_id = team.evaluate()
        result = team.results(evaluation_id)[("sum", "helpfulness")]
        label = _label(team, {"result_id": result["id"], "value": 1}, 201)
        assert team.client.delete(f"/v1/labels/{label['id']}").status_code == 204
        problem(team.client.get(f"/v1/labels/{label['id']}"), 404)
        body = problem(team.client.delete(f"/v1/labels/{label['id']}"), 404)
        assert body["errors"][0]["loc"] == "path.label_id"
        assert team.results(evaluation_id)[("sum", "helpfulness")]["labels"] is None
        assert team.actions() == [("label.create", label["id"]), ("label.delete", label["id"])]


class TestVersions:
    def test_a_label_outlives_its_evaluation_and_shows_on_a_rerun_of_its_version_only(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(answer)
        team = Team(api)
        first = team.evaluate()
        result = team.results(first)[("sum", "helpfulness")]
        label = _label(team, {"result_id": result["id"], "value": 0.6}, 201)
        assert team.client.delete(f"/v1/evaluations/{first}").status_code == 204
        assert team.client.get(f"/v1/labels/{label['id']}").json()["result_id"] == result["id"]

        rerun = team.results(team.evaluate())
        again = rerun[("sum", "helpfulness")]
        assert again["id"] != result["id"]
        assert again["metric_version"] == result["metric_version"]
        assert again["labels"] == {
            "item_key": label["item_key"],
            "count": 1,
            "mean_value": 0.6,
            "passed": 1,
            "failed": 0,
        }
        assert rerun[("product", "helpfulness")]["labels"] is None
        assert rerun[("sum", "exact_match")]["labels"] is None

        # Labelling the re-run's result of the same item is the same label, replaced.
        replaced = _label(team, {"result_id": again["id"], "value": 0.2}, 200)
        assert replaced["id"] == label["id"] and replaced["result_id"] == again["id"]

        changed = team.results(team.evaluate(steps=[*STEPS, "Be strict."]))
        other = changed[("sum", "helpfulness")]
        assert other["metric_version"] != result["metric_version"]
        assert other["labels"] is None


class TestResultsShowLabels:
    def test_one_query_of_labels_a_page_whatever_its_length(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(answer)
        team = Team(api)
        cases = [
            {
                "id": f"case-{n}",
                "input": f"{n}+{n}?",
                "actual_output": str(2 * n),
                "expected_output": "0",
            }
            for n in range(6)
        ]
        evaluation_id = team.evaluate(cases=cases)
        for row in team.results(evaluation_id).values():
            if row["metric"] == "helpfulness":
                _label(team, {"result_id": row["id"], "value": 1}, 201)
        statements: list[str] = []

        def watch(_conn, _cursor, statement: str, *_: object) -> None:
            statements.append(statement)

        # The version's agreement is computed once, then kept per process: read it first.
        team.client.get(f"/v1/evaluations/{evaluation_id}/results")
        event.listen(api.served.runtime.engine, "before_cursor_execute", watch)
        try:
            pages = {}
            for limit in (2, 12):
                statements.clear()
                page = team.client.get(
                    f"/v1/evaluations/{evaluation_id}/results", params={"limit": limit}
                ).json()["data"]
                pages[limit] = page
                reads = [s for s in statements if "FROM label" in s or "FROM test_case" in s]
                # The labels' test cases and tallies, and the agreement's label counts.
                assert len(reads) == 3, reads
        finally:
            event.remove(api.served.runtime.engine, "before_cursor_execute", watch)
        judged = [row for row in pages[12] if row["metric"] == "helpfulness"]
        assert len(judged) == 6 and all(row["labels"]["count"] == 1 for row in judged)
        assert all(row["labels"] is None for row in pages[12] if row["metric"] == "exact_match")


def test_an_import_past_its_line_limit_is_413_before_any_line_is_read(api: Api) -> None:
    team = Team(api)
    lines = "\n".join(['{"result_id": "res_x", "value": 1}'] * (MAX_IMPORT_LINES + 1))
    response = team.client.post(
        "/v1/labels/import",
        content=lines.encode(),
        headers={"Content-Type": "application/x-ndjson"},
    )
    body = problem(response, 413)
    assert body["errors"][0]["loc"] == "body" and str(MAX_IMPORT_LINES) in body["detail"]
    empty = team.client.post(
        "/v1/labels/import", content=b"\n\n", headers={"Content-Type": "application/x-ndjson"}
    )
    assert problem(empty, 422)["errors"][0]["loc"] == "body"
