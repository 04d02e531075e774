"""Uploading the EvalScope example datasets, waiting for runs, and extra apps and model servers
for the run and dataset tests."""

import io
import time
import zipfile
from pathlib import Path

import httpx
from starlette.requests import Request
from starlette.responses import Response

from tests.fixtures.api import TERMINAL, Api
from tests.fixtures.judge import ScriptedJudge

EXAMPLES = Path(__file__).resolve().parent.parent / "data" / "evalscope_examples"
CANDIDATE = "candidate-vlm"
# The smallest file an MP3 sniffer takes: an ID3v2 tag, then one silent MPEG-1 Layer III frame.
MP3 = b"ID3\x04\x00\x00\x00\x00\x00\x00" + b"\xff\xfb\x90\x64" + bytes(413)


def example_zip(*members: str) -> bytes:
    """A zip of the examples folder holding `members` (data files) and every image and clip."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for path in sorted(EXAMPLES.rglob("*")):
            relative = path.relative_to(EXAMPLES).as_posix()
            is_media = path.suffix in (".png", ".wav")
            if path.is_file() and (is_media or relative in members):
                archive.write(path, relative)
    return buffer.getvalue()


def upload(client: httpx.Client, filename: str, data: bytes, fmt: str) -> httpx.Response:
    return client.post("/v1/datasets", files={"file": (filename, data)}, data={"format": fmt})


def register_model(client: httpx.Client, base_url: str) -> str:
    response = client.post(
        "/v1/models",
        json={"base_url": base_url, "model": CANDIDATE, "api_key": "sk-candidate-secret"},
    )
    assert response.status_code == 201, response.text
    return response.json()["id"]


def wait_run(api: Api, client: httpx.Client, run_id: str, timeout: float = 60) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        api.run_queue()
        body = client.get(f"/v1/runs/{run_id}").json()
        if body["status"] in TERMINAL:
            return body
        if time.monotonic() > deadline:
            raise AssertionError(f"run {run_id} still {body['status']}: {body['result_counts']}")
        time.sleep(0.05)


def samples(client: httpx.Client, run_id: str) -> list[dict]:
    return client.get(f"/v1/runs/{run_id}/samples", params={"limit": 1000}).json()["data"]


def report(body: dict) -> dict[tuple[str, str], tuple[int, float]]:
    return {(row["metric"], row["subset"]): (row["num"], row["score"]) for row in body["report"]}


class RecordingModel(ScriptedJudge):
    """The scripted model server, also keeping each request's Authorization header."""

    def __init__(self) -> None:
        super().__init__()
        self.authorizations: list[str | None] = []

    async def _chat_completions(self, request: Request) -> Response:
        self.authorizations.append(request.headers.get("authorization"))
        return await super()._chat_completions(request)
