"""The Python SDK's resources for the rest of the public API (deletes, exports, models, webhook
endpoints, usage, media), sync and async, against a live Loupe on both backends."""

import asyncio
import csv
import datetime
import hashlib
import io
import json
import time
from pathlib import Path
from typing import Any

import pytest
from loupe_client import AsyncLoupe, ExactMatch, GEval, Loupe, NotFoundError

from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge, plausible_answer
from tests.fixtures.receiver import WebhookReceiver
from tests.sdk.helpers import RED, while_queue_runs
from tests.sdk.test_python import NO_PROXY, as_json, connect, say_numbers


def exact_cases(count: int = 2) -> list[dict[str, Any]]:
    return [
        {"id": f"q{i}", "input": "?", "actual_output": "4", "expected_output": str(4 + i)}
        for i in range(count)
    ]


def predictions(dataset: Any) -> list[dict[str, Any]]:
    subset = dataset.subsets[0].name
    return [{"subset": subset, "index": i, "prediction": str(i)} for i in range(dataset.row_count)]


def deliveries_of(api: Api, client: Loupe, endpoint_id: str) -> list[Any]:
    """The endpoint's delivery attempts once there is one (running the queue meanwhile)."""
    for _ in range(600):
        api.run_queue()
        found = list(client.webhook_endpoints.deliveries(endpoint_id))
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"no delivery to {endpoint_id}")


class TestDeletesAndExports:
    def test_evaluation_run_and_dataset_deleted_samples_exported(
        self, api: Api, tmp_path: Path
    ) -> None:
        with connect(api) as client:
            evaluation = client.evaluations.create(test_cases=exact_cases(), metrics=[ExactMatch()])
            while_queue_runs(api, lambda: client.evaluations.wait(evaluation.id))
            assert client.evaluations.delete(evaluation.id) is None
            with pytest.raises(NotFoundError):
                client.evaluations.get(evaluation.id)

            dataset = say_numbers(client, tmp_path)
            run = client.runs.create(dataset_id=dataset.id, predictions=predictions(dataset))
            while_queue_runs(api, lambda: client.runs.wait(run.id))
            lines = client.runs.export(run.id).splitlines()
            assert [json.loads(line)["prediction"] for line in lines] == ["0", "1", "2"]
            rows = list(csv.DictReader(io.StringIO(client.runs.export(run.id, format="csv"))))
            assert [row["prediction"] for row in rows] == ["0", "1", "2"]

            assert client.runs.delete(run.id) is None
            with pytest.raises(NotFoundError):
                client.runs.get(run.id)
            assert client.datasets.delete(dataset.id) is None
            with pytest.raises(NotFoundError):
                client.datasets.get(dataset.id)
            assert list(client.datasets.list()) == []


class TestModels:
    def test_register_read_list_and_delete(self, api: Api, judge: ScriptedJudge) -> None:
        with connect(api) as client:
            created = client.models.create(
                base_url=judge.base_url, model="candidate-7", api_key="sk-candidate", name="c7"
            )
            assert (created.name, created.model, created.has_api_key) == ("c7", "candidate-7", True)
            assert "sk-candidate" not in json.dumps(as_json(created))
            assert client.models.get(created.id).base_url == judge.base_url
            assert [m.id for m in client.models.list()] == [created.id]
            assert client.models.delete(created.id) is None
            with pytest.raises(NotFoundError):
                client.models.get(created.id)
            assert list(client.models.list()) == []


class TestWebhookEndpoints:
    def test_register_deliver_list_deliveries_and_delete(self, api: Api) -> None:
        with WebhookReceiver() as receiver, connect(api) as client:
            endpoint = client.webhook_endpoints.create(receiver.url, description="ci")
            assert endpoint.secret.startswith("whsec_") and endpoint.description == "ci"
            assert [e.id for e in client.webhook_endpoints.list()] == [endpoint.id]
            evaluation = client.evaluations.create(
                test_cases=exact_cases(1), metrics=[ExactMatch()], webhook_url=receiver.url
            )
            while_queue_runs(api, lambda: client.evaluations.wait(evaluation.id))
            receiver.wait_for(1, pump=api.run_queue)
            [delivery] = deliveries_of(api, client, endpoint.id)
            assert (delivery.event_type, delivery.succeeded) == ("evaluation.completed", True)
            assert client.webhook_endpoints.delete(endpoint.id) is None
            assert list(client.webhook_endpoints.list()) == []
            with pytest.raises(NotFoundError):
                list(client.webhook_endpoints.deliveries(endpoint.id))


class TestUsageAndMedia:
    def test_usage_counts_judge_calls_and_media_gives_the_stored_image(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(plausible_answer)
        with connect(api) as client:
            evaluation = client.evaluations.create(
                test_cases=[
                    {"input": ["What is shown?", {"image_url": RED}], "actual_output": "A red."}
                ],
                metrics=[GEval(name="g", criteria="c", evaluation_params=["input"])],
            )
            done = while_queue_runs(api, lambda: client.evaluations.wait(evaluation.id))
            assert done.result_counts.passed == 1
            usage = client.usage.get(group_by="model")
            assert usage.group_by == "model" and usage.judge.calls == 2
            assert [bucket.key for bucket in usage.data] == ["judge-model"]
            by_day = client.usage.get(start=datetime.date(2000, 1, 1), end="2000-01-02")
            assert (by_day.start.isoformat(), by_day.judge.calls) == ("2000-01-01", 0)

            [test_case] = client.evaluations.test_cases(evaluation.id)
            url = test_case.input_[1]["image_url"]["url"]
            assert "/v1/media/" in url
            image = client.media.get(url)
            assert image.startswith(b"\x89PNG")
            digest = hashlib.sha256(image).hexdigest()
            assert url.endswith(digest) and client.media.get(digest) == image
            with pytest.raises(NotFoundError):
                client.media.get("0" * 64)


class TestAsyncResources:
    def test_the_same_methods_awaited(self, api: Api, judge: ScriptedJudge) -> None:
        key = api.new_key()

        async def flow() -> dict[str, Any]:
            seen: dict[str, Any] = {}
            async with AsyncLoupe(api.base_url, key, httpx_args=NO_PROXY) as client:
                other = await client.datasets.create(
                    (
                        "two.jsonl",
                        b'{"messages": [{"role": "user", "content": "x"}], "answer": "y"}\n',
                    ),
                    format="general_vqa",
                )
                case = {
                    "input": ["Shown?", {"image_url": RED}],
                    "actual_output": "4",
                    "expected_output": "4",
                }
                evaluation, twin = [
                    await client.evaluations.create(test_cases=[case], metrics=[ExactMatch()])
                    for _ in range(2)
                ]
                await client.evaluations.wait(evaluation.id)
                await client.evaluations.wait(twin.id)
                [test_case] = [c async for c in client.evaluations.test_cases(evaluation.id)]
                seen["media"] = await client.media.get(test_case.input_[1]["image_url"]["url"])
                compared = await client.comparisons.create(twin.id, evaluation.id)
                seen["comparisons"] = [c.id async for c in client.comparisons.list()] == [
                    compared.id
                ]
                await client.evaluations.delete(evaluation.id)
                await client.evaluations.delete(twin.id)
                seen["evaluations"] = [e async for e in client.evaluations.list()]

                run = await client.runs.create(dataset_id=other.id, predictions=predictions(other))
                await client.runs.wait(run.id)
                seen["export"] = await client.runs.export(run.id, format="csv")
                await client.runs.delete(run.id)
                await client.datasets.delete(other.id)
                seen["datasets"] = [d async for d in client.datasets.list()]

                model = await client.models.create(base_url=judge.base_url, model="m")
                seen["model"] = (await client.models.get(model.id)).model
                seen["models"] = [m.id async for m in client.models.list()] == [model.id]
                await client.models.delete(model.id)

                hook = await client.webhook_endpoints.create("http://127.0.0.1:9/hook")
                seen["hooks"] = [h.id async for h in client.webhook_endpoints.list()] == [hook.id]
                seen["deliveries"] = [d async for d in client.webhook_endpoints.deliveries(hook.id)]
                await client.webhook_endpoints.delete(hook.id)
                seen["usage"] = (await client.usage.get(group_by="day")).group_by
            return seen

        seen = while_queue_runs(api, lambda: asyncio.run(flow()))
        assert seen["media"].startswith(b"\x89PNG")
        assert seen["evaluations"] == [] and seen["datasets"] == []
        assert [row["prediction"] for row in csv.DictReader(io.StringIO(seen["export"]))] == ["0"]
        assert (seen["model"], seen["models"], seen["hooks"]) == ("m", True, True)
        assert (seen["deliveries"], seen["usage"]) == ([], "day")
        assert seen["comparisons"] is True


class TestIdempotencyKeys:
    def test_every_create_sent_again_under_its_key_is_stored_once(
        self, api: Api, judge: ScriptedJudge, tmp_path: Path
    ) -> None:
        # Only evaluations took a key: a CI step run again after a lost answer started a second
        # run (its candidate called twice) or registered a second model or webhook endpoint.
        digits = tmp_path / "digits.jsonl"
        row = {"messages": [{"role": "user", "content": "Say 0."}], "answer": "0"}
        digits.write_text(json.dumps(row) + "\n")
        with connect(api) as client:

            def twice(kind: str, create: Any) -> list[str]:
                """Created under one key twice, then under another (keys are per tenant)."""
                return [create(f"{kind}-{n}").id for n in (1, 1, 2)]

            datasets = twice(
                "dataset",
                lambda key: client.datasets.create(
                    digits, format="general_vqa", idempotency_key=key
                ),
            )
            dataset = client.datasets.get(datasets[0])
            runs = twice(
                "run",
                lambda key: client.runs.create(
                    dataset_id=dataset.id, predictions=predictions(dataset), idempotency_key=key
                ),
            )
            models = twice(
                "model",
                lambda key: client.models.create(
                    base_url=judge.base_url, model="m", name=f"m-{key}", idempotency_key=key
                ),
            )
            while_queue_runs(api, lambda: [client.runs.wait(run) for run in runs])
            comparisons = twice(
                "comparison",
                lambda key: client.comparisons.create(runs[0], runs[2], idempotency_key=key),
            )
            hooks = twice(
                "hook",
                lambda key: client.webhook_endpoints.create(
                    f"{judge.base_url}/hook-{key}", idempotency_key=key
                ),
            )
            # Listed once each, newest first.
            listed = [comparison.id for comparison in client.comparisons.list()]
        for ids in (datasets, runs, models, comparisons, hooks):
            assert ids[0] == ids[1] != ids[2], ids
        assert listed == sorted({comparisons[0], comparisons[2]}, reverse=True)
