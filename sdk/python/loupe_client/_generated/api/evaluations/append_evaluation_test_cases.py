from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.problem import Problem
from ...models.test_case_batch import TestCaseBatch
from ...models.test_case_batch_appended import TestCaseBatchAppended
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    evaluation_id: str,
    *,
    body: TestCaseBatch,
    idempotency_key: None | str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/evaluations/{evaluation_id}/test_cases".format(evaluation_id=quote(str(evaluation_id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | TestCaseBatchAppended | None:
    if response.status_code == 202:
        response_202 = TestCaseBatchAppended.from_dict(response.json())



        return response_202

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())



        return response_403

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())



        return response_404

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())



        return response_409

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())



        return response_413

    if response.status_code == 415:
        response_415 = Problem.from_dict(response.json())



        return response_415

    if response.status_code == 422:
        response_422 = Problem.from_dict(response.json())



        return response_422

    if response.status_code == 429:
        response_429 = Problem.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = Problem.from_dict(response.json())



        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | TestCaseBatchAppended]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    evaluation_id: str,
    *,
    client: AuthenticatedClient,
    body: TestCaseBatch,
    idempotency_key: None | str | Unset = UNSET,

) -> Response[Problem | TestCaseBatchAppended]:
    """ Append Evaluation Test Cases

     Append a batch of test cases to an open evaluation (submitted with `open: true`); each
    case is checked as a submit's are, ids unique across batches. Send each batch with its own
    `Idempotency-Key`: a retried batch is appended once. Scoring starts right away.

    Args:
        evaluation_id (str):
        idempotency_key (None | str | Unset): Retries with the same key and body replay the first
            response for 24 h.
        body (TestCaseBatch): One batch of test cases for an open evaluation, checked as a
            submit's are.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | TestCaseBatchAppended]
     """


    kwargs = _get_kwargs(
        evaluation_id=evaluation_id,
body=body,
idempotency_key=idempotency_key,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    evaluation_id: str,
    *,
    client: AuthenticatedClient,
    body: TestCaseBatch,
    idempotency_key: None | str | Unset = UNSET,

) -> Problem | TestCaseBatchAppended | None:
    """ Append Evaluation Test Cases

     Append a batch of test cases to an open evaluation (submitted with `open: true`); each
    case is checked as a submit's are, ids unique across batches. Send each batch with its own
    `Idempotency-Key`: a retried batch is appended once. Scoring starts right away.

    Args:
        evaluation_id (str):
        idempotency_key (None | str | Unset): Retries with the same key and body replay the first
            response for 24 h.
        body (TestCaseBatch): One batch of test cases for an open evaluation, checked as a
            submit's are.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | TestCaseBatchAppended
     """


    return sync_detailed(
        evaluation_id=evaluation_id,
client=client,
body=body,
idempotency_key=idempotency_key,

    ).parsed

async def asyncio_detailed(
    evaluation_id: str,
    *,
    client: AuthenticatedClient,
    body: TestCaseBatch,
    idempotency_key: None | str | Unset = UNSET,

) -> Response[Problem | TestCaseBatchAppended]:
    """ Append Evaluation Test Cases

     Append a batch of test cases to an open evaluation (submitted with `open: true`); each
    case is checked as a submit's are, ids unique across batches. Send each batch with its own
    `Idempotency-Key`: a retried batch is appended once. Scoring starts right away.

    Args:
        evaluation_id (str):
        idempotency_key (None | str | Unset): Retries with the same key and body replay the first
            response for 24 h.
        body (TestCaseBatch): One batch of test cases for an open evaluation, checked as a
            submit's are.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | TestCaseBatchAppended]
     """


    kwargs = _get_kwargs(
        evaluation_id=evaluation_id,
body=body,
idempotency_key=idempotency_key,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    evaluation_id: str,
    *,
    client: AuthenticatedClient,
    body: TestCaseBatch,
    idempotency_key: None | str | Unset = UNSET,

) -> Problem | TestCaseBatchAppended | None:
    """ Append Evaluation Test Cases

     Append a batch of test cases to an open evaluation (submitted with `open: true`); each
    case is checked as a submit's are, ids unique across batches. Send each batch with its own
    `Idempotency-Key`: a retried batch is appended once. Scoring starts right away.

    Args:
        evaluation_id (str):
        idempotency_key (None | str | Unset): Retries with the same key and body replay the first
            response for 24 h.
        body (TestCaseBatch): One batch of test cases for an open evaluation, checked as a
            submit's are.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | TestCaseBatchAppended
     """


    return (await asyncio_detailed(
        evaluation_id=evaluation_id,
client=client,
body=body,
idempotency_key=idempotency_key,

    )).parsed
