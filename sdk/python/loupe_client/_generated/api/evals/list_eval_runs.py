from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.http_validation_error import HTTPValidationError
from ...models.list_eval_runs_order import check_list_eval_runs_order
from ...models.list_eval_runs_order import ListEvalRunsOrder
from ...models.list_eval_runs_status_type_0 import check_list_eval_runs_status_type_0
from ...models.list_eval_runs_status_type_0 import ListEvalRunsStatusType0
from ...models.list_page_eval_run_object import ListPageEvalRunObject
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    eval_id: str,
    *,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 20,
    order: ListEvalRunsOrder | Unset = 'asc',
    status: ListEvalRunsStatusType0 | None | Unset = UNSET,

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
        "url": "/v1/evals/{eval_id}/runs".format(eval_id=quote(str(eval_id), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> HTTPValidationError | ListPageEvalRunObject | Problem | None:
    if response.status_code == 200:
        response_200 = ListPageEvalRunObject.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[HTTPValidationError | ListPageEvalRunObject | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    eval_id: str,
    *,
    client: AuthenticatedClient,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 20,
    order: ListEvalRunsOrder | Unset = 'asc',
    status: ListEvalRunsStatusType0 | None | Unset = UNSET,

) -> Response[HTTPValidationError | ListPageEvalRunObject | Problem]:
    """ List Eval Runs

    Args:
        eval_id (str):
        after (None | str | Unset):
        limit (int | Unset):  Default: 20.
        order (ListEvalRunsOrder | Unset):  Default: 'asc'.
        status (ListEvalRunsStatusType0 | None | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[HTTPValidationError | ListPageEvalRunObject | Problem]
     """


    kwargs = _get_kwargs(
        eval_id=eval_id,
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
    *,
    client: AuthenticatedClient,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 20,
    order: ListEvalRunsOrder | Unset = 'asc',
    status: ListEvalRunsStatusType0 | None | Unset = UNSET,

) -> HTTPValidationError | ListPageEvalRunObject | Problem | None:
    """ List Eval Runs

    Args:
        eval_id (str):
        after (None | str | Unset):
        limit (int | Unset):  Default: 20.
        order (ListEvalRunsOrder | Unset):  Default: 'asc'.
        status (ListEvalRunsStatusType0 | None | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        HTTPValidationError | ListPageEvalRunObject | Problem
     """


    return sync_detailed(
        eval_id=eval_id,
client=client,
after=after,
limit=limit,
order=order,
status=status,

    ).parsed

async def asyncio_detailed(
    eval_id: str,
    *,
    client: AuthenticatedClient,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 20,
    order: ListEvalRunsOrder | Unset = 'asc',
    status: ListEvalRunsStatusType0 | None | Unset = UNSET,

) -> Response[HTTPValidationError | ListPageEvalRunObject | Problem]:
    """ List Eval Runs

    Args:
        eval_id (str):
        after (None | str | Unset):
        limit (int | Unset):  Default: 20.
        order (ListEvalRunsOrder | Unset):  Default: 'asc'.
        status (ListEvalRunsStatusType0 | None | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[HTTPValidationError | ListPageEvalRunObject | Problem]
     """


    kwargs = _get_kwargs(
        eval_id=eval_id,
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
    *,
    client: AuthenticatedClient,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 20,
    order: ListEvalRunsOrder | Unset = 'asc',
    status: ListEvalRunsStatusType0 | None | Unset = UNSET,

) -> HTTPValidationError | ListPageEvalRunObject | Problem | None:
    """ List Eval Runs

    Args:
        eval_id (str):
        after (None | str | Unset):
        limit (int | Unset):  Default: 20.
        order (ListEvalRunsOrder | Unset):  Default: 'asc'.
        status (ListEvalRunsStatusType0 | None | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        HTTPValidationError | ListPageEvalRunObject | Problem
     """


    return (await asyncio_detailed(
        eval_id=eval_id,
client=client,
after=after,
limit=limit,
order=order,
status=status,

    )).parsed
