"""`Loupe`'s resources: each method calls one generated endpoint function and checks its answer."""

import datetime
import itertools
import time
import uuid
from collections.abc import Iterable, Iterator, Mapping
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
from ._generated.types import UNSET
from ._inputs import Payload, to_json, upload
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


def params(**values: Any) -> dict[str, Any]:
    """Keyword arguments for a generated function, None meaning "not sent"."""
    return {name: UNSET if value is None else value for name, value in values.items()}


def body_of(body: Any, fields: Mapping[str, Any]) -> Payload:
    """A request body from a model or dict plus keyword fields (which win), as JSON."""
    merged = dict(to_json(body) or {})
    merged.update(
        {name: value for name, value in to_json(dict(fields)).items() if value is not None}
    )
    return Payload(merged)


class _Resource:
    def __init__(self, client: AuthenticatedClient, max_retries: int = DEFAULT_MAX_RETRIES) -> None:
        self._client = client
        self._max_retries = max_retries

    def _send(self, endpoint: ModuleType, *args: Any, **kwargs: Any) -> httpx.Response:
        """The answer to the request `endpoint` describes, sent again (at most `max_retries`
        times) on no answer or a 429 or 503 as its Retry-After asks, when it is a read or a
        write under an Idempotency-Key: a POST without one is sent once, never created twice."""
        request = endpoint._get_kwargs(*args, **params(**kwargs))
        resend = may_resend(request)
        for attempt in itertools.count():
            last = not resend or attempt >= self._max_retries
            try:
                response = self._client.get_httpx_client().request(**request)
            except httpx.TransportError:
                if last:
                    raise
                time.sleep(resend_after(None, attempt) or 0)
                continue
            delay = None if last else resend_after(response, attempt)
            if delay is None:
                return response
            time.sleep(delay)
        raise AssertionError("unreachable")

    def _call(self, endpoint: ModuleType, *args: Any, **kwargs: Any) -> Any:
        response = self._send(endpoint, *args, **kwargs)
        return checked(endpoint, self._client, response)

    def _raw(self, endpoint: ModuleType, *args: Any, **kwargs: Any) -> httpx.Response:
        """The answer to the request `endpoint` describes, its body unread: the generated
        functions parse every 200 as JSON, which a CSV export or an image is not."""
        response = self._send(endpoint, *args, **kwargs)
        if response.status_code >= 400:
            raise error_from_response(response.status_code, response.content, response.headers)
        return response

    def _each(self, endpoint: ModuleType, *args: Any, **kwargs: Any) -> Iterator[Any]:
        after = None
        while True:
            page = self._call(endpoint, *args, after=after, **kwargs)
            yield from page.data
            if not page.has_more or not page.data:
                return
            after = page.last_id

    def _wait(
        self, endpoint: ModuleType, object_id: str, timeout: float, poll_interval: float | None
    ) -> Any:
        deadline = time.monotonic() + timeout
        while True:
            try:
                response: httpx.Response | None = self._send(endpoint, object_id)
            except httpx.TransportError:
                response = None  # the service restarting: polled again until the deadline
            if response is not None and response.status_code not in POLL_THROUGH_STATUSES:
                current = checked(endpoint, self._client, response)
                if current.status in TERMINAL:
                    return current
            time.sleep(next_poll(response, deadline, poll_interval))


class Evaluations(_Resource):
    """`/v1/evaluations`: submit test cases and metrics, follow them, read every result."""

    def create(
        self, body: Any = None, *, idempotency_key: str | None = None, **fields: Any
    ) -> Evaluation:
        """Submit an evaluation (202: it is queued); `fields` are EvaluationCreate's."""
        return self._call(
            create_evaluation, body=body_of(body, fields), idempotency_key=idempotency_key
        )

    def estimate(self, body: Any = None, **fields: Any) -> Estimate:
        """What submitting this body would cost (judge calls, tokens, usd per metric and in
        total); nothing is stored, no judge is called."""
        return self._call(estimate_evaluation, body=body_of(body, fields))

    def get(self, evaluation_id: str) -> Evaluation:
        return self._call(get_evaluation, evaluation_id)

    def list(
        self,
        *,
        status: str | None = None,
        name: str | None = None,
        kind: str = "evaluation",
        completed_with_errors: bool | None = None,
    ) -> Iterator[Evaluation]:
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
    ) -> Iterator[EvaluationResult]:
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

    def test_cases(self, evaluation_id: str, *, page_size: int = 100) -> Iterator[TestCase]:
        return self._each(list_evaluation_test_cases, evaluation_id, limit=page_size)

    def export(
        self,
        evaluation_id: str,
        *,
        format: str = "jsonl",
        metric: str | None = None,
        status: str | None = None,
        fragile: bool | None = None,
    ) -> str:
        """The results as one `jsonl` or `csv` document (`fragile` filters as `results` does)."""
        return self._raw(
            export_evaluation_results,
            evaluation_id,
            format_=format,
            metric=metric,
            status=status,
            fragile=fragile,
        ).text

    def create_open(self, body: Any = None, **fields: Any) -> Evaluation:
        """Submit an open evaluation (`open: true`; `test_cases` may be left out): append its
        test cases with `append` or `append_all`, then `close` it."""
        return self.create(body, **{**fields, "open": True})

    def append(
        self, evaluation_id: str, test_cases: Iterable[Any], *, idempotency_key: str | None = None
    ) -> TestCaseBatchAppended:
        """Append one batch (at most LOUPE_MAX_TEST_CASES) to an open evaluation; sent again
        with the same `idempotency_key` (a new one when not given), it is appended once."""
        return self._call(
            append_evaluation_test_cases,
            evaluation_id,
            body=Payload({"test_cases": to_json(list(test_cases))}),
            idempotency_key=idempotency_key or uuid.uuid4().hex,
        )

    def append_all(
        self,
        evaluation_id: str,
        test_cases: Iterable[Any],
        *,
        batch_size: int = 1000,
        idempotency_prefix: str | None = None,
        close: bool = False,
    ) -> int:
        """Append `test_cases` (any iterable, read lazily) in batches of `batch_size`, each
        with its own key `<idempotency_prefix>-<n>` and sent again on a network error, 5xx,
        429, or 409 while the batch's first send is still in progress; then close the
        evaluation if `close`. Returns the evaluation's test case count.

        Give `idempotency_prefix` to resume an interrupted upload by running it again: the
        batches already appended are replayed, not appended twice (within the server's
        LOUPE_IDEMPOTENCY_RETENTION_HOURS of each batch's first send; later a batch is new)."""
        prefix = key_prefix(idempotency_prefix)
        count = self.get(evaluation_id).test_case_count
        for number, batch in enumerate(in_batches(test_cases, batch_size)):
            for attempt in range(APPEND_ATTEMPTS):
                try:
                    count = self.append(
                        evaluation_id, batch, idempotency_key=f"{prefix}-{number}"
                    ).test_case_count
                    break
                except SEND_FAILURES as error:
                    if not sent_again(error) or attempt == APPEND_ATTEMPTS - 1:
                        raise
                    time.sleep(retry_delay(attempt, error))
        if close:
            self.close(evaluation_id)
        return count

    def close(self, evaluation_id: str) -> Evaluation:
        """Say an open evaluation has all its test cases (again: no change); it completes
        once every case is scored."""
        return self._call(close_evaluation, evaluation_id)

    def cancel(self, evaluation_id: str) -> Evaluation:
        """Stop a queued or running evaluation; a finished one raises ConflictError."""
        return self._call(cancel_evaluation, evaluation_id)

    def delete(self, evaluation_id: str) -> None:
        """Delete a finished evaluation with its test cases and results (ConflictError while
        it runs: cancel it first)."""
        self._call(delete_evaluation, evaluation_id)

    def wait(
        self, evaluation_id: str, *, timeout: float = 600, poll_interval: float | None = None
    ) -> Evaluation:
        """The evaluation once completed, failed or canceled; polls as often as the server's
        Retry-After asks unless `poll_interval` is given. Raises TimeoutError after `timeout`."""
        return self._wait(get_evaluation, evaluation_id, timeout, poll_interval)


class Runs(_Resource):
    """`/v1/runs`: a candidate model answers a dataset and the answers are scored."""

    def create(self, body: Any = None, *, idempotency_key: str | None = None, **fields: Any) -> Run:
        return self._call(create_run, body=body_of(body, fields), idempotency_key=idempotency_key)

    def estimate(self, body: Any = None, **fields: Any) -> Estimate:
        """What starting this run would cost, its candidate model's calls included."""
        return self._call(estimate_run, body=body_of(body, fields))

    def get(self, run_id: str) -> Run:
        return self._call(get_run, run_id)

    def list(self, *, completed_with_errors: bool | None = None) -> Iterator[Run]:
        """Every run, newest first; `completed_with_errors=True` only those that completed
        with errored results (False: only the others)."""
        return self._each(list_runs, completed_with_errors=completed_with_errors, limit=100)

    def samples(self, run_id: str, *, page_size: int = 100) -> Iterator[Sample]:
        return self._each(list_run_samples, run_id, limit=page_size)

    def export(self, run_id: str, *, format: str = "jsonl") -> str:
        """The samples as one `jsonl` or `csv` document."""
        return self._raw(export_run_samples, run_id, format_=format).text

    def cancel(self, run_id: str) -> Run:
        return self._call(cancel_run, run_id)

    def delete(self, run_id: str) -> None:
        """Delete a finished run with its samples (ConflictError while it runs)."""
        self._call(delete_run, run_id)

    def wait(self, run_id: str, *, timeout: float = 600, poll_interval: float | None = None) -> Run:
        """The run once terminal (see Evaluations.wait)."""
        return self._wait(get_run, run_id, timeout, poll_interval)


class EvalRuns(_Resource):
    """`/v1/evals/{eval_id}/runs`: OpenAI Evals runs (create and read them with the `openai`
    package pointed at Loupe; their results are evaluations of kind `eval_run`)."""

    def estimate(self, eval_id: str, body: Any = None, **fields: Any) -> Estimate:
        """What creating this run of the eval would cost (the body of a create: `data_source`,
        ...): its model's calls (`candidate`, for a `completions` source) and its graders', per
        criterion and in total; nothing is stored, no model is called."""
        return self._call(estimate_eval_run, eval_id, body=body_of(body, fields))


class Evals(_Resource):
    """`/v1/evals`: OpenAI Evals definitions; `runs.estimate` prices a run before it starts."""

    def __init__(self, client: AuthenticatedClient, max_retries: int = DEFAULT_MAX_RETRIES) -> None:
        super().__init__(client, max_retries)
        self.runs = EvalRuns(client, max_retries)


class Datasets(_Resource):
    """`/v1/datasets`: uploaded datasets and their rows."""

    def create(
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
        return self._call(create_dataset, body=body, idempotency_key=idempotency_key)

    def get(self, dataset_id: str) -> Dataset:
        return self._call(get_dataset, dataset_id)

    def list(self) -> Iterator[Dataset]:
        return self._each(list_datasets, limit=100)

    def rows(
        self, dataset_id: str, *, subset: str | None = None, page_size: int = 100
    ) -> Iterator[DatasetRow]:
        return self._each(list_dataset_rows, dataset_id, subset=subset, limit=page_size)

    def delete(self, dataset_id: str) -> None:
        """Delete a dataset and its rows (ConflictError while a run uses it)."""
        self._call(delete_dataset, dataset_id)


class Comparisons(_Resource):
    """`/v1/comparisons`: paired statistics between two evaluations or two runs."""

    def create(
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
        return self._call(
            create_comparison,
            body=body_of(fields, {"metrics": metrics, "alpha": alpha, "fragile": fragile}),
            idempotency_key=idempotency_key,
        )

    def get(self, comparison_id: str) -> Comparison:
        return self._call(get_comparison, comparison_id)

    def list(self) -> Iterator[Comparison]:
        """Every comparison of the tenant, newest first, fetched page by page."""
        return self._each(list_comparisons, limit=100)

    def items(
        self,
        comparison_id: str,
        *,
        metric: str | None = None,
        direction: str | None = None,
        page_size: int = 100,
    ) -> Iterator[ComparisonItem]:
        return self._each(
            list_comparison_items,
            comparison_id,
            metric=metric,
            direction=direction,
            limit=page_size,
        )


class Models(_Resource):
    """`/v1/models`: the tenant's own OpenAI-compatible endpoints, as candidates or judges."""

    def create(
        self, body: Any = None, *, idempotency_key: str | None = None, **fields: Any
    ) -> CandidateModel:
        """Register a model; `fields` are CandidateModelCreate's (`base_url`, `model`,
        `api_key`, `name`). The key is stored encrypted and never returned."""
        return self._call(create_model, body=body_of(body, fields), idempotency_key=idempotency_key)

    def get(self, model_id: str) -> CandidateModel:
        return self._call(get_model, model_id)

    def list(self) -> Iterator[CandidateModel]:
        return self._each(list_models, limit=100)

    def delete(self, model_id: str) -> None:
        self._call(delete_model, model_id)


class WebhookEndpoints(_Resource):
    """`/v1/webhook_endpoints`: where terminal events are POSTed (Standard Webhooks)."""

    def create(
        self, url: str, *, description: str | None = None, idempotency_key: str | None = None
    ) -> WebhookEndpointWithSecret:
        """Register an endpoint; the answer carries its signing `secret`, shown only here."""
        return self._call(
            create_webhook_endpoint,
            body=body_of({"url": url}, {"description": description}),
            idempotency_key=idempotency_key,
        )

    def list(self) -> Iterator[WebhookEndpoint]:
        return self._each(list_webhook_endpoints, limit=100)

    def deliveries(self, endpoint_id: str, *, page_size: int = 100) -> Iterator[WebhookDelivery]:
        """Every delivery attempt to the endpoint, newest first."""
        return self._each(list_webhook_deliveries, endpoint_id, limit=page_size)

    def delete(self, endpoint_id: str) -> None:
        self._call(delete_webhook_endpoint, endpoint_id)


class UsageReports(_Resource):
    """`/v1/usage`: the tenant's judge and candidate calls, tokens and cost."""

    def get(
        self,
        *,
        start: datetime.date | str | None = None,
        end: datetime.date | str | None = None,
        group_by: str | None = None,
    ) -> Usage:
        """Usage on UTC days `start`..`end` (ISO dates, inclusive; default the last 30 days),
        by `day` (default) or `model`."""
        return self._call(get_usage, start=start, end=end, group_by=group_by)


class Media(_Resource):
    """`/v1/media`: the images and audio stored test cases and rows refer to."""

    def get(self, sha256_or_url: str) -> bytes:
        """A stored blob's bytes, by its SHA-256 or by the URL an answer gave for it."""
        return self._raw(get_media, media_digest(sha256_or_url)).content
