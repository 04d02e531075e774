"""A tenant's storage quota (`storage_bytes`, default LOUPE_TENANT_STORAGE_BYTES): a dataset
upload that would take the tenant past it is a 413 naming `file`, and nothing of it is stored."""

import io
import json
import os
import subprocess
import sys
import uuid
import zipfile
from pathlib import Path

import httpx
import pytest
from sqlalchemy import create_engine, func, insert, select
from sqlalchemy.orm import Session

from app import migrate
from app.config import Settings
from app.models import BlobOwner, Dataset, DatasetRow, Tenant
from app.tenants import limits, repository
from tests.fixtures.api import Api
from tests.fixtures.services import PostgresServer
from tests.runs.helpers import EXAMPLES, upload

LOUPE = Path(sys.executable).with_name("loupe")
PNG = (EXAMPLES / "vqa" / "images" / "red_circle.png").read_bytes()
WAV = (EXAMPLES / "audio" / "beep_440hz.wav").read_bytes()


def jsonl(*rows: dict) -> bytes:
    return "\n".join(json.dumps(row) for row in rows).encode()


def zip_of(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, content in members.items():
            archive.writestr(name, content)
    return buffer.getvalue()


def question(text: str, *parts: dict) -> dict:
    content = [{"type": "text", "text": text}, *parts]
    return {"messages": [{"role": "user", "content": content}], "answer": "a"}


IMAGE = {"type": "image_url", "image_url": {"url": "red.png"}}
AUDIO = {"type": "input_audio", "input_audio": {"data": "beep.wav"}}


class Tenancy:
    """One tenant of the API, its quota set and its storage read straight from the database."""

    def __init__(self, api: Api) -> None:
        self.api = api
        self.name = f"quota-{uuid.uuid4().hex[:8]}"
        self.client = api.client(api.new_key(self.name))

    def set_quota(self, storage_bytes: int | None) -> None:
        with self.api.served.runtime.session() as session:
            tenant = repository.tenant_by_name(session, self.name)
            assert tenant is not None
            limits.set_limits(session, tenant, storage_bytes=storage_bytes)
            session.commit()

    def used(self) -> int:
        with self.api.served.runtime.session() as session:
            tenant = repository.tenant_by_name(session, self.name)
            assert tenant is not None
            return limits.storage_used(session, tenant.id)

    def stored(self) -> tuple[int, int, int]:
        """Datasets, dataset rows and blobs the tenant owns."""
        with self.api.served.runtime.session() as session:
            tenant = repository.tenant_by_name(session, self.name)
            assert tenant is not None
            count = select(func.count())
            return (
                session.scalar(count.select_from(Dataset).where(Dataset.tenant_id == tenant.id))
                or 0,
                session.scalar(
                    count.select_from(DatasetRow)
                    .join(Dataset, Dataset.id == DatasetRow.dataset_id)
                    .where(Dataset.tenant_id == tenant.id)
                )
                or 0,
                session.scalar(count.select_from(BlobOwner).where(BlobOwner.tenant_id == tenant.id))
                or 0,
            )


def refused_for_quota(response) -> dict:
    assert response.status_code == 413, response.text
    assert response.headers["content-type"] == "application/problem+json"
    problem = response.json()
    assert problem["type"].endswith("/storage-quota-exceeded")
    assert [error["loc"] for error in problem["errors"]] == ["file"]
    assert problem["detail"].startswith("file: storing this upload would take the tenant to ")
    return problem


class TestStorageQuota:
    def test_an_upload_past_the_quota_is_refused_and_nothing_of_it_stored(self, api: Api) -> None:
        tenant = Tenancy(api)
        first = upload(
            tenant.client,
            "first.zip",
            zip_of({"first.jsonl": jsonl(question("q1", IMAGE)), "red.png": PNG}),
            "general_vqa",
        )
        assert first.status_code == 201, first.text
        used = tenant.used()
        assert used > len(PNG) // 2  # the stored image, and the row
        before = tenant.stored()
        assert before == (1, 1, 1)

        # Room for a few bytes: the new clip and row do not fit; the clip is not kept either.
        tenant.set_quota(used + 10)
        second = zip_of({"second.jsonl": jsonl(question("q2", AUDIO)), "beep.wav": WAV})
        problem = refused_for_quota(upload(tenant.client, "second.zip", second, "general_vqa"))
        assert f"storage quota (storage_bytes) is {used + 10} bytes" in problem["detail"]
        assert tenant.stored() == before
        assert tenant.used() == used
        assert len(tenant.client.get("/v1/datasets").json()["data"]) == 1

        # Back to the default (LOUPE_TENANT_STORAGE_BYTES, 10 GiB): it fits.
        tenant.set_quota(None)
        accepted = upload(tenant.client, "second.zip", second, "general_vqa")
        assert accepted.status_code == 201, accepted.text
        assert tenant.stored() == (2, 2, 2)
        assert tenant.used() > used + len(WAV) // 2

    def test_a_full_tenant_is_refused_before_its_upload_is_read(self, api: Api) -> None:
        tenant = Tenancy(api)
        created = upload(tenant.client, "x.jsonl", jsonl(question("q")), "general_vqa")
        assert created.status_code == 201, created.text
        used = tenant.used()
        tenant.set_quota(used)
        # Not even a zip: refused for the quota before the file is looked at.
        problem = refused_for_quota(upload(tenant.client, "x.zip", b"not a zip", "general_vqa"))
        assert f"to {used + 1} bytes" in problem["detail"]
        assert tenant.stored() == (1, 1, 0)

    def test_deleting_a_dataset_gives_its_bytes_back(self, api: Api) -> None:
        tenant = Tenancy(api)
        rows = jsonl(*(question(f"question {i}") for i in range(20)))
        created = upload(tenant.client, "rows.jsonl", rows, "general_vqa")
        assert created.status_code == 201, created.text
        used = tenant.used()
        assert used >= 20 * len('{"type":"text","text":"question 0"}')
        tenant.set_quota(used)
        refused_for_quota(upload(tenant.client, "more.jsonl", rows, "general_vqa"))
        deleted = tenant.client.delete(f"/v1/datasets/{created.json()['id']}")
        assert deleted.status_code == 204
        assert tenant.used() == 0
        assert upload(tenant.client, "more.jsonl", rows, "general_vqa").status_code == 201

    def test_an_eval_file_past_the_quota_is_refused_and_not_stored(self, api: Api) -> None:
        tenant = Tenancy(api)
        rows = jsonl(*({"item": {"question": f"q{i}"}} for i in range(20)))

        def upload_file() -> "httpx.Response":
            return tenant.client.post(
                "/v1/files", files={"file": ("rows.jsonl", rows)}, data={"purpose": "evals"}
            )

        first = upload_file()
        assert first.status_code == 200, first.text
        used = tenant.used()
        assert used == len(rows)
        tenant.set_quota(used + len(rows) - 1)
        problem = refused_for_quota(upload_file())
        assert problem["error"]["param"] == "file"  # the OpenAI-compatible routes' shape
        assert tenant.used() == used
        assert len(tenant.client.get("/v1/files").json()["data"]) == 1
        tenant.set_quota(used + len(rows))
        assert upload_file().status_code == 200


class TestCli:
    def test_sets_shows_and_resets_the_storage_quota(self, tmp_path: Path) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("LOUPE_")}
        env["LOUPE_DATABASE_URL"] = f"sqlite:///{tmp_path}/loupe.db"
        env["LOUPE_TENANT_STORAGE_BYTES"] = "5000000"

        def loupe(*args: str) -> subprocess.CompletedProcess[str]:
            return subprocess.run(
                [str(LOUPE), *args], env=env, cwd=tmp_path, capture_output=True, text=True
            )

        assert loupe("keys", "create", "--create-tenant", "--tenant", "acme").returncode == 0
        shown = loupe("tenants", "limits", "--tenant", "acme")
        assert shown.returncode == 0, shown.stderr
        assert "storage_bytes=5000000 (LOUPE_TENANT_STORAGE_BYTES) storage_used=0" in shown.stdout
        raised = loupe("tenants", "limits", "--tenant", "acme", "--storage-bytes", "7000000")
        assert "storage_bytes=7000000 storage_used=0" in raised.stdout
        reset = loupe("tenants", "limits", "--tenant", "acme", "--storage-bytes", "0")
        assert "storage_bytes=5000000 (LOUPE_TENANT_STORAGE_BYTES)" in reset.stdout


@pytest.fixture(params=["postgres", "sqlite"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "postgres":
        server: PostgresServer = request.getfixturevalue("postgres_server")
        return server.create_database(f"q_{uuid.uuid4().hex[:8]}")
    return f"sqlite:///{tmp_path}/q.db"


def test_datasets_stored_before_the_quota_are_counted(url: str) -> None:
    # quota1 adds dataset.stored_bytes; datasets stored before it get theirs from their rows.
    settings = Settings(database_url=url)
    migrate.upgrade(settings, "stats3")
    engine = create_engine(url)
    messages = [{"role": "user", "content": "What is in the picture? " * 10}]
    try:
        with Session(engine) as session:
            session.execute(insert(Tenant), [{"id": "ten_1", "name": "t"}])
            dataset = {
                "id": "ds_1",
                "tenant_id": "ten_1",
                "name": "d",
                "format": "general_vqa",
                "filename": "d.jsonl",
                "subsets": [],
                "row_count": 2,
            }
            session.execute(insert(Dataset), [dataset, dataset | {"id": "ds_2", "row_count": 0}])
            row = {"dataset_id": "ds_1", "subset": "d", "line": 1, "kind": "vqa"}
            session.execute(
                insert(DatasetRow),
                [
                    row | {"index": 0, "messages": messages, "answer": "a cat"},
                    row | {"index": 1, "messages": messages, "answer": None},
                ],
            )
            session.commit()
        migrate.upgrade(settings)
        with Session(engine) as session:
            stored = dict(session.execute(select(Dataset.id, Dataset.stored_bytes)).all())
            tenant = session.get(Tenant, "ten_1")
            assert tenant is not None and tenant.storage_bytes is None
            assert limits.storage_used(session, "ten_1") == stored["ds_1"]
        compact = len(json.dumps(messages, separators=(",", ":")))
        assert 2 * compact + len("a cat") <= stored["ds_1"] <= 2 * (compact + 40) + len("a cat")
        assert stored["ds_2"] == 0
    finally:
        engine.dispose()
