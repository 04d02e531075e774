from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.http_validation_error import HTTPValidationError
from ...models.list_files_order import check_list_files_order
from ...models.list_files_order import ListFilesOrder
from ...models.list_page_file_object import ListPageFileObject
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    purpose: None | str | Unset = UNSET,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 10000,
    order: ListFilesOrder | Unset = 'desc',

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_purpose: None | str | Unset
    if isinstance(purpose, Unset):
        json_purpose = UNSET
    else:
        json_purpose = purpose
    params["purpose"] = json_purpose

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


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/files",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> HTTPValidationError | ListPageFileObject | Problem | None:
    if response.status_code == 200:
        response_200 = ListPageFileObject.from_dict(response.json())



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

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())



        return response_413

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[HTTPValidationError | ListPageFileObject | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    purpose: None | str | Unset = UNSET,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 10000,
    order: ListFilesOrder | Unset = 'desc',

) -> Response[HTTPValidationError | ListPageFileObject | Problem]:
    """ List Files

     The tenant's files, newest first by default.

    Args:
        purpose (None | str | Unset):
        after (None | str | Unset):
        limit (int | Unset):  Default: 10000.
        order (ListFilesOrder | Unset):  Default: 'desc'.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[HTTPValidationError | ListPageFileObject | Problem]
     """


    kwargs = _get_kwargs(
        purpose=purpose,
after=after,
limit=limit,
order=order,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    purpose: None | str | Unset = UNSET,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 10000,
    order: ListFilesOrder | Unset = 'desc',

) -> HTTPValidationError | ListPageFileObject | Problem | None:
    """ List Files

     The tenant's files, newest first by default.

    Args:
        purpose (None | str | Unset):
        after (None | str | Unset):
        limit (int | Unset):  Default: 10000.
        order (ListFilesOrder | Unset):  Default: 'desc'.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        HTTPValidationError | ListPageFileObject | Problem
     """


    return sync_detailed(
        client=client,
purpose=purpose,
after=after,
limit=limit,
order=order,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    purpose: None | str | Unset = UNSET,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 10000,
    order: ListFilesOrder | Unset = 'desc',

) -> Response[HTTPValidationError | ListPageFileObject | Problem]:
    """ List Files

     The tenant's files, newest first by default.

    Args:
        purpose (None | str | Unset):
        after (None | str | Unset):
        limit (int | Unset):  Default: 10000.
        order (ListFilesOrder | Unset):  Default: 'desc'.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[HTTPValidationError | ListPageFileObject | Problem]
     """


    kwargs = _get_kwargs(
        purpose=purpose,
after=after,
limit=limit,
order=order,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    purpose: None | str | Unset = UNSET,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 10000,
    order: ListFilesOrder | Unset = 'desc',

) -> HTTPValidationError | ListPageFileObject | Problem | None:
    """ List Files

     The tenant's files, newest first by default.

    Args:
        purpose (None | str | Unset):
        after (None | str | Unset):
        limit (int | Unset):  Default: 10000.
        order (ListFilesOrder | Unset):  Default: 'desc'.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        HTTPValidationError | ListPageFileObject | Problem
     """


    return (await asyncio_detailed(
        client=client,
purpose=purpose,
after=after,
limit=limit,
order=order,

    )).parsed
