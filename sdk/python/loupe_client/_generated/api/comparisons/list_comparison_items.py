from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.comparison_item_list import ComparisonItemList
from ...models.list_comparison_items_direction_type_0 import check_list_comparison_items_direction_type_0
from ...models.list_comparison_items_direction_type_0 import ListComparisonItemsDirectionType0
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    comparison_id: str,
    *,
    metric: None | str | Unset = UNSET,
    direction: ListComparisonItemsDirectionType0 | None | Unset = UNSET,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 100,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_metric: None | str | Unset
    if isinstance(metric, Unset):
        json_metric = UNSET
    else:
        json_metric = metric
    params["metric"] = json_metric

    json_direction: None | str | Unset
    if isinstance(direction, Unset):
        json_direction = UNSET
    elif isinstance(direction, str):
        json_direction = direction
    else:
        json_direction = direction
    params["direction"] = json_direction

    json_after: None | str | Unset
    if isinstance(after, Unset):
        json_after = UNSET
    else:
        json_after = after
    params["after"] = json_after

    params["limit"] = limit


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/comparisons/{comparison_id}/items".format(comparison_id=quote(str(comparison_id), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ComparisonItemList | Problem | None:
    if response.status_code == 200:
        response_200 = ComparisonItemList.from_dict(response.json())



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

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())



        return response_404

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())



        return response_409

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ComparisonItemList | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    comparison_id: str,
    *,
    client: AuthenticatedClient,
    metric: None | str | Unset = UNSET,
    direction: ListComparisonItemsDirectionType0 | None | Unset = UNSET,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 100,

) -> Response[ComparisonItemList | Problem]:
    """ List Comparison Items

     Matched items that moved, with both scores and both reasons, largest moves first.

    Args:
        comparison_id (str):
        metric (None | str | Unset):
        direction (ListComparisonItemsDirectionType0 | None | Unset):
        after (None | str | Unset):
        limit (int | Unset):  Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ComparisonItemList | Problem]
     """


    kwargs = _get_kwargs(
        comparison_id=comparison_id,
metric=metric,
direction=direction,
after=after,
limit=limit,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    comparison_id: str,
    *,
    client: AuthenticatedClient,
    metric: None | str | Unset = UNSET,
    direction: ListComparisonItemsDirectionType0 | None | Unset = UNSET,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 100,

) -> ComparisonItemList | Problem | None:
    """ List Comparison Items

     Matched items that moved, with both scores and both reasons, largest moves first.

    Args:
        comparison_id (str):
        metric (None | str | Unset):
        direction (ListComparisonItemsDirectionType0 | None | Unset):
        after (None | str | Unset):
        limit (int | Unset):  Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ComparisonItemList | Problem
     """


    return sync_detailed(
        comparison_id=comparison_id,
client=client,
metric=metric,
direction=direction,
after=after,
limit=limit,

    ).parsed

async def asyncio_detailed(
    comparison_id: str,
    *,
    client: AuthenticatedClient,
    metric: None | str | Unset = UNSET,
    direction: ListComparisonItemsDirectionType0 | None | Unset = UNSET,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 100,

) -> Response[ComparisonItemList | Problem]:
    """ List Comparison Items

     Matched items that moved, with both scores and both reasons, largest moves first.

    Args:
        comparison_id (str):
        metric (None | str | Unset):
        direction (ListComparisonItemsDirectionType0 | None | Unset):
        after (None | str | Unset):
        limit (int | Unset):  Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ComparisonItemList | Problem]
     """


    kwargs = _get_kwargs(
        comparison_id=comparison_id,
metric=metric,
direction=direction,
after=after,
limit=limit,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    comparison_id: str,
    *,
    client: AuthenticatedClient,
    metric: None | str | Unset = UNSET,
    direction: ListComparisonItemsDirectionType0 | None | Unset = UNSET,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 100,

) -> ComparisonItemList | Problem | None:
    """ List Comparison Items

     Matched items that moved, with both scores and both reasons, largest moves first.

    Args:
        comparison_id (str):
        metric (None | str | Unset):
        direction (ListComparisonItemsDirectionType0 | None | Unset):
        after (None | str | Unset):
        limit (int | Unset):  Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ComparisonItemList | Problem
     """


    return (await asyncio_detailed(
        comparison_id=comparison_id,
client=client,
metric=metric,
direction=direction,
after=after,
limit=limit,

    )).parsed
