"""The Python SDK's open evaluations (issue 31 item 3): create one open, append a lazy iterable
in batches with a key each, resume an upload by its key prefix, close; sync and async. A batch
sent again while its first send is still being stored waits for it (409 in progress)."""

import asyncio
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from loupe_client import AsyncLoupe, ConflictError, ExactMatch, ImageUrlPart, Loupe, TestCase

from tests.fixtures.api import Api
from tests.sdk.helpers import HeldImage
from tests.sdk.test_cli import EXACT, loupe_client, write_cases
from tests.sdk.test_python import NO_PROXY

IN_PROGRESS = "409 idempotency-key-in-progress"


def generated(count: int) -> Iterator[TestCase]:
    for i in range(count):
        yield TestCase(id=f"g{i}", input=f"q{i}", actual_output="a", expected_output="a")


class TestOpenEvaluations:
    def test_append_all_in_batches_then_close(self, api: Api) -> None:
        key = api.new_key()
        with Loupe(api.base_url, key, httpx_args=NO_PROXY) as client:
            evaluation = client.evaluations.create_open(metrics=[ExactMatch()])
            assert evaluation.open_ is True and evaluation.test_case_count == 0
            count = client.evaluations.append_all(
                evaluation.id, generated(5), batch_size=2, idempotency_prefix="upload-1"
            )
            assert count == 5
            # The same upload run again (a client that died half way) replays every batch.
            again = client.evaluations.append_all(
                evaluation.id, generated(5), batch_size=2, idempotency_prefix="upload-1"
            )
            assert again == 5 and client.evaluations.get(evaluation.id).test_case_count == 5
            closed = client.evaluations.close(evaluation.id)
            assert closed.open_ is False
            with pytest.raises(ConflictError):
                client.evaluations.append(evaluation.id, generated(1))
        with api.client(key) as http:
            done = api.wait(http, evaluation.id)
        assert done["status"] == "completed" and done["result_counts"]["passed"] == 5

    def test_async(self, api: Api) -> None:
        async def upload() -> tuple[int, int]:
            async with AsyncLoupe(api.base_url, api.new_key(), httpx_args=NO_PROXY) as client:
                evaluation = await client.evaluations.create_open(
                    test_cases=list(generated(1)), metrics=[ExactMatch()]
                )
                batch = await client.evaluations.append(
                    evaluation.id, [TestCase(input="q", actual_output="a", expected_output="a")]
                )
                total = await client.evaluations.append_all(
                    evaluation.id, generated(0), batch_size=10, close=True
                )
                assert (await client.evaluations.get(evaluation.id)).open_ is False
                return batch.first_index, total

        assert asyncio.run(upload()) == (1, 2)


def test_the_cli_sends_a_file_in_batches(api: Api, tmp_path: Path) -> None:
    cases = write_cases(tmp_path / "c.jsonl", 2, count=7)
    key = api.new_key()
    args = ("evaluate", str(cases), "--metric", EXACT, "--batch-size", "3", "--wait")
    finished = loupe_client(api, key, *args, "--idempotency-key", "nightly", queue=True)
    assert finished.returncode == 0, finished.stderr
    evaluation_id = finished.stdout.split()[0]
    assert "5 passed, 2 failed, 0 errored of 7" in finished.stdout
    # Run again (a CI job retried): the same evaluation, nothing appended twice.
    again = loupe_client(api, key, *args, "--idempotency-key", "nightly", queue=True)
    assert again.stdout.split()[0] == evaluation_id
    with Loupe(api.base_url, key, httpx_args=NO_PROXY) as client:
        assert client.evaluations.get(evaluation_id).test_case_count == 7


def with_held_image(image: HeldImage) -> list[TestCase]:
    """Six cases without ids (appended twice, they would be twelve), the first showing an image
    the held host serves: the batch holding it stays in progress until the host answers."""
    first = TestCase(
        input=["What colour is it?", ImageUrlPart(image.url)],
        actual_output="green",
        expected_output="green",
    )
    rest = [TestCase(input=f"q{i}", actual_output="a", expected_output="a") for i in range(1, 6)]
    return [first, *rest]


class SendLog:
    """What each batch send got: its answer, or "no answer" when the client stopped waiting.

    A batch waits `patience` seconds for its answer on the real connection (then httpx's
    ReadTimeout, as a client with a short timeout gets). A 409 releases the held image, so the
    first send, still in progress on Loupe, completes once a later send has met it."""

    def __init__(self, image: HeldImage, patience: float = 1.0) -> None:
        self.image = image
        self.patience = patience
        self.sends: list[tuple[str, str]] = []

    def cut_short(self, request: httpx.Request) -> str | None:
        key = request.headers.get("idempotency-key")
        if key is not None:
            request.extensions["timeout"] = {**request.extensions["timeout"], "read": self.patience}
        return key

    def no_answer(self, key: str) -> None:
        # The send reached Loupe and waits on the image: the next send meets it in progress.
        assert self.image.started.wait(10), "Loupe never asked for the held image"
        self.sends.append((key, "no answer"))

    def answered(self, key: str, response: httpx.Response) -> None:
        if response.status_code == 409:
            self.sends.append((key, "409 " + response.json()["type"].rsplit("/", 1)[-1]))
            self.image.release()
            return
        replayed = " replayed" if response.headers.get("idempotent-replayed") == "true" else ""
        self.sends.append((key, f"{response.status_code}{replayed}"))

    def of(self, key: str) -> list[str]:
        return [outcome for sent_key, outcome in self.sends if sent_key == key]

    def assert_held_then_replayed(self, key: str) -> None:
        """The batch's first send got no answer, the next met it in progress (once as a rule;
        again while a slow machine is still storing it), the last got its answer replayed."""
        first, *in_progress, last = self.of(key)
        assert (first, set(in_progress), last) == ("no answer", {IN_PROGRESS}, "202 replayed")


class LoggedTransport(httpx.BaseTransport):
    def __init__(self, log: SendLog) -> None:
        self.log = log
        self.real = httpx.HTTPTransport()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        key = self.log.cut_short(request)
        if key is None:
            return self.real.handle_request(request)
        try:
            response = self.real.handle_request(request)
        except httpx.ReadTimeout:
            self.log.no_answer(key)
            raise
        response.read()
        self.log.answered(key, response)
        return response

    def close(self) -> None:
        self.real.close()


class AsyncLoggedTransport(httpx.AsyncBaseTransport):
    def __init__(self, log: SendLog) -> None:
        self.log = log
        self.real = httpx.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        key = self.log.cut_short(request)
        if key is None:
            return await self.real.handle_async_request(request)
        try:
            response = await self.real.handle_async_request(request)
        except httpx.ReadTimeout:
            await asyncio.to_thread(self.log.no_answer, key)
            raise
        await response.aread()
        self.log.answered(key, response)
        return response

    async def aclose(self) -> None:
        await self.real.aclose()


def assert_appended_once(api: Api, key: str, evaluation_id: str) -> None:
    with api.client(key) as http:
        listed = http.get(f"/v1/evaluations/{evaluation_id}/test_cases?limit=100").json()
        done = api.wait(http, evaluation_id)
    assert [case["index"] for case in listed["data"]] == list(range(6))
    assert done["status"] == "completed" and done["result_counts"]["passed"] == 6


class TestKeyInProgress:
    def test_a_batch_meeting_its_first_send_in_progress_waits_for_it(self, api: Api) -> None:
        key = api.new_key()
        with HeldImage() as image:
            log = SendLog(image)
            args = {**NO_PROXY, "transport": LoggedTransport(log)}
            with Loupe(api.base_url, key, httpx_args=args) as client:
                evaluation = client.evaluations.create_open(metrics=[ExactMatch()])
                count = client.evaluations.append_all(
                    evaluation.id, with_held_image(image), batch_size=2, idempotency_prefix="held"
                )
                assert count == 6
                log.assert_held_then_replayed("held-0")
                assert log.of("held-1") == log.of("held-2") == ["202"]
                # Loupe fetched the image once: the batch was stored by its first send alone.
                assert image.fetches == 1
                client.evaluations.close(evaluation.id)
                # Any other 409 is raised at once, the batch sent once.
                with pytest.raises(ConflictError) as refused:
                    client.evaluations.append_all(
                        evaluation.id, with_held_image(image)[1:2], idempotency_prefix="late"
                    )
                assert not refused.value.type.endswith("idempotency-key-in-progress")
                assert log.of("late-0") == ["409 evaluation-not-open"]
        assert_appended_once(api, key, evaluation.id)

    def test_async(self, api: Api) -> None:
        key = api.new_key()

        async def upload(image: HeldImage, log: SendLog) -> tuple[str, int]:
            args = {**NO_PROXY, "transport": AsyncLoggedTransport(log)}
            async with AsyncLoupe(api.base_url, key, httpx_args=args) as client:
                evaluation = await client.evaluations.create_open(metrics=[ExactMatch()])
                count = await client.evaluations.append_all(
                    evaluation.id, with_held_image(image), batch_size=2, close=True
                )
                return evaluation.id, count

        with HeldImage() as image:
            log = SendLog(image)
            evaluation_id, count = asyncio.run(upload(image, log))
        assert count == 6
        first_key = log.sends[0][0]
        log.assert_held_then_replayed(first_key)
        assert image.fetches == 1
        assert [outcome for _, outcome in log.sends[-2:]] == ["202", "202"]
        assert_appended_once(api, key, evaluation_id)
