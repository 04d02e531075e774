"""Ids say what they are: one prefix per entity, and ids already issued keep resolving.

Loupe evaluations and OpenAI evals both used to get `eval_` ids; evaluations now get `evn_`,
while the OpenAI-compatible routes keep OpenAI's shapes (`eval_`, `evalrun_`). An evaluation
stored with an old `eval_` id still reads, pages, lists, compares and shows in the console.
"""

import re
from pathlib import Path

import httpx
from sqlalchemy import delete, insert, literal, select, update

from app import ids
from app.db import Base
from app.models import Evaluation
from tests.console.helpers import signed_in
from tests.fixtures.api import Api

APP = Path(__file__).resolve().parent.parent / "app"
NEW_ID = re.compile(r"new_id\(\s*(\"(\w+)\"|(\w+))\s*\)")
# Prefixes the code names through a constant of app/ids.py.
CONSTANTS = {"EVALUATION_PREFIX": ids.EVALUATION_PREFIX}
CASES = [
    {"id": "a", "input": "2+2?", "actual_output": "4", "expected_output": "4"},
    {"id": "b", "input": "3+3?", "actual_output": "5", "expected_output": "6"},
]


def prefixes_in_code() -> dict[str, set[str]]:
    """Each prefix passed to `new_id` in app/, with the modules that pass it."""
    found: dict[str, set[str]] = {}
    for path in APP.rglob("*.py"):
        for match in NEW_ID.finditer(path.read_text()):
            prefix = match.group(2) or CONSTANTS.get(match.group(3), match.group(3))
            found.setdefault(prefix, set()).add(str(path.relative_to(APP)))
    # `new_id("x")` only measures an id's length (the evaluations repository's sort key).
    found.pop("x", None)
    return found


class TestPrefixes:
    def test_each_prefix_is_made_in_one_module(self) -> None:
        for prefix, modules in prefixes_in_code().items():
            assert len(modules) == 1, f"{prefix}_ ids are made in {sorted(modules)}"

    def test_no_prefix_reads_as_another(self) -> None:
        prefixes = set(prefixes_in_code())
        assert prefixes >= {"evn", "eval", "evalrun", "run", "ds", "model", "cmp", "file", "we"}
        for one in prefixes:
            for other in prefixes - {one}:
                assert not f"{other}_".startswith(f"{one}_"), (one, other)

    def test_evaluations_and_openai_evals_differ(self) -> None:
        found = prefixes_in_code()
        assert found["evn"] == {"evaluations/service.py"}
        assert found["eval"] == {"evals/service.py"}


def submit(client: httpx.Client, name: str) -> str:
    response = client.post(
        "/v1/evaluations",
        json={"name": name, "test_cases": CASES, "metrics": [{"type": "exact_match"}]},
    )
    assert response.status_code == 202, response.text
    return response.json()["id"]


def renamed_to_old_style(api: Api, evaluation_id: str) -> str:
    """Give a stored evaluation the `eval_` id it would have had before `evn_`: a copy of its
    row under the old id takes over every row pointing at it, then the new row goes."""
    old_id = "eval_" + evaluation_id.removeprefix("evn_")
    table = Evaluation.__table__
    with api.served.runtime.session() as session:
        columns = [literal(old_id).label("id") if c.name == "id" else c for c in table.c]
        session.execute(
            insert(table).from_select(
                [c.name for c in table.c],
                select(*columns).where(table.c.id == evaluation_id),
            )
        )
        for child in Base.metadata.sorted_tables:
            for column in child.c:
                points_here = any(fk.column is table.c.id for fk in column.foreign_keys)
                if points_here or column.name == "holder_id":
                    session.execute(
                        update(child).where(column == evaluation_id).values({column.name: old_id})
                    )
        session.execute(delete(table).where(table.c.id == evaluation_id))
        session.commit()
    return old_id


class TestIssuedIds:
    def test_new_ids_say_what_they_are(self, api: Api) -> None:
        client = api.tenant_client()
        evaluation_id = submit(client, "new")
        assert evaluation_id.startswith("evn_")
        api.wait(client, evaluation_id)
        definition = client.post(
            "/v1/evals",
            json={
                "data_source_config": {"type": "custom", "item_schema": {"type": "object"}},
                "testing_criteria": [
                    {
                        "type": "string_check",
                        "name": "exact",
                        "operation": "eq",
                        "input": "{{ item.a }}",
                        "reference": "{{ item.a }}",
                    }
                ],
            },
        )
        assert definition.json()["id"].startswith("eval_")
        # An OpenAI eval's id is not an evaluation's.
        missing = client.get(f"/v1/evaluations/{definition.json()['id']}")
        assert missing.status_code == 404

    def test_an_old_style_evaluation_id_keeps_resolving(self, api: Api) -> None:
        key = api.new_key()
        client = api.client(key)
        older = submit(client, "older")
        api.wait(client, older)
        newer = submit(client, "newer")
        api.wait(client, newer)
        old_id = renamed_to_old_style(api, older)

        read = client.get(f"/v1/evaluations/{old_id}")
        assert read.status_code == 200, read.text
        assert read.json()["id"] == old_id and read.json()["name"] == "older"
        assert read.json()["result_counts"]["total"] == 2
        results = client.get(f"/v1/evaluations/{old_id}/results").json()["data"]
        assert [r["test_case_id"] for r in results] == ["a", "b"]
        cases = client.get(f"/v1/evaluations/{old_id}/test_cases").json()["data"]
        assert [c["id"] for c in cases] == ["a", "b"]

        # Listed newest first across both shapes; a cursor of either shape pages on.
        listed = client.get("/v1/evaluations").json()["data"]
        assert [e["id"] for e in listed] == [newer, old_id]
        page = client.get("/v1/evaluations", params={"limit": 1}).json()
        assert [e["id"] for e in page["data"]] == [newer] and page["has_more"]
        following = client.get("/v1/evaluations", params={"limit": 1, "after": newer}).json()
        assert [e["id"] for e in following["data"]] == [old_id]
        last = client.get("/v1/evaluations", params={"after": old_id})
        assert last.status_code == 200 and last.json()["data"] == []
        # A cursor of neither shape is still refused, naming the current one.
        wrong = client.get("/v1/evaluations", params={"after": "run_0193c4"})
        assert wrong.status_code == 400 and "evn_" in wrong.json()["detail"]

        compared = client.post(
            "/v1/comparisons", json={"baseline_id": old_id, "candidate_id": newer}
        )
        assert compared.status_code == 200, compared.text
        assert compared.json()["baseline_id"] == old_id

        console = signed_in(api, key)
        page_html = console.get(f"/console/evaluations/{old_id}")
        assert page_html.status_code == 200 and "older" in page_html.text
        assert f"/console/evaluations/{old_id}" in console.get("/console/evaluations").text
        assert client.delete(f"/v1/evaluations/{old_id}").status_code == 204
        assert client.get(f"/v1/evaluations/{old_id}").status_code == 404
