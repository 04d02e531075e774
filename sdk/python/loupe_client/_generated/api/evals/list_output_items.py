from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.http_validation_error import HTTPValidationError
from ...models.list_output_items_order import check_list_output_items_order
from ...models.list_output_items_order import ListOutputItemsOrder
from ...models.list_output_items_status_type_0 import check_list_output_items_status_type_0
from ...models.list_output_items_status_type_0 import ListOutputItemsStatusType0
from ...models.list_page_output_item import ListPageOutputItem
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    eval_id: str,
    run_id: str,
    *,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 20,
    order: ListOutputItemsOrder | Unset = 'asc',
    status: ListOutputItemsStatusType0 | None | Unset = UNSET,

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

    json_status: None | str | Unset
    if isinstance(status, Unset):
        json_status = UNSET
    elif isinstance(status, str):
        json_status = status
    else:
        json_status = status
    params["status"] = json_status


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/evals/{eval_id}/runs/{run_id}/output_items".format(eval_id=quote(str(eval_id), safe=""),run_id=quote(str(run_id), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> HTTPValidationError | ListPageOutputItem | Problem | None:
    if response.status_code == 200:
        response_200 = ListPageOutputItem.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[HTTPValidationError | ListPageOutputItem | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    eval_id: str,
    run_id: str,
    *,
    client: AuthenticatedClient,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 20,
    order: ListOutputItemsOrder | Unset = 'asc',
    status: ListOutputItemsStatusType0 | None | Unset = UNSET,

) -> Response[HTTPValidationError | ListPageOutputItem | Problem]:
    """ List Output Items

     The graded rows, each with every criterion's result and Loupe's reason.

    Args:
        eval_id (str):
        run_id (str):
        after (None | str | Unset):
        limit (int | Unset):  Default: 20.
        order (ListOutputItemsOrder | Unset):  Default: 'asc'.
        status (ListOutputItemsStatusType0 | None | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[HTTPValidationError | ListPageOutputItem | Problem]
     """


    kwargs = _get_kwargs(
        eval_id=eval_id,
run_id=run_id,
after=after,
limit=limit,
order=order,
status=status,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    eval_id: str,
    run_id: str,
    *,
    client: AuthenticatedClient,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 20,
    order: ListOutputItemsOrder | Unset = 'asc',
    status: ListOutputItemsStatusType0 | None | Unset = UNSET,

) -> HTTPValidationError | ListPageOutputItem | Problem | None:
    """ List Output Items

     The graded rows, each with every criterion's result and Loupe's reason.

    Args:
        eval_id (str):
        run_id (str):
        after (None | str | Unset):
        limit (int | Unset):  Default: 20.
        order (ListOutputItemsOrder | Unset):  Default: 'asc'.
        status (ListOutputItemsStatusType0 | None | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        HTTPValidationError | ListPageOutputItem | Problem
     """


    return sync_detailed(
        eval_id=eval_id,
run_id=run_id,
client=client,
after=after,
limit=limit,
order=order,
status=status,

    ).parsed

async def asyncio_detailed(
    eval_id: str,
    run_id: str,
    *,
    client: AuthenticatedClient,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 20,
    order: ListOutputItemsOrder | Unset = 'asc',
    status: ListOutputItemsStatusType0 | None | Unset = UNSET,

) -> Response[HTTPValidationError | ListPageOutputItem | Problem]:
    """ List Output Items

     The graded rows, each with every criterion's result and Loupe's reason.

    Args:
        eval_id (str):
        run_id (str):
        after (None | str | Unset):
        limit (int | Unset):  Default: 20.
        order (ListOutputItemsOrder | Unset):  Default: 'asc'.
        status (ListOutputItemsStatusType0 | None | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[HTTPValidationError | ListPageOutputItem | Problem]
     """


    kwargs = _get_kwargs(
        eval_id=eval_id,
run_id=run_id,
after=after,
limit=limit,
order=order,
status=status,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    eval_id: str,
    run_id: str,
    *,
    client: AuthenticatedClient,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 20,
    order: ListOutputItemsOrder | Unset = 'asc',
    status: ListOutputItemsStatusType0 | None | Unset = UNSET,

) -> HTTPValidationError | ListPageOutputItem | Problem | None:
    """ List Output Items

     The graded rows, each with every criterion's result and Loupe's reason.

    Args:
        eval_id (str):
        run_id (str):
        after (None | str | Unset):
        limit (int | Unset):  Default: 20.
        order (ListOutputItemsOrder | Unset):  Default: 'asc'.
        status (ListOutputItemsStatusType0 | None | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        HTTPValidationError | ListPageOutputItem | Problem
     """


    return (await asyncio_detailed(
        eval_id=eval_id,
run_id=run_id,
client=client,
after=after,
limit=limit,
order=order,
status=status,

    )).parsed
