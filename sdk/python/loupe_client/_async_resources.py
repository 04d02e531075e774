"""`AsyncLoupe`'s resources: the async twins of `_resources.py`, method for method."""

import asyncio
import datetime
import itertools
import time
import uuid
from collections.abc import AsyncIterator, Iterable
from types import ModuleType
from typing import Any

import httpx

from ._errors import error_from_response
from ._generated.api.comparisons import (
    create_comparison,
    get_comparison,
    list_comparison_items,
    list_comparisons,
)
from ._generated.api.datasets import (
    create_dataset,
    delete_dataset,
    get_dataset,
    list_dataset_rows,
    list_datasets,
)
from ._generated.api.evals import estimate_eval_run
from ._generated.api.evaluations import (
    append_evaluation_test_cases,
    cancel_evaluation,
    close_evaluation,
    create_evaluation,
    delete_evaluation,
    estimate_evaluation,
    export_evaluation_results,
    get_evaluation,
    list_evaluation_results,
    list_evaluation_test_cases,
    list_evaluations,
)
from ._generated.api.media import get_media
from ._generated.api.models import create_model, delete_model, get_model, list_models
from ._generated.api.runs import (
    cancel_run,
    create_run,
    delete_run,
    estimate_run,
    export_run_samples,
    get_run,
    list_run_samples,
    list_runs,
)
from ._generated.api.usage import get_usage
from ._generated.api.webhooks import (
    create_webhook_endpoint,
    delete_webhook_endpoint,
    list_webhook_deliveries,
    list_webhook_endpoints,
)
from ._generated.client import AuthenticatedClient
from ._generated.models import (
    BodyCreateDataset,
    CandidateModel,
    Comparison,
    ComparisonItem,
    Dataset,
    DatasetRow,
    Estimate,
    Evaluation,
    EvaluationResult,
    Run,
    Sample,
    TestCase,
    TestCaseBatchAppended,
    Usage,
    WebhookDelivery,
    WebhookEndpoint,
    WebhookEndpointWithSecret,
)
from ._inputs import Payload, to_json, upload
from ._resources import body_of, params
from ._shared import (
    APPEND_ATTEMPTS,
    DEFAULT_MAX_RETRIES,
    POLL_THROUGH_STATUSES,
    SEND_FAILURES,
    TERMINAL,
    checked,
    in_batches,
    key_prefix,
    may_resend,
    media_digest,
    next_poll,
    resend_after,
    retry_delay,
    sent_again,
)


class _Resource:
    def __init__(self, client: AuthenticatedClient, max_retries: int = DEFAULT_MAX_RETRIES) -> None:
        self._client = client
        self._max_retries = max_retries

    async def _send(self, endpoint: ModuleType, *args: Any, **kwargs: Any) -> httpx.Response:
        """The answer to the request `endpoint` describes, sent again as `_resources` says."""
        request = endpoint._get_kwargs(*args, **params(**kwargs))
        resend = may_resend(request)
        for attempt in itertools.count():
            last = not resend or attempt >= self._max_retries
            try:
                response = await self._client.get_async_httpx_client().request(**request)
            except httpx.TransportError:
                if last:
                    raise
                await asyncio.sleep(resend_after(None, attempt) or 0)
                continue
            delay = None if last else resend_after(response, attempt)
            if delay is None:
                return response
            await asyncio.sleep(delay)
        raise AssertionError("unreachable")

    async def _call(self, endpoint: ModuleType, *args: Any, **kwargs: Any) -> Any:
        response = await self._send(endpoint, *args, **kwargs)
        return checked(endpoint, self._client, response)

    async def _raw(self, endpoint: ModuleType, *args: Any, **kwargs: Any) -> httpx.Response:
        """The answer to the request `endpoint` describes, its body unread (see _resources)."""
        response = await self._send(endpoint, *args, **kwargs)
        if response.status_code >= 400:
            raise error_from_response(response.status_code, response.content, response.headers)
        return response

    async def _each(self, endpoint: ModuleType, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        after = None
        while True:
            page = await self._call(endpoint, *args, after=after, **kwargs)
            for item in page.data:
                yield item
            if not page.has_more or not page.data:
                return
            after = page.last_id

    async def _wait(
        self, endpoint: ModuleType, object_id: str, timeout: float, poll_interval: float | None
    ) -> Any:
        deadline = time.monotonic() + timeout
        while True:
            try:
                response: httpx.Response | None = await self._send(endpoint, object_id)
            except httpx.TransportError:
                response = None  # the service restarting: polled again until the deadline
            if response is not None and response.status_code not in POLL_THROUGH_STATUSES:
                current = checked(endpoint, self._client, response)
                if current.status in TERMINAL:
                    return current
            await asyncio.sleep(next_poll(response, deadline, poll_interval))


class Evaluations(_Resource):
    """`/v1/evaluations`: submit test cases and metrics, follow them, read every result."""

    async def create(
        self, body: Any = None, *, idempotency_key: str | None = None, **fields: Any
    ) -> Evaluation:
        """Submit an evaluation (202: it is queued); `fields` are EvaluationCreate's."""
        return await self._call(
            create_evaluation, body=body_of(body, fields), idempotency_key=idempotency_key
        )

    async def estimate(self, body: Any = None, **fields: Any) -> Estimate:
        """What submitting this body would cost (judge calls, tokens, usd per metric and in
        total); nothing is stored, no judge is called."""
        return await self._call(estimate_evaluation, body=body_of(body, fields))

    async def get(self, evaluation_id: str) -> Evaluation:
        return await self._call(get_evaluation, evaluation_id)

    def list(
        self,
        *,
        status: str | None = None,
        name: str | None = None,
        kind: str = "evaluation",
        completed_with_errors: bool | None = None,
    ) -> AsyncIterator[Evaluation]:
        """Every evaluation of the tenant, newest first, fetched page by page; with
        `kind="eval_run"`, the OpenAI eval runs instead; `completed_with_errors=True` only
        those that completed with errored results (False: only the others)."""
        return self._each(
            list_evaluations,
            status=status,
            name=name,
            kind=kind,
            completed_with_errors=completed_with_errors,
            limit=100,
        )

    def results(
        self,
        evaluation_id: str,
        *,
        metric: str | None = None,
        status: str | None = None,
        order: str | None = None,
        fragile: bool | None = None,
        page_size: int = 100,
    ) -> AsyncIterator[EvaluationResult]:
        """Every result of an evaluation, fetched page by page as the iterator advances;
        `fragile=True` only the results whose judgments straddle the threshold (False: those
        judged more than once whose judgments agree)."""
        return self._each(
            list_evaluation_results,
            evaluation_id,
            metric=metric,
            status=status,
            order=order,
            fragile=fragile,
            limit=page_size,
        )

    def test_cases(self, evaluation_id: str, *, page_size: int = 100) -> AsyncIterator[TestCase]:
        return self._each(list_evaluation_test_cases, evaluation_id, limit=page_size)

    async def export(
        self,
        evaluation_id: str,
        *,
        format: str = "jsonl",
        metric: str | None = None,
        status: str | None = None,
        fragile: bool | None = None,
    ) -> str:
        """The results as one `jsonl` or `csv` document (`fragile` filters as `results` does)."""
        response = await self._raw(
            export_evaluation_results,
            evaluation_id,
            format_=format,
            metric=metric,
            status=status,
            fragile=fragile,
        )
        return response.text

    async def create_open(self, body: Any = None, **fields: Any) -> Evaluation:
        """Submit an open evaluation (`open: true`; `test_cases` may be left out): append its
        test cases with `append` or `append_all`, then `close` it."""
        return await self.create(body, **{**fields, "open": True})

    async def append(
        self, evaluation_id: str, test_cases: Iterable[Any], *, idempotency_key: str | None = None
    ) -> TestCaseBatchAppended:
        """Append one batch (at most LOUPE_MAX_TEST_CASES) to an open evaluation; sent again
        with the same `idempotency_key` (a new one when not given), it is appended once."""
        return await self._call(
            append_evaluation_test_cases,
            evaluation_id,
            body=Payload({"test_cases": to_json(list(test_cases))}),
            idempotency_key=idempotency_key or uuid.uuid4().hex,
        )

    async def append_all(
        self,
        evaluation_id: str,
        test_cases: Iterable[Any],
        *,
        batch_size: int = 1000,
        idempotency_prefix: str | None = None,
        close: bool = False,
    ) -> int:
        """Append `test_cases` in batches of `batch_size`, each with its own key
        `<idempotency_prefix>-<n>` and sent again on a network error, 5xx, 429, or 409 while
        the batch's first send is still in progress; then close the evaluation if `close`.
        Returns the evaluation's test case count (see `Loupe`)."""
        prefix = key_prefix(idempotency_prefix)
        count = (await self.get(evaluation_id)).test_case_count
        for number, batch in enumerate(in_batches(test_cases, batch_size)):
            for attempt in range(APPEND_ATTEMPTS):
                try:
                    appended = await self.append(
                        evaluation_id, batch, idempotency_key=f"{prefix}-{number}"
                    )
                    count = appended.test_case_count
                    break
                except SEND_FAILURES as error:
                    if not sent_again(error) or attempt == APPEND_ATTEMPTS - 1:
                        raise
                    await asyncio.sleep(retry_delay(attempt, error))
        if close:
            await self.close(evaluation_id)
        return count

    async def close(self, evaluation_id: str) -> Evaluation:
        """Say an open evaluation has all its test cases (again: no change); it completes
        once every case is scored."""
        return await self._call(close_evaluation, evaluation_id)

    async def cancel(self, evaluation_id: str) -> Evaluation:
        """Stop a queued or running evaluation; a finished one raises ConflictError."""
        return await self._call(cancel_evaluation, evaluation_id)

    async def delete(self, evaluation_id: str) -> None:
        """Delete a finished evaluation (see Evaluations.delete)."""
        await self._call(delete_evaluation, evaluation_id)

    async def wait(
        self, evaluation_id: str, *, timeout: float = 600, poll_interval: float | None = None
    ) -> Evaluation:
        """The evaluation once completed, failed or canceled; polls as often as the server's
        Retry-After asks unless `poll_interval` is given. Raises TimeoutError after `timeout`."""
        return await self._wait(get_evaluation, evaluation_id, timeout, poll_interval)


class Runs(_Resource):
    """`/v1/runs`: a candidate model answers a dataset and the answers are scored."""

    async def create(
        self, body: Any = None, *, idempotency_key: str | None = None, **fields: Any
    ) -> Run:
        return await self._call(
            create_run, body=body_of(body, fields), idempotency_key=idempotency_key
        )

    async def estimate(self, body: Any = None, **fields: Any) -> Estimate:
        """What starting this run would cost, its candidate model's calls included."""
        return await self._call(estimate_run, body=body_of(body, fields))

    async def get(self, run_id: str) -> Run:
        return await self._call(get_run, run_id)

    def list(self, *, completed_with_errors: bool | None = None) -> AsyncIterator[Run]:
        """Every run, newest first; `completed_with_errors=True` only those that completed
        with errored results (False: only the others)."""
        return self._each(list_runs, completed_with_errors=completed_with_errors, limit=100)

    def samples(self, run_id: str, *, page_size: int = 100) -> AsyncIterator[Sample]:
        return self._each(list_run_samples, run_id, limit=page_size)

    async def export(self, run_id: str, *, format: str = "jsonl") -> str:
        """The samples as one `jsonl` or `csv` document."""
        return (await self._raw(export_run_samples, run_id, format_=format)).text

    async def cancel(self, run_id: str) -> Run:
        return await self._call(cancel_run, run_id)

    async def delete(self, run_id: str) -> None:
        await self._call(delete_run, run_id)

    async def wait(
        self, run_id: str, *, timeout: float = 600, poll_interval: float | None = None
    ) -> Run:
        """The run once terminal (see Evaluations.wait)."""
        return await self._wait(get_run, run_id, timeout, poll_interval)


class EvalRuns(_Resource):
    """`/v1/evals/{eval_id}/runs`: OpenAI Evals runs (create and read them with the `openai`
    package pointed at Loupe; their results are evaluations of kind `eval_run`)."""

    async def estimate(self, eval_id: str, body: Any = None, **fields: Any) -> Estimate:
        """What creating this run of the eval would cost (the body of a create: `data_source`,
        ...): its model's calls (`candidate`, for a `completions` source) and its graders', per
        criterion and in total; nothing is stored, no model is called."""
        return await self._call(estimate_eval_run, eval_id, body=body_of(body, fields))


class Evals(_Resource):
    """`/v1/evals`: OpenAI Evals definitions; `runs.estimate` prices a run before it starts."""

    def __init__(self, client: AuthenticatedClient, max_retries: int = DEFAULT_MAX_RETRIES) -> None:
        super().__init__(client, max_retries)
        self.runs = EvalRuns(client, max_retries)


class Datasets(_Resource):
    """`/v1/datasets`: uploaded datasets and their rows."""

    async def create(
        self,
        file: Any,
        *,
        format: str,
        name: str | None = None,
        idempotency_key: str | None = None,
    ) -> Dataset:
        """Upload a benchmark file (.jsonl, .tsv, .csv or a .zip with its media); every row is
        validated now.

        Args:
            file: a path, or a (filename, bytes) pair; the filename's suffix says its kind.
        """
        body = BodyCreateDataset(file=upload(file), format_=format)  # type: ignore[arg-type]
        if name is not None:
            body.name = name
        return await self._call(create_dataset, body=body, idempotency_key=idempotency_key)

    async def get(self, dataset_id: str) -> Dataset:
        return await self._call(get_dataset, dataset_id)

    def list(self) -> AsyncIterator[Dataset]:
        return self._each(list_datasets, limit=100)

    def rows(
        self, dataset_id: str, *, subset: str | None = None, page_size: int = 100
    ) -> AsyncIterator[DatasetRow]:
        return self._each(list_dataset_rows, dataset_id, subset=subset, limit=page_size)

    async def delete(self, dataset_id: str) -> None:
        await self._call(delete_dataset, dataset_id)


class Comparisons(_Resource):
    """`/v1/comparisons`: paired statistics between two evaluations or two runs."""

    async def create(
        self,
        baseline_id: str,
        candidate_id: str,
        *,
        metrics: list[str] | None = None,
        alpha: float | None = None,
        fragile: str | None = None,
        idempotency_key: str | None = None,
    ) -> Comparison:
        """Compare a candidate with a baseline; `fragile="exclude"` sets aside the items
        whose judgments straddle the threshold on either side (default "include")."""
        fields = {"baseline_id": baseline_id, "candidate_id": candidate_id}
        return await self._call(
            create_comparison,
            body=body_of(fields, {"metrics": metrics, "alpha": alpha, "fragile": fragile}),
            idempotency_key=idempotency_key,
        )

    async def get(self, comparison_id: str) -> Comparison:
        return await self._call(get_comparison, comparison_id)

    def list(self) -> AsyncIterator[Comparison]:
        """Every comparison of the tenant, newest first, fetched page by page."""
        return self._each(list_comparisons, limit=100)

    def items(
        self,
        comparison_id: str,
        *,
        metric: str | None = None,
        direction: str | None = None,
        page_size: int = 100,
    ) -> AsyncIterator[ComparisonItem]:
        return self._each(
            list_comparison_items,
            comparison_id,
            metric=metric,
            direction=direction,
            limit=page_size,
        )


class Models(_Resource):
    """`/v1/models` (see _resources.Models)."""

    async def create(
        self, body: Any = None, *, idempotency_key: str | None = None, **fields: Any
    ) -> CandidateModel:
        return await self._call(
            create_model, body=body_of(body, fields), idempotency_key=idempotency_key
        )

    async def get(self, model_id: str) -> CandidateModel:
        return await self._call(get_model, model_id)

    def list(self) -> AsyncIterator[CandidateModel]:
        return self._each(list_models, limit=100)

    async def delete(self, model_id: str) -> None:
        await self._call(delete_model, model_id)


class WebhookEndpoints(_Resource):
    """`/v1/webhook_endpoints` (see _resources.WebhookEndpoints)."""

    async def create(
        self, url: str, *, description: str | None = None, idempotency_key: str | None = None
    ) -> WebhookEndpointWithSecret:
        return await self._call(
            create_webhook_endpoint,
            body=body_of({"url": url}, {"description": description}),
            idempotency_key=idempotency_key,
        )

    def list(self) -> AsyncIterator[WebhookEndpoint]:
        return self._each(list_webhook_endpoints, limit=100)

    def deliveries(
        self, endpoint_id: str, *, page_size: int = 100
    ) -> AsyncIterator[WebhookDelivery]:
        return self._each(list_webhook_deliveries, endpoint_id, limit=page_size)

    async def delete(self, endpoint_id: str) -> None:
        await self._call(delete_webhook_endpoint, endpoint_id)


class UsageReports(_Resource):
    """`/v1/usage` (see _resources.UsageReports)."""

    async def get(
        self,
        *,
        start: datetime.date | str | None = None,
        end: datetime.date | str | None = None,
        group_by: str | None = None,
    ) -> Usage:
        return await self._call(get_usage, start=start, end=end, group_by=group_by)


class Media(_Resource):
    """`/v1/media` (see _resources.Media)."""

    async def get(self, sha256_or_url: str) -> bytes:
        return (await self._raw(get_media, media_digest(sha256_or_url))).content
