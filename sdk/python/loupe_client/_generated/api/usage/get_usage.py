from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.get_usage_group_by import check_get_usage_group_by
from ...models.get_usage_group_by import GetUsageGroupBy
from ...models.problem import Problem
from ...models.usage import Usage
from ...types import UNSET, Unset
from typing import cast
import datetime



def _get_kwargs(
    *,
    start: datetime.date | None | Unset = UNSET,
    end: datetime.date | None | Unset = UNSET,
    group_by: GetUsageGroupBy | Unset = 'day',

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_start: None | str | Unset
    if isinstance(start, Unset):
        json_start = UNSET
    elif isinstance(start, datetime.date):
        json_start = start.isoformat()
    else:
        json_start = start
    params["start"] = json_start

    json_end: None | str | Unset
    if isinstance(end, Unset):
        json_end = UNSET
    elif isinstance(end, datetime.date):
        json_end = end.isoformat()
    else:
        json_end = end
    params["end"] = json_end

    json_group_by: str | Unset = UNSET
    if not isinstance(group_by, Unset):
        json_group_by = group_by

    params["group_by"] = json_group_by


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/usage",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | Usage | None:
    if response.status_code == 200:
        response_200 = Usage.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())



        return response_403

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | Usage]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    start: datetime.date | None | Unset = UNSET,
    end: datetime.date | None | Unset = UNSET,
    group_by: GetUsageGroupBy | Unset = 'day',

) -> Response[Problem | Usage]:
    """ Get Usage

     The tenant's judge and candidate calls, tokens and cost (LOUPE_MODEL_PRICES) from its
    stored results, on UTC days `start`..`end` (inclusive; default the last 30 days), by day or
    by model. A cost is null when a model used had no price.

    Args:
        start (datetime.date | None | Unset):
        end (datetime.date | None | Unset):
        group_by (GetUsageGroupBy | Unset):  Default: 'day'.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Usage]
     """


    kwargs = _get_kwargs(
        start=start,
end=end,
group_by=group_by,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    start: datetime.date | None | Unset = UNSET,
    end: datetime.date | None | Unset = UNSET,
    group_by: GetUsageGroupBy | Unset = 'day',

) -> Problem | Usage | None:
    """ Get Usage

     The tenant's judge and candidate calls, tokens and cost (LOUPE_MODEL_PRICES) from its
    stored results, on UTC days `start`..`end` (inclusive; default the last 30 days), by day or
    by model. A cost is null when a model used had no price.

    Args:
        start (datetime.date | None | Unset):
        end (datetime.date | None | Unset):
        group_by (GetUsageGroupBy | Unset):  Default: 'day'.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Usage
     """


    return sync_detailed(
        client=client,
start=start,
end=end,
group_by=group_by,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    start: datetime.date | None | Unset = UNSET,
    end: datetime.date | None | Unset = UNSET,
    group_by: GetUsageGroupBy | Unset = 'day',

) -> Response[Problem | Usage]:
    """ Get Usage

     The tenant's judge and candidate calls, tokens and cost (LOUPE_MODEL_PRICES) from its
    stored results, on UTC days `start`..`end` (inclusive; default the last 30 days), by day or
    by model. A cost is null when a model used had no price.

    Args:
        start (datetime.date | None | Unset):
        end (datetime.date | None | Unset):
        group_by (GetUsageGroupBy | Unset):  Default: 'day'.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Usage]
     """


    kwargs = _get_kwargs(
        start=start,
end=end,
group_by=group_by,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    start: datetime.date | None | Unset = UNSET,
    end: datetime.date | None | Unset = UNSET,
    group_by: GetUsageGroupBy | Unset = 'day',

) -> Problem | Usage | None:
    """ Get Usage

     The tenant's judge and candidate calls, tokens and cost (LOUPE_MODEL_PRICES) from its
    stored results, on UTC days `start`..`end` (inclusive; default the last 30 days), by day or
    by model. A cost is null when a model used had no price.

    Args:
        start (datetime.date | None | Unset):
        end (datetime.date | None | Unset):
        group_by (GetUsageGroupBy | Unset):  Default: 'day'.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Usage
     """


    return (await asyncio_detailed(
        client=client,
start=start,
end=end,
group_by=group_by,

    )).parsed
