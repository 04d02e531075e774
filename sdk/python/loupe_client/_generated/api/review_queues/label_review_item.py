from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.problem import Problem
from ...models.review_label_create import ReviewLabelCreate
from ...models.review_labelled import ReviewLabelled
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    queue_id: str,
    item_id: str,
    *,
    body: ReviewLabelCreate,
    idempotency_key: None | str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/review_queues/{queue_id}/items/{item_id}/label".format(queue_id=quote(str(queue_id), safe=""),item_id=quote(str(item_id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | ReviewLabelled | None:
    if response.status_code == 200:
        response_200 = ReviewLabelled.from_dict(response.json())



        return response_200

    if response.status_code == 201:
        response_201 = ReviewLabelled.from_dict(response.json())



        return response_201

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | ReviewLabelled]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    queue_id: str,
    item_id: str,
    *,
    client: AuthenticatedClient,
    body: ReviewLabelCreate,
    idempotency_key: None | str | Unset = UNSET,

) -> Response[Problem | ReviewLabelled]:
    """ Label Review Item

     Label the item you reserved (stored as a label, bound to the metric version) and read
    what the judge said: its score, pass / fail and reason. The first time is a 201 with
    `Location: /v1/labels/{id}`, as `POST /v1/labels` answers; the same label again a 200.

    Args:
        queue_id (str):
        item_id (str):
        idempotency_key (None | str | Unset): Retries with the same key and body replay the first
            response for 24 h.
        body (ReviewLabelCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | ReviewLabelled]
     """


    kwargs = _get_kwargs(
        queue_id=queue_id,
item_id=item_id,
body=body,
idempotency_key=idempotency_key,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    queue_id: str,
    item_id: str,
    *,
    client: AuthenticatedClient,
    body: ReviewLabelCreate,
    idempotency_key: None | str | Unset = UNSET,

) -> Problem | ReviewLabelled | None:
    """ Label Review Item

     Label the item you reserved (stored as a label, bound to the metric version) and read
    what the judge said: its score, pass / fail and reason. The first time is a 201 with
    `Location: /v1/labels/{id}`, as `POST /v1/labels` answers; the same label again a 200.

    Args:
        queue_id (str):
        item_id (str):
        idempotency_key (None | str | Unset): Retries with the same key and body replay the first
            response for 24 h.
        body (ReviewLabelCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | ReviewLabelled
     """


    return sync_detailed(
        queue_id=queue_id,
item_id=item_id,
client=client,
body=body,
idempotency_key=idempotency_key,

    ).parsed

async def asyncio_detailed(
    queue_id: str,
    item_id: str,
    *,
    client: AuthenticatedClient,
    body: ReviewLabelCreate,
    idempotency_key: None | str | Unset = UNSET,

) -> Response[Problem | ReviewLabelled]:
    """ Label Review Item

     Label the item you reserved (stored as a label, bound to the metric version) and read
    what the judge said: its score, pass / fail and reason. The first time is a 201 with
    `Location: /v1/labels/{id}`, as `POST /v1/labels` answers; the same label again a 200.

    Args:
        queue_id (str):
        item_id (str):
        idempotency_key (None | str | Unset): Retries with the same key and body replay the first
            response for 24 h.
        body (ReviewLabelCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | ReviewLabelled]
     """


    kwargs = _get_kwargs(
        queue_id=queue_id,
item_id=item_id,
body=body,
idempotency_key=idempotency_key,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    queue_id: str,
    item_id: str,
    *,
    client: AuthenticatedClient,
    body: ReviewLabelCreate,
    idempotency_key: None | str | Unset = UNSET,

) -> Problem | ReviewLabelled | None:
    """ Label Review Item

     Label the item you reserved (stored as a label, bound to the metric version) and read
    what the judge said: its score, pass / fail and reason. The first time is a 201 with
    `Location: /v1/labels/{id}`, as `POST /v1/labels` answers; the same label again a 200.

    Args:
        queue_id (str):
        item_id (str):
        idempotency_key (None | str | Unset): Retries with the same key and body replay the first
            response for 24 h.
        body (ReviewLabelCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | ReviewLabelled
     """


    return (await asyncio_detailed(
        queue_id=queue_id,
item_id=item_id,
client=client,
body=body,
idempotency_key=idempotency_key,

    )).parsed
