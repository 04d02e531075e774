"""Make an upgrade fixture: Loupe's database as this checkout's migrations leave it, holding rows
of every kind, with what the API answered for each object.

Run it by hand when a release is cut, from a clean export of the release commit so that the code
and migrations are the release's (docs/upgrades.md gives the steps):

    .venv/bin/python tests/data/upgrade/make_fixture.py            # name: <UTC date>-<head>
    .venv/bin/python tests/data/upgrade/make_fixture.py --name 2026-11-26-whsec1 --commit <sha>

It needs `initdb`, `pg_ctl` and `pg_dump` on PATH (as root it runs the cluster as the `postgres`
user, like tests/fixtures/services.py) and `redis-server`. Everything it starts listens on
127.0.0.1 only: the scripted judge (tests/fixtures/judge.py), which also plays the candidate
model; a webhook receiver; a throwaway PostgreSQL and Redis. It serves Loupe twice at the
migrations head: on SQLite (embedded mode, secret key in a key file) and on PostgreSQL
(distributed mode, RQ jobs run in-process, the same key as LOUPE_SECRET_KEY). Through the HTTP
API it creates, on each: two API keys of one tenant and one of another, a webhook endpoint whose
first delivery fails and is retried, a judged evaluation with images (judge cache rows, blobs)
and an Idempotency-Key, two reference-metric evaluations and a comparison of them, a dataset
with a registered candidate model and a run of it, an uploaded file, an OpenAI eval and two eval
runs (inline rows and the file). Then it writes into tests/data/upgrade/<name>/:

    manifest.json      head revision, release commit, date, row counts of each database's tables
    secret.key         the key both databases were written with: it decrypts the stored webhook
                       secrets and model keys, so the fixture is useless without it
    sqlite/loupe.db    the SQLite database (media blobs live in its `blob` table)
    sqlite/api.json    the API keys, the webhook secret, and every read (path, key, body)
    postgres/dump.sql  pg_dump --no-owner --no-privileges, plain SQL
    postgres/api.json  as sqlite/api.json, for the PostgreSQL database

tests/migrations/test_upgrade_keeps_data.py restores each such directory, upgrades it to head
and checks every read against api.json.
"""

import argparse
import base64
import hashlib
import io
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[3]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
from alembic.script import ScriptDirectory  # noqa: E402
from PIL import Image  # noqa: E402
from redis import Redis  # noqa: E402
from sqlalchemy import create_engine, func, inspect, select, table  # noqa: E402

from app import migrate  # noqa: E402
from app.config import Settings  # noqa: E402
from app.models import WebhookEvent  # noqa: E402
from tests.fixtures.api import TERMINAL, Api, fast_settings, postgres_settings, served_api  # noqa: E402
from tests.fixtures.judge import JUDGED_METRICS, Reply, ScriptedJudge, plausible_answer, task_of  # noqa: E402
from tests.fixtures.receiver import WebhookReceiver  # noqa: E402
from tests.fixtures.services import running_postgres, running_redis  # noqa: E402
from workers import jobs  # noqa: E402

HERE = Path(__file__).resolve().parent
EXAMPLES = ROOT / "tests" / "data" / "evalscope_examples"
CANDIDATE = "candidate-vlm"
# Stored encrypted with the fixture's key: the upgrade test checks it still decrypts.
MODEL_API_KEY = "sk-candidate-fixture"
# Answers of the candidate model to the example VQA questions and the eval rows.
CANDIDATE_ANSWERS = {
    "What shape is drawn in white?": "A white circle",
    "What is the background colour of this image?": "Green",
    "Compare the first image": "The first image contains a white square.",
    "Capital of France?": "Paris",
}
MEDIA_PATH = re.compile(r"/v1/media/([0-9a-f]{64})")
PAGE = {"limit": 100}
# Reads whose last path segment is one of these are pages (asked for with PAGE).
PAGED = {
    *("evaluations", "results", "test_cases", "items", "datasets", "rows", "models", "runs"),
    *("samples", "files", "evals", "output_items", "webhook_endpoints", "deliveries"),
}


def head_revision() -> str:
    """The migrations' head revision id (e.g. `whsec1`)."""
    settings = Settings(database_url="sqlite://")
    return ScriptDirectory.from_config(migrate.alembic_config(settings)).get_current_head()


def png(color: str, size: tuple[int, int]) -> str:
    buffer = io.BytesIO()
    Image.new("RGB", size, color).save(buffer, format="PNG")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode()


RED, BLUE = png("red", (16, 12)), png("blue", (12, 16))


def image(url: str) -> dict[str, Any]:
    return {"type": "image_url", "image_url": {"url": url}}


def texts(request: dict[str, Any]) -> str:
    found = []
    for message in request.get("messages") or []:
        content = message.get("content")
        if isinstance(content, str):
            found.append(content)
        else:
            found.extend(p.get("text", "") for p in content or [] if p.get("type") == "text")
    return "\n".join(found)


def model_answer(request: dict[str, Any]) -> Reply | dict[str, Any]:
    """The judge's answer to Loupe's metric tasks, the OpenAI Evals graders and the candidate."""
    text = texts(request)
    if request.get("model") == CANDIDATE:
        for question, answer in CANDIDATE_ANSWERS.items():
            if question in text:
                return Reply(content=answer)
        return Reply(content="I do not know")
    if task_of(request) is not None and "GRADER" not in text:
        return plausible_answer(request)
    steps = [{"description": "compare", "conclusion": "compared with the reference"}]
    if "LABEL-GRADER" in text:
        good = "Answer: Paris" in text
        return {"steps": steps, "result": "correct" if good else "incorrect"}
    if "SCORE-GRADER" in text:
        return {"steps": steps, "result": 9 if "Answer: Paris" in text else 2}
    return {"reasoning": "matches the reference", "verdict": "A"}


ITEM_SCHEMA = {
    "type": "object",
    "required": ["question", "answer", "image"],
    "properties": {
        "question": {"type": "string"},
        "answer": {"type": "string"},
        "image": {"type": "string"},
    },
}
EVAL_ROWS = [
    {
        "item": {"question": question, "answer": answer, "image": picture},
        "sample": {"output_text": output},
    }
    for question, answer, picture, output in [
        ("Capital of France?", "Paris", RED, "Paris"),
        ("Two plus two?", "4", BLUE, "five"),
        ("Sky colour?", "Blue", BLUE, "blue"),
    ]
]
CRITERIA = [
    {
        "type": "string_check",
        "name": "exact",
        "operation": "eq",
        "input": "{{ sample.output_text }}",
        "reference": "{{ item.answer }}",
    },
    {
        "type": "text_similarity",
        "name": "fuzzy",
        "evaluation_metric": "fuzzy_match",
        "pass_threshold": 0.8,
        "input": "{{ sample.output_text }}",
        "reference": "{{ item.answer }}",
    },
    {
        "type": "label_model",
        "name": "judge",
        "model": "judge-model",
        "labels": ["correct", "incorrect"],
        "passing_labels": ["correct"],
        "input": [
            {"role": "developer", "content": "LABEL-GRADER: label the answer."},
            {
                "role": "user",
                "content": [
                    {"type": "input_text", "text": "Answer: {{ sample.output_text }}"},
                    {"type": "input_image", "image_url": "{{ item.image }}", "detail": "low"},
                ],
            },
        ],
    },
    {
        "type": "score_model",
        "name": "quality",
        "model": "judge-model",
        "range": [0, 10],
        "pass_threshold": 5,
        "input": [
            {"role": "system", "content": "SCORE-GRADER"},
            {"role": "user", "content": "Answer: {{ sample.output_text }}"},
        ],
    },
]


def judged_cases() -> list[dict[str, Any]]:
    return [
        {
            "id": f"case-{i}",
            "input": ["What shape is shown?", image(RED)],
            "actual_output": f"A red circle, number {i}.",
            "expected_output": "A red circle.",
            "retrieval_context": [f"Doc {i}: the logo is a red circle.", [image(BLUE)]],
        }
        for i in range(3)
    ]


def reference_cases(wrong: set[int]) -> list[dict[str, Any]]:
    # Comparisons give intervals from 10 pairs on: 12 cases.
    return [
        {
            "id": f"case-{i}",
            "input": f"Repeat sentence {i}.",
            "actual_output": "a dog ran away" if i in wrong else f"the cat sat on mat {i}",
            "expected_output": f"the cat sat on mat {i}",
        }
        for i in range(12)
    ]


def vqa_zip() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.write(EXAMPLES / "vqa" / "example_vqa.jsonl", "vqa/example_vqa.jsonl")
        for media in sorted((EXAMPLES / "vqa" / "images").glob("*.png")):
            archive.write(media, f"vqa/images/{media.name}")
        for media in sorted((EXAMPLES / "audio").glob("*.wav")):
            archive.write(media, f"audio/{media.name}")
    return buffer.getvalue()


def created(response: httpx.Response) -> dict[str, Any]:
    if not response.is_success:
        raise RuntimeError(f"{response.request.url}: {response.status_code} {response.text}")
    return response.json()


def wait_terminal(api: Api, client: httpx.Client, path: str) -> dict[str, Any]:
    deadline = time.monotonic() + 120
    while True:
        api.run_queue()
        body = client.get(path).json()
        if body["status"] in TERMINAL:
            return body
        if time.monotonic() > deadline:
            raise RuntimeError(f"{path} still {body['status']}")
        time.sleep(0.1)


def wait_until(step: Callable[[], None], done: Callable[[], bool], what: Callable[[], str]) -> None:
    deadline = time.monotonic() + 60
    while not done():
        if time.monotonic() > deadline:
            raise RuntimeError(f"gave up waiting for {what()}")
        step()
        time.sleep(0.1)


def populate(api: Api, receiver: WebhookReceiver) -> dict[str, Any]:
    """Create objects of every kind through the API; returns their ids, keys and secrets."""
    keys = {
        "main": api.new_key("upgrade-fixture"),
        "second": api.new_key("upgrade-fixture"),
        "other": api.new_key("upgrade-other"),
    }
    client = api.client(keys["main"])
    ids: dict[str, Any] = {}
    endpoint = created(client.post("/v1/webhook_endpoints", json={"url": receiver.url}))
    ids["endpoint"] = endpoint["id"]
    receiver.answer(500, 200)  # the first delivery fails and is retried: two delivery rows

    judged = {
        "name": "judged with images",
        "metrics": [*JUDGED_METRICS, {"type": "exact_match"}, {"type": "bleu"}],
        "test_cases": judged_cases(),
        "webhook_url": receiver.url,
    }
    response = client.post(
        "/v1/evaluations", json=judged, headers={"Idempotency-Key": "upgrade-fixture-judged"}
    )
    ids["judged"] = created(response)["id"]
    for name, wrong in (("baseline", set()), ("candidate", {0, 1, 2, 3})):
        body = {
            "name": name,
            "metrics": [{"type": "exact_match"}, {"type": "bleu"}],
            "test_cases": reference_cases(wrong),
            "webhook_url": receiver.url,
        }
        ids[name] = created(client.post("/v1/evaluations", json=body))["id"]
    for name in ("judged", "baseline", "candidate"):
        wait_terminal(api, client, f"/v1/evaluations/{ids[name]}")
    comparison = {"baseline_id": ids["baseline"], "candidate_id": ids["candidate"]}
    ids["comparison"] = created(client.post("/v1/comparisons", json=comparison))["id"]

    upload = client.post(
        "/v1/datasets", files={"file": ("vqa.zip", vqa_zip())}, data={"format": "general_vqa"}
    )
    ids["dataset"] = created(upload)["id"]
    model = {"base_url": api.settings.judge_base_url, "model": CANDIDATE, "api_key": MODEL_API_KEY}
    ids["model"] = created(client.post("/v1/models", json=model))["id"]
    run = {
        "dataset_id": ids["dataset"],
        "model_id": ids["model"],
        "name": "vqa run",
        "webhook_url": receiver.url,
    }
    ids["run"] = created(client.post("/v1/runs", json=run))["id"]
    wait_terminal(api, client, f"/v1/runs/{ids['run']}")

    rows = "\n".join(json.dumps(row) for row in EVAL_ROWS).encode()
    upload = client.post(
        "/v1/files", files={"file": ("rows.jsonl", rows)}, data={"purpose": "evals"}
    )
    ids["file"] = created(upload)["id"]
    definition = {
        "name": "chart qa",
        "data_source_config": {
            "type": "custom",
            "item_schema": ITEM_SCHEMA,
            "include_sample_schema": True,
        },
        "testing_criteria": CRITERIA,
        "metadata": {"team": "vision"},
    }
    ids["eval"] = created(client.post("/v1/evals", json=definition))["id"]
    sources = {
        "eval_run_inline": {"type": "file_content", "content": EVAL_ROWS},
        "eval_run_file": {"type": "file_id", "id": ids["file"]},
    }
    for name, source in sources.items():
        body = {
            "name": name,
            "data_source": {"type": "jsonl", "source": source},
            "webhook_url": receiver.url,
        }
        ids[name] = created(client.post(f"/v1/evals/{ids['eval']}/runs", json=body))["id"]
        wait_terminal(api, client, f"/v1/evals/{ids['eval']}/runs/{ids[name]}")
    settle_deliveries(api)
    client.close()
    return {
        "keys": keys,
        "webhook_secret": endpoint["secret"],
        "model_api_key": MODEL_API_KEY,
        "ids": ids,
    }


def settle_deliveries(api: Api) -> None:
    """Wait until every event has a successful delivery (and the first its failed one)."""

    def step() -> None:
        if api.redis is not None:
            jobs.tick()
            api.run_queue()

    statuses: list[str] = []

    def done() -> bool:
        with api.served.runtime.session() as session:
            statuses[:] = session.scalars(select(WebhookEvent.status)).all()
        return bool(statuses) and all(status == "delivered" for status in statuses)

    wait_until(step, done, lambda: f"webhook events to be delivered (now {statuses})")


def reads(ids: dict[str, Any]) -> list[str]:
    """Every GET path whose answer the fixture records (paged ones with `limit=100`)."""
    evaluation_paths = [
        f"/v1/evaluations/{ids[name]}{tail}"
        for name in ("judged", "baseline", "candidate")
        for tail in ("", "/results", "/test_cases")
    ]
    eval_runs = [
        f"/v1/evals/{ids['eval']}/runs/{ids[name]}{tail}"
        for name in ("eval_run_inline", "eval_run_file")
        for tail in ("", "/output_items")
    ]
    return [
        "/v1/evaluations",
        *evaluation_paths,
        f"/v1/comparisons/{ids['comparison']}",
        f"/v1/comparisons/{ids['comparison']}/items",
        "/v1/datasets",
        f"/v1/datasets/{ids['dataset']}",
        f"/v1/datasets/{ids['dataset']}/rows",
        "/v1/models",
        f"/v1/models/{ids['model']}",
        "/v1/runs",
        f"/v1/runs/{ids['run']}",
        f"/v1/runs/{ids['run']}/samples",
        "/v1/files",
        f"/v1/files/{ids['file']}",
        "/v1/evals",
        f"/v1/evals/{ids['eval']}",
        f"/v1/evals/{ids['eval']}/runs",
        *eval_runs,
        "/v1/webhook_endpoints",
        f"/v1/webhook_endpoints/{ids['endpoint']}/deliveries",
    ]


def normalized(value: Any, base_url: str) -> Any:
    """`value` with this server's base URL written `{base_url}` (it differs on each start)."""
    if isinstance(value, str):
        return value.replace(base_url, "{base_url}")
    if isinstance(value, list):
        return [normalized(item, base_url) for item in value]
    if isinstance(value, dict):
        return {key: normalized(item, base_url) for key, item in value.items()}
    return value


def record(api: Api, made: dict[str, Any]) -> dict[str, Any]:
    """What the API answers for each object: JSON reads, then raw bytes (file content, media)."""
    client = api.client(made["keys"]["main"])
    answers = []
    for path in reads(made["ids"]):
        params = PAGE if path.rsplit("/", 1)[-1] in PAGED else {}
        response = client.get(path, params=params)
        created(response)
        body = normalized(response.json(), api.base_url)
        answers.append({"path": path, "params": params, "body": body})
    errored = [
        answer["path"]
        for answer in answers
        if isinstance(answer["body"].get("result_counts"), dict)
        and answer["body"]["result_counts"].get("errored")
    ]
    if errored:
        # A fixture of errors would not show that scores survive an upgrade (e.g. NLTK data
        # refused from an export whose folders others can write: export with umask 022).
        raise RuntimeError(f"results errored in {errored}")
    shas = sorted({sha for answer in answers for sha in MEDIA_PATH.findall(json.dumps(answer))})
    raw_paths = [f"/v1/files/{made['ids']['file']}/content"] + [f"/v1/media/{sha}" for sha in shas]
    raw = []
    for path in raw_paths:
        response = client.get(path)
        if not response.is_success:
            raise RuntimeError(f"{path}: {response.status_code} {response.text}")
        raw.append(
            {
                "path": path,
                "content_type": response.headers["content-type"],
                "sha256": hashlib.sha256(response.content).hexdigest(),
            }
        )
    client.close()
    if len(raw) < 2:
        raise RuntimeError("no media URL in any answer: the fixture would not check media")
    return {**made, "reads": answers, "raw": raw}


def row_counts(database_url: str) -> dict[str, int]:
    engine = create_engine(database_url)
    try:
        with engine.connect() as connection:
            names = sorted(inspect(connection).get_table_names())
            return {
                name: connection.execute(select(func.count()).select_from(table(name))).scalar_one()
                for name in names
            }
    finally:
        engine.dispose()


def make_sqlite(
    work: Path, judge: ScriptedJudge, receiver: WebhookReceiver, key_file: Path
) -> tuple[Path, dict, dict]:
    directory = work / "sqlite"
    directory.mkdir()
    settings = fast_settings(
        database_url=f"sqlite:///{directory}/loupe.db",
        judge_base_url=judge.base_url,
        secret_key=None,
        secret_key_file=key_file,
    )
    with served_api(settings) as api:
        answers = record(api, populate(api, receiver))
    # A copy through SQLite's backup API holds what the WAL had; VACUUM drops free pages.
    copy = work / "loupe.db"
    with sqlite3.connect(directory / "loupe.db") as source, sqlite3.connect(copy) as target:
        source.backup(target)
    with sqlite3.connect(copy) as target:
        target.execute("VACUUM")
    return copy, answers, row_counts(f"sqlite:///{copy}")


def make_postgres(
    work: Path, judge: ScriptedJudge, receiver: WebhookReceiver, key: str
) -> tuple[Path, dict, dict]:
    with running_postgres() as postgres, running_redis() as redis_server:
        settings = postgres_settings(
            postgres, redis_server, judge_base_url=judge.base_url, secret_key=key
        )
        redis = Redis.from_url(redis_server.url)
        with served_api(settings, redis=redis) as api:
            answers = record(api, populate(api, receiver))
        redis.close()
        dump = work / "dump.sql"
        plain_url = settings.database_url.replace("+psycopg", "")
        subprocess.run(
            ["pg_dump", "--no-owner", "--no-privileges", "--file", str(dump), plain_url],
            check=True,
        )
        counts = row_counts(settings.database_url)
    return dump, answers, counts


def write_json(path: Path, value: Any) -> None:
    path.write_text(json.dumps(value, indent=1, sort_keys=True, ensure_ascii=False) + "\n")


def main() -> None:
    head = head_revision()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--name", default=f"{datetime.now(UTC):%Y-%m-%d}-{head}", help="release directory name"
    )
    parser.add_argument("--force", action="store_true", help="replace an existing directory")
    parser.add_argument("--commit", help="the release commit this export was made from")
    options = parser.parse_args()
    target = HERE / options.name
    if target.exists() and not options.force:
        sys.exit(f"{target} exists (--force replaces it)")
    work = Path(tempfile.mkdtemp(prefix="loupe-upgrade-"))
    key_file = work / "secret.key"
    key = base64.urlsafe_b64encode(os.urandom(32)).decode()
    key_file.write_text(key)
    key_file.chmod(0o600)
    judge = ScriptedJudge().start()
    judge.script(model_answer)
    receiver = WebhookReceiver().start()
    try:
        database, sqlite_answers, sqlite_counts = make_sqlite(work, judge, receiver, key_file)
        dump, postgres_answers, postgres_counts = make_postgres(work, judge, receiver, key)
    finally:
        receiver.stop()
        judge.stop()
    if target.exists():
        shutil.rmtree(target)
    (target / "sqlite").mkdir(parents=True)
    (target / "postgres").mkdir()
    shutil.copy(key_file, target / "secret.key")
    shutil.copy(database, target / "sqlite" / "loupe.db")
    shutil.copy(dump, target / "postgres" / "dump.sql")
    write_json(target / "sqlite" / "api.json", sqlite_answers)
    write_json(target / "postgres" / "api.json", postgres_answers)
    write_json(
        target / "manifest.json",
        {
            "head": head,
            "commit": options.commit,
            "made": f"{datetime.now(UTC):%Y-%m-%d}",
            "row_counts": {"sqlite": sqlite_counts, "postgres": postgres_counts},
        },
    )
    shutil.rmtree(work, ignore_errors=True)
    size = sum(path.stat().st_size for path in target.rglob("*") if path.is_file())
    print(f"{target.relative_to(ROOT)}: {size / 1024:.0f} KiB at {head}")
    empty = sorted(name for name, count in sqlite_counts.items() if count == 0)
    if empty:
        print(f"tables with no rows: {', '.join(empty)}")


if __name__ == "__main__":
    main()
