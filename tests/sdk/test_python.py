"""The Python SDK (sdk/python) against a live Loupe on both backends, with the scripted judge."""

import asyncio
import csv
import io
import json
import math
import time
import traceback
from pathlib import Path
from typing import Any

import httpx
import pytest
from loupe_client import (
    AsyncLoupe,
    AuthenticationError,
    ConflictError,
    ContextualPrecision,
    ContextualRecall,
    ExactMatch,
    Faithfulness,
    GEval,
    ImageUrlPart,
    Loupe,
    LoupeError,
    NotFoundError,
    PayloadTooLargeError,
    RateLimitError,
    RequestError,
    ServerError,
    TestCase,
    TextPart,
    UnsupportedMediaTypeError,
    ValidationError,
)
from loupe_client._errors import error_from_response
from loupe_client._generated.types import Response
from loupe_client._shared import next_poll
from sqlalchemy import text

from app.tenants import repository as tenants_repository
from tests.fixtures.api import Api, side_app
from tests.fixtures.judge import JUDGED_METRICS, Reply, ScriptedJudge, plausible_answer
from tests.fixtures.services import free_port
from tests.sdk.helpers import BLUE, RED, while_queue_runs

NO_PROXY = {"trust_env": False}


def connect(api: Api, key: str | None = None) -> Loupe:
    return Loupe(api.base_url, key or api.new_key(), httpx_args=NO_PROXY)


def shape_case(i: int) -> TestCase:
    return TestCase(
        id=f"case-{i}",
        input=["What shape is shown?", ImageUrlPart(RED)],
        actual_output=[TextPart(text=f"A red circle, number {i}.")],
        expected_output="A red circle.",
        retrieval_context=[f"Doc {i}: the logo is a red circle.", [ImageUrlPart(BLUE)]],
        metadata={"position": i},
    )


class TestEvaluations:
    def test_images_and_judged_metrics_waited_for_and_read_page_by_page(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(plausible_answer)
        with connect(api) as client:
            created = client.evaluations.create(
                name="sdk shapes",
                metadata={"team": "vision"},
                test_cases=[shape_case(i) for i in range(5)],
                metrics=[
                    GEval(
                        name="helpfulness",
                        criteria="Does the output answer the input?",
                        evaluation_params=["input", "actual_output"],
                    ),
                    Faithfulness(),
                    ContextualPrecision(),
                    ContextualRecall(),
                ],
            )
            assert created.status == "queued" and created.metadata == {"team": "vision"}

            final = while_queue_runs(api, lambda: client.evaluations.wait(created.id, timeout=120))
            assert final.status == "completed"
            assert final.result_counts.to_dict() == {
                "total": 20,
                "passed": 20,
                "failed": 0,
                "errored": 0,
                "pending": 0,
                "canceled": 0,
                "skipped": 0,
            }

            # Pages of 3: seven requests, every result once.
            results = list(client.evaluations.results(created.id, page_size=3))
            assert len(results) == 20 and len({r.id for r in results}) == 20
            assert {(r.test_case_id, r.metric) for r in results} == {
                (f"case-{i}", metric)
                for i in range(5)
                for metric in (
                    "helpfulness",
                    "faithfulness",
                    "contextual_precision",
                    "contextual_recall",
                )
            }
            geval = next(r for r in results if r.metric == "helpfulness")
            assert isinstance(geval.logs, dict)
            assert geval.logs["score_mode"] == "logprob_weighted"
            assert geval.reason == "It names the shape correctly."
            faithfulness = list(client.evaluations.results(created.id, metric="faithfulness"))
            assert [r.logs["truths"] for r in faithfulness] == [["The logo is a red circle."]] * 5

            cases = list(client.evaluations.test_cases(created.id, page_size=2))
            assert [c.metadata for c in cases] == [{"position": i} for i in range(5)]

            exported = list(
                csv.DictReader(io.StringIO(client.evaluations.export(created.id, format="csv")))
            )
            assert len(exported) == 20
            assert any(e.id == created.id for e in client.evaluations.list(name="sdk shapes"))

    def test_async_client_takes_plain_dicts_without_part_types(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(plausible_answer)
        key = api.new_key()

        async def flow() -> tuple[Any, list[Any]]:
            async with AsyncLoupe(api.base_url, key, httpx_args=NO_PROXY) as client:
                created = await client.evaluations.create(
                    {
                        "test_cases": [
                            {
                                "input": [{"text": "What shape is shown?"}, {"image_url": RED}],
                                "actual_output": f"A red circle, number {i}.",
                                "expected_output": "A red circle.",
                                "retrieval_context": [
                                    f"Doc {i}: a red circle.",
                                    [{"image_url": BLUE}],
                                ],
                            }
                            for i in range(3)
                        ],
                        "metrics": JUDGED_METRICS,
                    },
                    idempotency_key=f"async-{key[-8:]}",
                )
                final = await client.evaluations.wait(created.id, timeout=120)
                results = [r async for r in client.evaluations.results(final.id, page_size=5)]
                return final, results

        final, results = while_queue_runs(api, lambda: asyncio.run(flow()))
        assert final.status == "completed" and final.result_counts.passed == 12
        assert len({r.id for r in results}) == 12
        assert all(isinstance(r.logs, dict) for r in results)

    def test_wait_gives_up_then_cancel_and_cancel_again_conflicts(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        # A slow judge (embedded) or an idle queue (distributed): nothing finishes in time.
        judge.script(lambda request: Reply(content="{}", delay=2))
        with connect(api) as client:
            created = client.evaluations.create(
                test_cases=[{"input": "q", "actual_output": "a"}],
                metrics=[GEval(name="g", criteria="c", evaluation_params=["actual_output"])],
            )
            with pytest.raises(TimeoutError):
                client.evaluations.wait(created.id, timeout=0.3)
            assert client.evaluations.cancel(created.id).status == "canceled"
            with pytest.raises(ConflictError) as conflict:
                client.evaluations.cancel(created.id)
            assert conflict.value.status == 409 and conflict.value.title == "Conflict"
            assert conflict.value.detail


class TestDatasets:
    def test_upload_read_back_every_row_and_a_bad_line(self, api: Api, tmp_path: Path) -> None:
        lines = [
            {"messages": [{"role": "user", "content": f"Say {i}."}], "answer": str(i)}
            for i in range(3)
        ]
        path = tmp_path / "say.jsonl"
        path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
        with connect(api) as client:
            dataset = client.datasets.create(path, format="general_vqa", name="say numbers")
            assert (dataset.name, dataset.filename, dataset.row_count) == (
                "say numbers",
                "say.jsonl",
                3,
            )
            assert client.datasets.get(dataset.id).id == dataset.id
            rows = list(client.datasets.rows(dataset.id, page_size=2))
            assert [row.answer for row in rows] == ["0", "1", "2"]
            assert [d.id for d in client.datasets.list()] == [dataset.id]

            with pytest.raises(ValidationError) as invalid:
                client.datasets.create(("bad.jsonl", b"{oops\n"), format="general_vqa")
            assert invalid.value.errors[0]["loc"].startswith("bad.jsonl:1")


class TestComparisons:
    def test_compare_two_evaluations_and_read_items(self, api: Api) -> None:
        with connect(api) as client:
            ids = []
            for answers in (["4", "Paris", "blue"], ["4", "Lyon", "red"]):
                created = client.evaluations.create(
                    test_cases=[
                        {
                            "id": f"q{i}",
                            "input": "?",
                            "actual_output": answer,
                            "expected_output": truth,
                        }
                        for i, (answer, truth) in enumerate(
                            zip(answers, ["4", "Paris", "blue"], strict=True)
                        )
                    ],
                    metrics=[ExactMatch()],
                )
                ids.append(
                    while_queue_runs(api, lambda c=created: client.evaluations.wait(c.id)).id
                )
            comparison = client.comparisons.create(ids[0], ids[1])
            [metric] = comparison.metrics
            assert (metric.metric, metric.baseline_mean, metric.n) == ("exact_match", 1.0, 3)
            assert client.comparisons.get(comparison.id).id == comparison.id
            assert [listed.id for listed in client.comparisons.list()] == [comparison.id]
            items = list(client.comparisons.items(comparison.id, page_size=1))
            assert sorted(i.test_case_id for i in items if i.difference) == ["q1", "q2"]


def say_numbers(client: Loupe, tmp_path: Path, count: int = 3) -> Any:
    """A general_vqa dataset of `count` rows ("Say i." → "i")."""
    lines = [
        {"messages": [{"role": "user", "content": f"Say {i}."}], "answer": str(i)}
        for i in range(count)
    ]
    path = tmp_path / "say.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    return client.datasets.create(path, format="general_vqa", name="say numbers")


def as_json(model: Any) -> dict[str, Any]:
    """A returned model's to_dict(), checked to be JSON as the API sent it."""
    found = model.to_dict()
    json.dumps(found, allow_nan=False)
    return found


class TestToDict:
    def test_every_returned_model_serialises(self, api: Api, tmp_path: Path) -> None:
        # The free-form fields (metadata, logs, generation, scores, messages) are dicts, and
        # the generated to_dict() called .to_dict() on them: AttributeError on every model.
        with connect(api) as client:
            created = client.evaluations.create(
                metadata={"team": "vision"},
                test_cases=[
                    TestCase(
                        id=f"q{i}",
                        input="?",
                        actual_output=answer,
                        expected_output="4",
                        metadata={"position": i},
                    )
                    for i, answer in enumerate(["4", "5"])
                ],
                metrics=[ExactMatch()],
            )
            assert as_json(created)["metadata"] == {"team": "vision"}
            done = while_queue_runs(api, lambda: client.evaluations.wait(created.id))
            assert as_json(done)["result_counts"]["passed"] == 1
            assert as_json(client.evaluations.get(created.id))["metadata"] == {"team": "vision"}
            assert as_json(next(iter(client.evaluations.list())))["id"] == created.id
            result = next(iter(client.evaluations.results(created.id)))
            assert isinstance(result.logs, dict) and as_json(result)["logs"] == result.logs
            test_case = next(iter(client.evaluations.test_cases(created.id)))
            assert as_json(test_case)["metadata"] == {"position": 0}

            dataset = say_numbers(client, tmp_path)
            assert as_json(dataset)["row_count"] == 3
            assert as_json(client.datasets.get(dataset.id))["id"] == dataset.id
            assert as_json(next(iter(client.datasets.list())))["id"] == dataset.id
            row = as_json(next(iter(client.datasets.rows(dataset.id))))
            assert row["messages"] == [{"role": "user", "content": "Say 0."}]

            run = client.runs.create(
                dataset_id=dataset.id,
                metadata={"candidate": "v1"},
                predictions=[
                    {"subset": dataset.subsets[0].name, "index": i, "prediction": str(i)}
                    for i in range(3)
                ],
            )
            assert as_json(run)["metadata"] == {"candidate": "v1"}
            finished = while_queue_runs(api, lambda: client.runs.wait(run.id))
            assert as_json(finished)["status"] == "completed"
            assert as_json(client.runs.get(run.id))["id"] == run.id
            assert as_json(next(iter(client.runs.list())))["id"] == run.id
            sample = next(iter(client.runs.samples(run.id)))
            assert isinstance(sample.scores, dict) and as_json(sample)["scores"] == sample.scores

            other = client.evaluations.create(
                test_cases=[
                    {"id": "q0", "input": "?", "actual_output": "5", "expected_output": "4"}
                ],
                metrics=[ExactMatch()],
            )
            while_queue_runs(api, lambda: client.evaluations.wait(other.id))
            comparison = client.comparisons.create(created.id, other.id)
            assert as_json(comparison)["metrics"][0]["metric"] == "exact_match"
            assert as_json(client.comparisons.get(comparison.id))["id"] == comparison.id
            assert as_json(next(iter(client.comparisons.items(comparison.id))))["test_case_id"]


class TestErrors:
    def test_validation_error_lists_each_bad_field(self, api: Api) -> None:
        with connect(api) as client, pytest.raises(ValidationError) as invalid:
            client.evaluations.create(
                test_cases=[TestCase(input="q", actual_output="a")], metrics=[ExactMatch()]
            )
        assert invalid.value.status == 422 and invalid.value.title
        assert [e["loc"] for e in invalid.value.errors] == ["test_cases[0].expected_output"]

    def test_a_number_json_cannot_carry_is_a_validation_error_before_sending(
        self, api: Api
    ) -> None:
        # It was httpx's bare ValueError ("Out of range float values are not JSON compliant").
        key = api.new_key()
        case = {"input": "q", "actual_output": "a", "expected_output": "a"}
        with connect(api, key) as client:
            with pytest.raises(ValidationError) as invalid:
                client.evaluations.create(
                    test_cases=[case, {**case, "metadata": {"n": math.nan}}],
                    metrics=[ExactMatch()],
                )
            assert invalid.value.status == 422
            (error,) = invalid.value.errors
            assert error["loc"] == "test_cases[1].metadata.n" and error["msg"].startswith(
                "NaN is not a JSON number"
            )
            assert "test_cases[1].metadata.n" in str(invalid.value)
            # 1e400 in a JSON file is read as Infinity.
            with pytest.raises(ValidationError) as invalid:
                client.evaluations.create(
                    test_cases=[case], metrics=[{"type": "exact_match", "threshold": 1e400}]
                )
            assert [e["loc"] for e in invalid.value.errors] == ["metrics[0].threshold"]
            assert invalid.value.errors[0]["msg"].startswith("Infinity is not a JSON number")
            # Nothing was sent.
            assert list(client.evaluations.list()) == []

        async def appended() -> None:
            async with AsyncLoupe(api.base_url, key, httpx_args=NO_PROXY) as client:
                await client.evaluations.append("evn_x", [{**case, "metadata": {"n": -math.inf}}])

        with pytest.raises(ValidationError) as invalid:
            asyncio.run(appended())
        assert [e["loc"] for e in invalid.value.errors] == ["test_cases[0].metadata.n"]
        assert invalid.value.errors[0]["msg"].startswith("-Infinity is not a JSON number")

    def test_a_misspelt_field_reaches_the_api_and_is_refused(self, api: Api) -> None:
        with connect(api) as client, pytest.raises(ValidationError) as invalid:
            client.evaluations.create(
                test_cases=[{"input": "q", "actual_output": "a", "expected_output": "a"}],
                metrics=[{"type": "exact_match", "treshold": 0.5}],
            )
        assert [e["loc"] for e in invalid.value.errors] == ["metrics[0].treshold"]

    def test_past_the_tenant_limit_is_a_rate_limit_error(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        name = f"sdk-limited-{api.mode}"
        key = api.new_key(name)
        with api.served.runtime.session() as session:
            tenant = tenants_repository.tenant_by_name(session, name)
            assert tenant is not None
            tenant.max_active_evaluations = 1
            session.commit()
        # A slow judge (embedded) or an idle queue (distributed) keeps the first one active.
        judge.script(lambda request: Reply(content="{}", delay=2))
        slow = {
            "test_cases": [{"input": "q", "actual_output": "a"}],
            "metrics": [GEval(name="g", criteria="c", evaluation_params=["actual_output"])],
        }
        with connect(api, key) as client:
            first = client.evaluations.create(slow)
            with pytest.raises(RateLimitError) as limited:
                client.evaluations.create(slow)
            client.evaluations.cancel(first.id)
        assert limited.value.status == 429 and limited.value.retry_after == 30
        assert "max_active_evaluations is 1" in (limited.value.detail or "")

    def test_an_oversized_body_is_payload_too_large(self, api: Api) -> None:
        # The test server takes 4 MiB; the base LoupeError was all a caller could catch.
        big = {"input": "x" * (5 * 1024 * 1024), "actual_output": "a", "expected_output": "a"}
        with connect(api) as client, pytest.raises(PayloadTooLargeError) as refused:
            client.evaluations.create(test_cases=[big], metrics=[ExactMatch()])
        assert isinstance(refused.value, RequestError) and refused.value.status == 413
        assert "LOUPE_MAX_BODY_BYTES" in (refused.value.detail or "")

    def test_a_body_that_is_not_json_is_unsupported_media_type(self, api: Api) -> None:
        # No resource method sends anything but JSON: the connection they share does.
        with connect(api) as client:
            answer = client.api.get_httpx_client().post(
                "/v1/models", content=b"base_url=x", headers={"Content-Type": "text/plain"}
            )
        error = error_from_response(answer.status_code, answer.content, answer.headers)
        assert isinstance(error, UnsupportedMediaTypeError) and isinstance(error, RequestError)
        assert error.status == 415 and error.errors[0]["loc"] == "body"

    def test_wrong_key_is_an_authentication_error(self, api: Api) -> None:
        with connect(api, "lp_not_a_key") as client, pytest.raises(AuthenticationError) as denied:
            client.evaluations.get("eval_anything")
        assert denied.value.status == 401

    def test_a_key_without_the_scope_names_the_scope_it_lacks(self, api: Api) -> None:
        case = {"input": "q", "actual_output": "a", "expected_output": "a"}
        with (
            connect(api, api.new_key(scopes=["read"])) as client,
            pytest.raises(AuthenticationError) as denied,
        ):
            client.evaluations.create(test_cases=[case], metrics=[ExactMatch()])
        assert denied.value.status == 403 and denied.value.required_scope == "write"
        # The whole problem, members the client has no attribute for included.
        assert denied.value.problem["required_scope"] == "write"
        assert denied.value.problem["status"] == 403 and denied.value.problem["type"].endswith(
            denied.value.type.rsplit("/", 1)[-1]
        )

    def test_the_key_is_in_no_repr_nor_in_a_traceback_with_its_locals(self, api: Api) -> None:
        # Error trackers and `pytest --showlocals` print every frame's locals: the generated
        # functions hold the connection, whose generated repr printed the token.
        key = api.new_key()
        with connect(api, key) as client:
            client.evaluations.get(client.evaluations.create_open(metrics=[ExactMatch()]).id)
            printed = [repr(client.api), repr(vars(client.evaluations))]
        unreachable = Loupe(f"http://127.0.0.1:{free_port()}", key, httpx_args=NO_PROXY)
        with unreachable, pytest.raises(httpx.ConnectError) as refused:
            unreachable.evaluations.get("evn_anything")
        sdk_frames = traceback.walk_tb(refused.value.__traceback__.tb_next)  # past this test's
        printed.append(
            "".join(traceback.StackSummary.extract(sdk_frames, capture_locals=True).format())
        )
        assert "evn_anything" in printed[-1] and "Connection(base_url=" in printed[1]
        assert not [text for text in printed if key in text]

    def test_missing_objects_are_not_found(self, api: Api) -> None:
        with connect(api) as client:
            for missing in (
                lambda: client.evaluations.get("eval_missing"),
                lambda: client.runs.get("run_missing"),
                lambda: client.datasets.get("ds_missing"),
                lambda: client.comparisons.get("cmp_missing"),
                lambda: list(client.evaluations.results("eval_missing")),
            ):
                with pytest.raises(NotFoundError) as absent:
                    missing()
                assert absent.value.status == 404 and absent.value.detail
            assert list(client.runs.list()) == []

    def test_a_broken_database_is_a_server_error(
        self, tmp_path_factory: pytest.TempPathFactory
    ) -> None:
        with side_app(tmp_path_factory.mktemp("broken")) as broken:
            key = broken.new_key()
            with broken.served.runtime.session() as session:
                session.execute(text("ALTER TABLE evaluation RENAME TO evaluation_gone"))
                session.commit()
            with connect(broken, key) as client, pytest.raises(ServerError) as failed:
                client.evaluations.get("eval_anything")
        assert failed.value.status == 500 and failed.value.title == "Internal Server Error"


class TestInputs:
    def test_types_filled_in_and_dicts_taken_as_they_are(self) -> None:
        from loupe_client._inputs import to_json

        body = to_json(
            {
                "test_cases": [
                    TestCase(input=[TextPart(text="hi"), ImageUrlPart(RED)], actual_output="a"),
                    {"input": [{"text": "q"}, {"image_url": BLUE}], "actual_output": "b"},
                ],
                "metrics": [ExactMatch(), {"type": "bleu", "unknown_field": 1}],
            }
        )
        assert body["test_cases"][0]["input"] == [
            {"type": "text", "text": "hi"},
            {"type": "image_url", "image_url": {"url": RED}},
        ]
        assert body["test_cases"][1]["input"] == [
            {"type": "text", "text": "q"},
            {"type": "image_url", "image_url": {"url": BLUE}},
        ]
        assert body["metrics"][0]["type"] == "exact_match"
        # Sent as written, so the API (not the client) says what is wrong with it.
        assert body["metrics"][1] == {"type": "bleu", "unknown_field": 1}


class TestErrorParsing:
    """The mapping checked on bytes Loupe itself does not send (Retry-After in a 429 body's
    headers, a proxy's HTML 502)."""

    def test_rate_limit_carries_retry_after(self) -> None:
        error = error_from_response(
            429,
            b'{"type":"about:blank","title":"Too Many Requests","status":429,"detail":"slow down"}',
            httpx.Headers({"Retry-After": "7"}),
        )
        assert isinstance(error, RateLimitError) and isinstance(error, LoupeError)
        assert (error.status, error.title, error.detail, error.retry_after) == (
            429,
            "Too Many Requests",
            "slow down",
            7.0,
        )

    def test_a_body_that_is_not_a_problem_still_gives_the_status(self) -> None:
        error = error_from_response(502, b"<html>bad gateway</html>", httpx.Headers())
        assert isinstance(error, ServerError) and error.title == "Bad Gateway"

    def test_other_client_errors_are_request_errors(self) -> None:
        gone = error_from_response(410, b"", httpx.Headers())
        assert type(gone) is RequestError and gone.title == "Gone"
        assert isinstance(error_from_response(422, b"{}", httpx.Headers()), RequestError)

    def test_polling_follows_retry_after_within_the_deadline(self) -> None:
        response = Response(
            status_code=200, content=b"", headers=httpx.Headers({"Retry-After": "2"}), parsed=None
        )
        far, near = 1e9, 0.5
        now = time.monotonic()
        assert next_poll(response, now + far, None) == 2.0
        assert next_poll(response, now + far, 0.25) == 0.25
        assert next_poll(response, now + near, None) <= near
        with pytest.raises(TimeoutError):
            next_poll(response, now - 1, None)

    def test_polling_never_spins(self) -> None:
        # A poll_interval of 0, or a proxy's Retry-After: 0, polled as fast as the loop ran.
        now_answer = Response(
            status_code=200, content=b"", headers=httpx.Headers({"Retry-After": "0"}), parsed=None
        )
        far = time.monotonic() + 1e9
        assert next_poll(now_answer, far, 0) == 0.1
        assert next_poll(now_answer, far, None) == 1.0  # the interval without a Retry-After
        assert next_poll(None, far, None) == 1.0  # no answer at all: the same
