"""The SDKs' eval-run estimate (issue 27's audit): `client.evals.runs.estimate(eval_id, ...)`,
sync and async, against a live server; the figures are the API's."""

import asyncio

from loupe_client import AsyncLoupe

from tests.evals.helpers import CRITERIA, ITEM_SCHEMA, ROWS
from tests.fixtures.api import Api
from tests.sdk.test_python import NO_PROXY, connect

SOURCE = {"type": "jsonl", "source": {"type": "file_content", "content": ROWS}}


def created_eval(api: Api, key: str) -> str:
    body = {
        "name": "chart qa",
        "data_source_config": {
            "type": "custom",
            "item_schema": ITEM_SCHEMA,
            "include_sample_schema": True,
        },
        "testing_criteria": CRITERIA,
    }
    with api.client(key) as http:
        response = http.post("/v1/evals", json=body)
        assert response.status_code in (200, 201), response.text
        return response.json()["id"]


class TestEvalRunEstimate:
    def test_sync_and_async_as_the_api_answers(self, api: Api) -> None:
        key = api.new_key()
        eval_id = created_eval(api, key)
        with api.client(key) as http:
            direct = http.post(f"/v1/evals/{eval_id}/runs/estimate", json={"data_source": SOURCE})
            assert direct.status_code == 200, direct.text
            expected = direct.json()
            assert http.get(f"/v1/evals/{eval_id}/runs").json()["data"] == []
        with connect(api, key) as client:
            bill = client.evals.runs.estimate(eval_id, data_source=SOURCE)
        assert bill.calls == expected["calls"] > 0
        assert [metric.calls for metric in bill.metrics] == [
            metric["calls"] for metric in expected["metrics"]
        ]
        assert bill.candidate is None

        async def estimate() -> int:
            async with AsyncLoupe(api.base_url, key, httpx_args=NO_PROXY) as client:
                bill = await client.evals.runs.estimate(eval_id, {"data_source": SOURCE})
                return bill.calls

        assert asyncio.run(estimate()) == expected["calls"]
