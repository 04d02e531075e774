from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.alignment import Alignment
from ...models.alignment_create import AlignmentCreate
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    body: AlignmentCreate,
    idempotency_key: None | str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/alignments",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Alignment | Problem | None:
    if response.status_code == 202:
        response_202 = Alignment.from_dict(response.json())



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

    if response.status_code == 415:
        response_415 = Problem.from_dict(response.json())



        return response_415

    if response.status_code == 422:
        response_422 = Problem.from_dict(response.json())



        return response_422

    if response.status_code == 429:
        response_429 = Problem.from_dict(response.json())



        return response_429

    if response.status_code == 502:
        response_502 = Problem.from_dict(response.json())



        return response_502

    if response.status_code == 503:
        response_503 = Problem.from_dict(response.json())



        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Alignment | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: AlignmentCreate,
    idempotency_key: None | str | Unset = UNSET,

) -> Response[Alignment | Problem]:
    """ Create Alignment

     Propose a candidate version of a judged metric from its labelled disagreements, and
    judge a held-out share of the labels with it and with the current version; poll
    `Location` for κ before and after. The rubric notes are written by one judge call made
    before this answers; the judging runs on workers.

    Args:
        idempotency_key (None | str | Unset): Retries with the same key and body replay the first
            response for 24 h.
        body (AlignmentCreate): Which metric version to align, and how to split its labelled
            items.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Alignment | Problem]
     """


    kwargs = _get_kwargs(
        body=body,
idempotency_key=idempotency_key,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    body: AlignmentCreate,
    idempotency_key: None | str | Unset = UNSET,

) -> Alignment | Problem | None:
    """ Create Alignment

     Propose a candidate version of a judged metric from its labelled disagreements, and
    judge a held-out share of the labels with it and with the current version; poll
    `Location` for κ before and after. The rubric notes are written by one judge call made
    before this answers; the judging runs on workers.

    Args:
        idempotency_key (None | str | Unset): Retries with the same key and body replay the first
            response for 24 h.
        body (AlignmentCreate): Which metric version to align, and how to split its labelled
            items.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Alignment | Problem
     """


    return sync_detailed(
        client=client,
body=body,
idempotency_key=idempotency_key,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: AlignmentCreate,
    idempotency_key: None | str | Unset = UNSET,

) -> Response[Alignment | Problem]:
    """ Create Alignment

     Propose a candidate version of a judged metric from its labelled disagreements, and
    judge a held-out share of the labels with it and with the current version; poll
    `Location` for κ before and after. The rubric notes are written by one judge call made
    before this answers; the judging runs on workers.

    Args:
        idempotency_key (None | str | Unset): Retries with the same key and body replay the first
            response for 24 h.
        body (AlignmentCreate): Which metric version to align, and how to split its labelled
            items.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Alignment | Problem]
     """


    kwargs = _get_kwargs(
        body=body,
idempotency_key=idempotency_key,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    body: AlignmentCreate,
    idempotency_key: None | str | Unset = UNSET,

) -> Alignment | Problem | None:
    """ Create Alignment

     Propose a candidate version of a judged metric from its labelled disagreements, and
    judge a held-out share of the labels with it and with the current version; poll
    `Location` for κ before and after. The rubric notes are written by one judge call made
    before this answers; the judging runs on workers.

    Args:
        idempotency_key (None | str | Unset): Retries with the same key and body replay the first
            response for 24 h.
        body (AlignmentCreate): Which metric version to align, and how to split its labelled
            items.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Alignment | Problem
     """


    return (await asyncio_detailed(
        client=client,
body=body,
idempotency_key=idempotency_key,

    )).parsed
