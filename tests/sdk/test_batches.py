"""The Python SDK's open evaluations (issue 31 item 3): create one open, append a lazy iterable
in batches with a key each, resume an upload by its key prefix, close; sync and async."""

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from loupe_client import AsyncLoupe, ConflictError, ExactMatch, Loupe, TestCase

from tests.fixtures.api import Api
from tests.sdk.test_cli import EXACT, loupe_client, write_cases
from tests.sdk.test_python import NO_PROXY


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
