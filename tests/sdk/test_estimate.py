"""The Python SDK's estimates (issue 27 item 4): `evaluations.estimate` and `runs.estimate`, sync
and async, against a live server; the figures are the API's."""

import asyncio
from pathlib import Path

import pytest
from loupe_client import AsyncLoupe, ExactMatch, GEval, ValidationError

from tests.fixtures.api import Api
from tests.sdk.test_python import NO_PROXY, connect, say_numbers
from tests.sdk.test_python_resources import exact_cases, predictions

HELPFUL = GEval(
    name="helpful",
    criteria="Does it answer the question?",
    evaluation_params=["input", "actual_output"],
)


class TestEstimates:
    def test_an_evaluation_and_a_run_before_they_start(self, api: Api, tmp_path: Path) -> None:
        with connect(api) as client:
            bill = client.evaluations.estimate(
                test_cases=exact_cases(3), metrics=[HELPFUL, ExactMatch()]
            )
            assert bill.calls == 1 + 3
            assert [metric.calls for metric in bill.metrics] == [4, 0]
            assert bill.metrics[0].multiplier == 1
            assert bill.prompt_tokens > 0 and bill.usd is not None and bill.usd > 0
            assert any("upper bound" in note for note in bill.notes)
            assert list(client.evaluations.list()) == []

            dataset = say_numbers(client, tmp_path)
            run_bill = client.runs.estimate(dataset_id=dataset.id, predictions=predictions(dataset))
            assert run_bill.calls == 0 and run_bill.candidate is None
            with pytest.raises(ValidationError):
                client.evaluations.estimate(test_cases=exact_cases(1), metrics=[])

    def test_async(self, api: Api) -> None:
        async def estimate() -> int:
            async with AsyncLoupe(api.base_url, api.new_key(), httpx_args=NO_PROXY) as client:
                bill = await client.evaluations.estimate(
                    test_cases=exact_cases(2), metrics=[HELPFUL]
                )
                return bill.calls

        assert asyncio.run(estimate()) == 1 + 2
