from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.http_validation_error import HTTPValidationError
from ...models.list_evals_order import check_list_evals_order
from ...models.list_evals_order import ListEvalsOrder
from ...models.list_evals_order_by import check_list_evals_order_by
from ...models.list_evals_order_by import ListEvalsOrderBy
from ...models.list_page_eval import ListPageEval
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 20,
    order: ListEvalsOrder | Unset = 'asc',
    order_by: ListEvalsOrderBy | Unset = 'created_at',

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_after: None | str | Unset
    if isinstance(after, Unset):
        json_after = UNSET
    else:
        json_after = after
    params["after"] = json_after

    params["limit"] = limit

    json_order: str | Unset = UNSET
    if not isinstance(order, Unset):
        json_order = order

    params["order"] = json_order

    json_order_by: str | Unset = UNSET
    if not isinstance(order_by, Unset):
        json_order_by = order_by

    params["order_by"] = json_order_by


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/evals",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> HTTPValidationError | ListPageEval | Problem | None:
    if response.status_code == 200:
        response_200 = ListPageEval.from_dict(response.json())



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

    if response.status_code == 422:
        response_422 = HTTPValidationError.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[HTTPValidationError | ListPageEval | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 20,
    order: ListEvalsOrder | Unset = 'asc',
    order_by: ListEvalsOrderBy | Unset = 'created_at',

) -> Response[HTTPValidationError | ListPageEval | Problem]:
    """ List Evals

    Args:
        after (None | str | Unset):
        limit (int | Unset):  Default: 20.
        order (ListEvalsOrder | Unset):  Default: 'asc'.
        order_by (ListEvalsOrderBy | Unset):  Default: 'created_at'.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[HTTPValidationError | ListPageEval | Problem]
     """


    kwargs = _get_kwargs(
        after=after,
limit=limit,
order=order,
order_by=order_by,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 20,
    order: ListEvalsOrder | Unset = 'asc',
    order_by: ListEvalsOrderBy | Unset = 'created_at',

) -> HTTPValidationError | ListPageEval | Problem | None:
    """ List Evals

    Args:
        after (None | str | Unset):
        limit (int | Unset):  Default: 20.
        order (ListEvalsOrder | Unset):  Default: 'asc'.
        order_by (ListEvalsOrderBy | Unset):  Default: 'created_at'.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        HTTPValidationError | ListPageEval | Problem
     """


    return sync_detailed(
        client=client,
after=after,
limit=limit,
order=order,
order_by=order_by,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 20,
    order: ListEvalsOrder | Unset = 'asc',
    order_by: ListEvalsOrderBy | Unset = 'created_at',

) -> Response[HTTPValidationError | ListPageEval | Problem]:
    """ List Evals

    Args:
        after (None | str | Unset):
        limit (int | Unset):  Default: 20.
        order (ListEvalsOrder | Unset):  Default: 'asc'.
        order_by (ListEvalsOrderBy | Unset):  Default: 'created_at'.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[HTTPValidationError | ListPageEval | Problem]
     """


    kwargs = _get_kwargs(
        after=after,
limit=limit,
order=order,
order_by=order_by,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 20,
    order: ListEvalsOrder | Unset = 'asc',
    order_by: ListEvalsOrderBy | Unset = 'created_at',

) -> HTTPValidationError | ListPageEval | Problem | None:
    """ List Evals

    Args:
        after (None | str | Unset):
        limit (int | Unset):  Default: 20.
        order (ListEvalsOrder | Unset):  Default: 'asc'.
        order_by (ListEvalsOrderBy | Unset):  Default: 'created_at'.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        HTTPValidationError | ListPageEval | Problem
     """


    return (await asyncio_detailed(
        client=client,
after=after,
limit=limit,
order=order,
order_by=order_by,

    )).parsed
