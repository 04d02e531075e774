from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.alignment_list import AlignmentList
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    metric_version: None | str | Unset = UNSET,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 20,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_metric_version: None | str | Unset
    if isinstance(metric_version, Unset):
        json_metric_version = UNSET
    else:
        json_metric_version = metric_version
    params["metric_version"] = json_metric_version

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
        "url": "/v1/alignments",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> AlignmentList | Problem | None:
    if response.status_code == 200:
        response_200 = AlignmentList.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[AlignmentList | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    metric_version: None | str | Unset = UNSET,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 20,

) -> Response[AlignmentList | Problem]:
    """ List Alignments

     The tenant's alignments, newest first; `metric_version` keeps one version's.

    Args:
        metric_version (None | str | Unset):
        after (None | str | Unset):
        limit (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AlignmentList | Problem]
     """


    kwargs = _get_kwargs(
        metric_version=metric_version,
after=after,
limit=limit,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    metric_version: None | str | Unset = UNSET,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 20,

) -> AlignmentList | Problem | None:
    """ List Alignments

     The tenant's alignments, newest first; `metric_version` keeps one version's.

    Args:
        metric_version (None | str | Unset):
        after (None | str | Unset):
        limit (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AlignmentList | Problem
     """


    return sync_detailed(
        client=client,
metric_version=metric_version,
after=after,
limit=limit,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    metric_version: None | str | Unset = UNSET,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 20,

) -> Response[AlignmentList | Problem]:
    """ List Alignments

     The tenant's alignments, newest first; `metric_version` keeps one version's.

    Args:
        metric_version (None | str | Unset):
        after (None | str | Unset):
        limit (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AlignmentList | Problem]
     """


    kwargs = _get_kwargs(
        metric_version=metric_version,
after=after,
limit=limit,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    metric_version: None | str | Unset = UNSET,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 20,

) -> AlignmentList | Problem | None:
    """ List Alignments

     The tenant's alignments, newest first; `metric_version` keeps one version's.

    Args:
        metric_version (None | str | Unset):
        after (None | str | Unset):
        limit (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AlignmentList | Problem
     """


    return (await asyncio_detailed(
        client=client,
metric_version=metric_version,
after=after,
limit=limit,

    )).parsed
