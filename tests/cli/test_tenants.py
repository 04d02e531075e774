"""`loupe tenants list | create | rename | delete`: the operator's tools over tenants.

Deleting a tenant removes everything it owns, asked first (`--yes` skips the question): every
row of every table that holds a tenant's rows, found from the schema itself (a table with a
`tenant_id`, and the tables whose foreign keys lead to one), so a new table cannot be missed;
and its images, unless another tenant's rows still use them.
"""

import base64
import io
import os
import secrets
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import httpx
from PIL import Image
from sqlalchemy import Table, func, select
from sqlalchemy.orm import Session

from app.db import Base
from app.models import Blob
from tests.comparisons.helpers import quiz_dataset
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge
from tests.runs.helpers import register_model
from tests.test_keys import loupe

BIN = Path(sys.executable).parent


def png() -> str:
    buffer = io.BytesIO()
    Image.new("RGB", (7, 5), tuple(secrets.token_bytes(3))).save(buffer, format="PNG")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode()


def submit(client: httpx.Client, image: str, **extra: Any) -> str:
    body = {
        "test_cases": [
            {
                "input": ["Which colour?", {"type": "image_url", "image_url": {"url": image}}],
                "actual_output": "red",
                "expected_output": "red",
            }
        ],
        "metrics": [{"type": "exact_match"}],
        **extra,
    }
    response = client.post("/v1/evaluations", json=body)
    assert response.status_code == 202, response.text
    return response.json()["id"]


def owned_rows(session: Session, tenant_id: str) -> dict[str, int]:
    """Table -> how many rows of the tenant's it holds: by `tenant_id`, or through a foreign
    key to a row of the tenant's (repeated until no table adds one)."""
    ids: dict[str, set[Any]] = {}
    tables = [t for t in Base.metadata.sorted_tables if t.name != "tenant"]
    for table in tables:
        if "tenant_id" in table.c:
            ids[table.name] = _keys(session, table, table.c.tenant_id == tenant_id)
    for table in tables:  # sorted: parents come first
        if "tenant_id" in table.c:
            continue
        found: set[Any] = set()
        for fk in table.foreign_keys:
            parent = ids.get(fk.column.table.name)
            if parent:
                found |= _keys(session, table, fk.parent.in_([p[0] for p in parent]))
        if found:
            ids[table.name] = found
    return {name: len(rows) for name, rows in ids.items() if rows}


def _keys(session: Session, table: Table, condition: Any) -> set[Any]:
    """The primary keys (first column first) of the table's rows matching `condition`."""
    columns = list(table.primary_key.columns)
    first = [c for c in columns if c.name == "id"] or columns
    ordered = first + [c for c in columns if c not in first]
    return {tuple(row) for row in session.execute(select(*ordered).where(condition)).all()}


def cli(api: Api, *args: str, answer: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "LOUPE_DATABASE_URL": api.settings.database_url}
    return subprocess.run(
        [str(BIN / "loupe"), *args], env=env, capture_output=True, text=True, input=answer
    )


class TestTenants:
    def test_list_create_rename(self, tmp_path: Path) -> None:
        assert loupe(tmp_path, "tenants", "create", "acme").returncode == 0
        again = loupe(tmp_path, "tenants", "create", "acme")
        assert again.returncode == 1 and "exists already" in again.stderr
        bad = loupe(tmp_path, "tenants", "create", "two words")
        assert bad.returncode == 2 and "no spaces" in bad.stderr
        key = loupe(tmp_path, "keys", "create", "--tenant", "acme").stdout.splitlines()[-1]
        assert loupe(tmp_path, "tenants", "create", "globex").returncode == 0
        listed = loupe(tmp_path, "tenants", "list").stdout.splitlines()
        assert listed[0].split() == ["name", "id", "created", "keys"]
        rows = {line.split()[0]: line.split() for line in listed[1:]}
        assert set(rows) == {"acme", "globex"}
        assert rows["acme"][-1] == "1" and rows["globex"][-1] == "0"
        taken = loupe(tmp_path, "tenants", "rename", "acme", "globex")
        assert taken.returncode == 1 and "exists already" in taken.stderr
        missing = loupe(tmp_path, "tenants", "rename", "nobody", "x")
        assert missing.returncode == 1 and "no tenant named 'nobody'" in missing.stderr
        renamed = loupe(tmp_path, "tenants", "rename", "acme", "acme-corp")
        assert renamed.returncode == 0, renamed.stderr
        # The same tenant (id, keys) under its new name.
        assert rows["acme"][1] in renamed.stdout
        relisted = loupe(tmp_path, "keys", "list", "--tenant", "acme-corp").stdout
        assert key[:10] in relisted

    def test_delete_removes_everything_the_tenant_owns(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        name = f"doomed-{uuid.uuid4().hex[:6]}"
        key = api.new_key(name)
        other = api.client(api.new_key())
        shared, own = png(), png()
        with api.client(key) as client:
            endpoint = client.post("/v1/webhook_endpoints", json={"url": "http://127.0.0.1:9/"})
            assert endpoint.status_code == 201, endpoint.text
            first, second = submit(client, own), submit(client, shared)
            for evaluation_id in (first, second):
                assert api.wait(client, evaluation_id)["status"] == "completed"
            compared = client.post(
                "/v1/comparisons", json={"baseline_id": first, "candidate_id": second}
            )
            assert compared.status_code == 200, compared.text
            quiz_dataset(client, rows=2)
            register_model(client, judge.base_url)
            uploaded = client.post(
                "/v1/files",
                files={"file": ("rows.jsonl", b'{"item": {"q": "a"}}\n')},
                data={"purpose": "evals"},
            )
            assert uploaded.status_code == 200, uploaded.text
            first_case = client.get(f"/v1/evaluations/{first}/test_cases").json()["data"][0]
            own_digest = first_case["input"][1]["image_url"]["url"].rsplit("/", 1)[1]
        # Another tenant uses the shared image too: it must stay.
        theirs = submit(other, shared)
        assert api.wait(other, theirs)["status"] == "completed"
        shared_case = other.get(f"/v1/evaluations/{theirs}/test_cases").json()["data"][0]
        shared_digest = shared_case["input"][1]["image_url"]["url"].rsplit("/", 1)[1]

        with api.served.runtime.session() as session:
            tenant_id = session.execute(
                select(Base.metadata.tables["tenant"].c.id).where(
                    Base.metadata.tables["tenant"].c.name == name
                )
            ).scalar_one()
            before = owned_rows(session, tenant_id)
            other_before = session.scalar(select(func.count()).select_from(Blob))
        for table in (
            "api_key",
            "evaluation",
            "test_case",
            "result",
            "dataset",
            "dataset_row",
            "blob_owner",
            "blob_ref",
            "webhook_endpoint",
            "candidate_model",
            "eval_file",
            "comparison",
            "audit_event",
        ):
            assert before.get(table), (table, before)

        declined = cli(api, "tenants", "delete", name, answer="n\n")
        assert declined.returncode == 1 and "nothing deleted" in declined.stderr
        assert "everything it owns" in declined.stdout
        with api.served.runtime.session() as session:
            assert owned_rows(session, tenant_id) == before

        deleted = cli(api, "tenants", "delete", name, "--yes")
        assert deleted.returncode == 0, deleted.stderr
        with api.served.runtime.session() as session:
            assert owned_rows(session, tenant_id) == {}
            tenant = Base.metadata.tables["tenant"]
            assert session.scalar(select(tenant.c.id).where(tenant.c.id == tenant_id)) is None
            assert session.get(Blob, own_digest) is None
            assert session.get(Blob, shared_digest) is not None
            assert session.scalar(select(func.count()).select_from(Blob)) < other_before
        # Its key is unknown now; the other tenant's evaluation and image are untouched.
        assert api.client(key).get("/v1/evaluations").status_code == 401
        assert other.get(f"/v1/evaluations/{theirs}").status_code == 200
        assert other.get(f"/v1/media/{shared_digest}").status_code == 200
        gone = cli(api, "tenants", "delete", name, "--yes")
        assert gone.returncode == 1 and f"no tenant named {name!r}" in gone.stderr
