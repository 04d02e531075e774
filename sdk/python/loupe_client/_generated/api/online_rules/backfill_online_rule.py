from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.backfill import Backfill
from ...models.backfill_request import BackfillRequest
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    rule_id: str,
    *,
    body: BackfillRequest,
    idempotency_key: None | str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/online_rules/{rule_id}/backfill".format(rule_id=quote(str(rule_id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Backfill | Problem | None:
    if response.status_code == 202:
        response_202 = Backfill.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Backfill | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    rule_id: str,
    *,
    client: AuthenticatedClient,
    body: BackfillRequest,
    idempotency_key: None | str | Unset = UNSET,

) -> Response[Backfill | Problem]:
    """ Backfill Online Rule

     Apply the rule to the calls Loupe kept (those any of the tenant's rules stored) received
    from `since` to `until`: those its filter and sampling take and it has not judged are
    appended to its evaluation of today and judged, within its and the tenant's daily budget.
    At most LOUPE_BACKFILL_MAX_CALLS (10,000) kept calls per request (`truncated`; go on with
    `after`).

    Args:
        rule_id (str):
        idempotency_key (None | str | Unset): Retries with the same key and body replay the first
            response for 24 h.
        body (BackfillRequest): Which kept calls a backfill takes up: received from `since` to
            `until`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Backfill | Problem]
     """


    kwargs = _get_kwargs(
        rule_id=rule_id,
body=body,
idempotency_key=idempotency_key,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    rule_id: str,
    *,
    client: AuthenticatedClient,
    body: BackfillRequest,
    idempotency_key: None | str | Unset = UNSET,

) -> Backfill | Problem | None:
    """ Backfill Online Rule

     Apply the rule to the calls Loupe kept (those any of the tenant's rules stored) received
    from `since` to `until`: those its filter and sampling take and it has not judged are
    appended to its evaluation of today and judged, within its and the tenant's daily budget.
    At most LOUPE_BACKFILL_MAX_CALLS (10,000) kept calls per request (`truncated`; go on with
    `after`).

    Args:
        rule_id (str):
        idempotency_key (None | str | Unset): Retries with the same key and body replay the first
            response for 24 h.
        body (BackfillRequest): Which kept calls a backfill takes up: received from `since` to
            `until`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Backfill | Problem
     """


    return sync_detailed(
        rule_id=rule_id,
client=client,
body=body,
idempotency_key=idempotency_key,

    ).parsed

async def asyncio_detailed(
    rule_id: str,
    *,
    client: AuthenticatedClient,
    body: BackfillRequest,
    idempotency_key: None | str | Unset = UNSET,

) -> Response[Backfill | Problem]:
    """ Backfill Online Rule

     Apply the rule to the calls Loupe kept (those any of the tenant's rules stored) received
    from `since` to `until`: those its filter and sampling take and it has not judged are
    appended to its evaluation of today and judged, within its and the tenant's daily budget.
    At most LOUPE_BACKFILL_MAX_CALLS (10,000) kept calls per request (`truncated`; go on with
    `after`).

    Args:
        rule_id (str):
        idempotency_key (None | str | Unset): Retries with the same key and body replay the first
            response for 24 h.
        body (BackfillRequest): Which kept calls a backfill takes up: received from `since` to
            `until`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Backfill | Problem]
     """


    kwargs = _get_kwargs(
        rule_id=rule_id,
body=body,
idempotency_key=idempotency_key,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    rule_id: str,
    *,
    client: AuthenticatedClient,
    body: BackfillRequest,
    idempotency_key: None | str | Unset = UNSET,

) -> Backfill | Problem | None:
    """ Backfill Online Rule

     Apply the rule to the calls Loupe kept (those any of the tenant's rules stored) received
    from `since` to `until`: those its filter and sampling take and it has not judged are
    appended to its evaluation of today and judged, within its and the tenant's daily budget.
    At most LOUPE_BACKFILL_MAX_CALLS (10,000) kept calls per request (`truncated`; go on with
    `after`).

    Args:
        rule_id (str):
        idempotency_key (None | str | Unset): Retries with the same key and body replay the first
            response for 24 h.
        body (BackfillRequest): Which kept calls a backfill takes up: received from `since` to
            `until`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Backfill | Problem
     """


    return (await asyncio_detailed(
        rule_id=rule_id,
client=client,
body=body,
idempotency_key=idempotency_key,

    )).parsed
