"""Upgrades keep data: each release fixture in tests/data/upgrade/ (made by its make_fixture.py
when the release was cut) is restored on SQLite and on PostgreSQL, upgraded in place to head by
`loupe migrate`, served, and read back through the API as the release answered.

Only the keys the release recorded are compared, at every depth: a field added by a later release
is not in the record and cannot fail the comparison; a field removed, renamed or changed does,
and so does a list that lost or gained items. The server's own base URL (in `report_url` and
the like) is written `{base_url}` on both sides, since every start listens on a new port.
"""

import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from alembic.script import ScriptDirectory
from redis import Redis
from sqlalchemy import create_engine, text
from standardwebhooks import Webhook
from starlette.requests import Request
from starlette.responses import Response

from app import migrate
from app.config import Settings
from tests.fixtures.api import TERMINAL, Api, fast_settings, postgres_settings, served_api
from tests.fixtures.judge import ScriptedJudge
from tests.fixtures.receiver import WebhookReceiver
from tests.fixtures.services import PostgresServer, RedisServer
from workers import jobs

UPGRADE = Path(__file__).resolve().parent.parent / "data" / "upgrade"
RELEASES = sorted(path for path in UPGRADE.iterdir() if (path / "manifest.json").is_file())
LOUPE = Path(sys.executable).parent / "loupe"


def head() -> str:
    settings = Settings(database_url="sqlite://")
    return ScriptDirectory.from_config(migrate.alembic_config(settings)).get_current_head()


@dataclass
class Upgraded:
    """A release's database, upgraded to head and served; `recorded` is its api.json."""

    api: Api
    recorded: dict[str, Any]

    def client(self, key: str = "main") -> httpx.Client:
        return self.api.client(self.recorded["keys"][key])

    def execute(self, statement: str, **values: Any) -> None:
        """Run one SQL statement on the upgraded database (to repoint a loopback URL)."""
        engine = create_engine(self.api.settings.database_url)
        try:
            with engine.begin() as connection:
                connection.execute(text(statement), values)
        finally:
            engine.dispose()


def loupe_migrate(environment: dict[str, str]) -> None:
    """`loupe migrate` as an operator runs it, configured by the environment alone."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("LOUPE_")}
    result = subprocess.run(
        [str(LOUPE), "migrate"], env={**env, **environment}, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def restore_sqlite(release: Path, directory: Path) -> Settings:
    shutil.copy(release / "sqlite" / "loupe.db", directory / "loupe.db")
    key_file = directory / "secret.key"
    shutil.copy(release / "secret.key", key_file)
    key_file.chmod(0o600)  # Loupe refuses a key file others can read; git keeps no modes
    url = f"sqlite:///{directory}/loupe.db"
    loupe_migrate({"LOUPE_DATABASE_URL": url, "LOUPE_SECRET_KEY_FILE": str(key_file)})
    return fast_settings(database_url=url, secret_key=None, secret_key_file=key_file)


def restore_postgres(release: Path, postgres: PostgresServer, redis: RedisServer) -> Settings:
    key = (release / "secret.key").read_text().strip()
    settings = postgres_settings(postgres, redis, secret_key=key)
    database = settings.database_url.rsplit("/", 1)[-1]
    subprocess.run(
        [
            *("psql", "--quiet", "--no-psqlrc", "-v", "ON_ERROR_STOP=1"),
            *("-h", postgres.host, "-p", str(postgres.port), "-U", postgres.user),
            *("-d", database, "-f", str(release / "postgres" / "dump.sql")),
        ],
        check=True,
        capture_output=True,
    )
    loupe_migrate({"LOUPE_DATABASE_URL": settings.database_url, "LOUPE_SECRET_KEY": key})
    return settings


@pytest.fixture(params=RELEASES, ids=[release.name for release in RELEASES])
def release(request: pytest.FixtureRequest) -> Path:
    return request.param


@pytest.fixture(params=["sqlite", "postgres"])
def upgraded(
    request: pytest.FixtureRequest, release: Path, tmp_path: Path, judge_server: ScriptedJudge
) -> Iterator[Upgraded]:
    """The release's database restored on this backend, migrated to head, served."""
    manifest = json.loads((release / "manifest.json").read_text())
    recorded = json.loads((release / request.param / "api.json").read_text())
    redis = None
    if request.param == "sqlite":
        settings = restore_sqlite(release, tmp_path)
    else:
        redis_server = request.getfixturevalue("redis_server")
        settings = restore_postgres(
            release, request.getfixturevalue("postgres_server"), redis_server
        )
        redis = Redis.from_url(redis_server.url)
    assert manifest["head"] in migration_ids()
    assert migrate.current(settings) == head()
    settings = settings.model_copy(update={"judge_base_url": judge_server.base_url})
    with served_api(settings, redis=redis) as api:
        yield Upgraded(api=api, recorded=recorded)
    if redis is not None:
        redis.close()


def migration_ids() -> set[str]:
    settings = Settings(database_url="sqlite://")
    scripts = ScriptDirectory.from_config(migrate.alembic_config(settings))
    return {script.revision for script in scripts.walk_revisions()}


def normalized(value: Any, base_url: str) -> Any:
    if isinstance(value, str):
        return value.replace(base_url, "{base_url}")
    if isinstance(value, list):
        return [normalized(item, base_url) for item in value]
    if isinstance(value, dict):
        return {key: normalized(item, base_url) for key, item in value.items()}
    return value


def as_read_now(path: str, recorded: Any) -> Any:
    """What a recorded read answers since a change made on purpose, else `recorded`.

    Dataset rows name their media as test cases do (a `/v1/media/<sha256>` URL, an audio
    clip's as `input_audio.url`), no longer by `blob:sha256:` references, so that a row
    read back is submitted again as it reads. A run report's interval bounds are rounded to
    the 4 places of its score, which could fall outside an interval left unrounded."""
    if path.startswith("/v1/runs"):
        return _report_rounded(recorded)
    if not (path.startswith("/v1/datasets/") and path.endswith("/rows")):
        return recorded
    prefix = "blob:sha256:"

    def media(value: Any) -> Any:
        if isinstance(value, list):
            return [media(item) for item in value]
        if not isinstance(value, dict):
            return value
        image, audio = value.get("image_url"), value.get("input_audio")
        if value.get("type") == "image_url" and image["url"].startswith(prefix):
            url = "{base_url}/v1/media/" + image["url"].removeprefix(prefix)
            return {**value, "image_url": {**image, "url": url}}
        if value.get("type") == "input_audio" and audio["data"].startswith(prefix):
            rest = {key: item for key, item in audio.items() if key != "data"}
            url = "{base_url}/v1/media/" + audio["data"].removeprefix(prefix)
            return {**value, "input_audio": {**rest, "url": url}}
        return {key: media(item) for key, item in value.items()}

    return media(recorded)


def _report_rounded(value: Any) -> Any:
    """`value` with each run report row's interval bounds rounded to 4 places."""
    if isinstance(value, list):
        return [_report_rounded(item) for item in value]
    if not isinstance(value, dict):
        return value
    out = {key: _report_rounded(item) for key, item in value.items()}
    if isinstance(out.get("report"), list):
        out["report"] = [_rounded_row(row) for row in out["report"]]
    return out


def _rounded_row(row: Any) -> Any:
    if not isinstance(row, dict):
        return row
    row = dict(row)
    for name in ("ci95", "pass_rate_ci95"):
        if isinstance(row.get(name), list):
            row[name] = [round(bound, 4) for bound in row[name]]
    clustered = row.get("clustered")
    if isinstance(clustered, dict) and isinstance(clustered.get("ci95"), list):
        row["clustered"] = {**clustered, "ci95": [round(b, 4) for b in clustered["ci95"]]}
    return row


def assert_kept(recorded: Any, now: Any, where: str) -> None:
    """`now` holds every key of `recorded` with the same value, at every depth."""
    if isinstance(recorded, dict):
        assert isinstance(now, dict), f"{where}: was an object, now {now!r}"
        for key, value in recorded.items():
            assert key in now, f"{where}.{key} is gone"
            assert_kept(value, now[key], f"{where}.{key}")
    elif isinstance(recorded, list):
        assert isinstance(now, list), f"{where}: was a list, now {now!r}"
        assert len(now) == len(recorded), f"{where}: {len(recorded)} items then, {len(now)} now"
        for index, (then_item, now_item) in enumerate(zip(recorded, now, strict=True)):
            assert_kept(then_item, now_item, f"{where}[{index}]")
    else:
        assert now == recorded, f"{where}: {recorded!r} then, {now!r} now"


def wait_terminal(upgraded: Upgraded, client: httpx.Client, path: str) -> dict[str, Any]:
    # Bounded by polls, not by the clock: a hang fails instead of stalling the suite.
    for _ in range(1200):
        upgraded.api.run_queue()
        body = client.get(path).json()
        if body["status"] in TERMINAL:
            return body
        time.sleep(0.05)
    raise AssertionError(f"{path} still {body['status']}")


def pump(upgraded: Upgraded) -> Callable[[], None]:
    """One round of what moves webhook deliveries along (the ticker does it when embedded)."""

    def step() -> None:
        if upgraded.api.redis is not None:
            jobs.tick()
            upgraded.api.run_queue()

    return step


class RecordingModel(ScriptedJudge):
    """The scripted model server, also keeping each request's Authorization header."""

    def __init__(self) -> None:
        super().__init__()
        self.authorizations: list[str | None] = []

    async def _chat_completions(self, request: Request) -> Response:
        self.authorizations.append(request.headers.get("authorization"))
        return await super()._chat_completions(request)


def test_there_is_a_release_fixture() -> None:
    assert RELEASES, f"no release fixture under {UPGRADE}"
    for release in RELEASES:
        counts = json.loads((release / "manifest.json").read_text())["row_counts"]
        for backend in ("sqlite", "postgres"):
            # Rows of every kind; judge claims and signed-out console sessions are transient.
            empty = {name for name, count in counts[backend].items() if count == 0}
            assert empty <= {"judge_claim", "signed_out_session"}, (release.name, backend, empty)


class TestUpgradeKeepsData:
    def test_every_object_reads_back_as_recorded(self, upgraded: Upgraded) -> None:
        with upgraded.client() as client:
            for read in upgraded.recorded["reads"]:
                response = client.get(read["path"], params=read["params"])
                assert response.status_code == 200, (read["path"], response.text)
                now = normalized(response.json(), upgraded.api.base_url)
                assert_kept(as_read_now(read["path"], read["body"]), now, read["path"])

    def test_api_keys_still_authenticate_and_keep_their_tenant(self, upgraded: Upgraded) -> None:
        judged = upgraded.recorded["ids"]["judged"]
        for key in ("main", "second"):
            with upgraded.client(key) as client:
                assert client.get(f"/v1/evaluations/{judged}").status_code == 200
        with upgraded.client("other") as other:
            assert other.get("/v1/evaluations").status_code == 200
            assert other.get(f"/v1/evaluations/{judged}").status_code == 404
        with upgraded.api.client("lp_not-a-key") as stranger:
            assert stranger.get("/v1/evaluations").status_code == 401

    def test_media_and_file_content_still_serve(self, upgraded: Upgraded) -> None:
        with upgraded.client() as client:
            for raw in upgraded.recorded["raw"]:
                response = client.get(raw["path"])
                assert response.status_code == 200, (raw["path"], response.text)
                assert response.headers["content-type"] == raw["content_type"]
                assert hashlib.sha256(response.content).hexdigest() == raw["sha256"]

    def test_the_webhook_secret_still_decrypts_and_signs(self, upgraded: Upgraded) -> None:
        receiver = WebhookReceiver().start()
        try:
            # The release's receiver is gone: point its endpoint at this test's.
            upgraded.execute(
                "UPDATE webhook_endpoint SET url = :url WHERE id = :id",
                url=receiver.url,
                id=upgraded.recorded["ids"]["endpoint"],
            )
            body = {
                "metrics": [{"type": "exact_match"}],
                "test_cases": [{"input": "q", "actual_output": "a", "expected_output": "a"}],
                "webhook_url": receiver.url,
            }
            with upgraded.client() as client:
                created = client.post("/v1/evaluations", json=body)
                assert created.status_code == 202, created.text
                wait_terminal(upgraded, client, f"/v1/evaluations/{created.json()['id']}")
            (delivery,) = receiver.wait_for(1, pump=pump(upgraded))[:1]
        finally:
            receiver.stop()
        payload = Webhook(upgraded.recorded["webhook_secret"]).verify(
            delivery.body, delivery.headers
        )
        assert payload["data"]["id"] == created.json()["id"]

    def test_the_candidate_models_key_still_decrypts(self, upgraded: Upgraded) -> None:
        model = RecordingModel().start()
        try:
            upgraded.execute(
                "UPDATE candidate_model SET base_url = :url WHERE id = :id",
                url=model.base_url,
                id=upgraded.recorded["ids"]["model"],
            )
            ids = upgraded.recorded["ids"]
            with upgraded.client() as client:
                started = client.post(
                    "/v1/runs", json={"dataset_id": ids["dataset"], "model_id": ids["model"]}
                )
                assert started.status_code == 202, started.text
                final = wait_terminal(upgraded, client, f"/v1/runs/{started.json()['id']}")
        finally:
            model.stop()
        assert final["status"] == "completed"
        assert model.authorizations
        assert set(model.authorizations) == {f"Bearer {upgraded.recorded['model_api_key']}"}
