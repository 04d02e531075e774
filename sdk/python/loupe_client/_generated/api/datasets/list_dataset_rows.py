from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.dataset_row_list import DatasetRowList
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    dataset_id: str,
    *,
    subset: None | str | Unset = UNSET,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 100,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_subset: None | str | Unset
    if isinstance(subset, Unset):
        json_subset = UNSET
    else:
        json_subset = subset
    params["subset"] = json_subset

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
        "url": "/v1/datasets/{dataset_id}/rows".format(dataset_id=quote(str(dataset_id), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> DatasetRowList | Problem | None:
    if response.status_code == 200:
        response_200 = DatasetRowList.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[DatasetRowList | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    dataset_id: str,
    *,
    client: AuthenticatedClient,
    subset: None | str | Unset = UNSET,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 100,

) -> Response[DatasetRowList | Problem]:
    """ List Dataset Rows

     Stored rows in upload order; media as `GET /v1/media/{sha256}` URLs (an image part's
    `image_url.url`, an audio part's `input_audio.url`), which an upload or a submission
    takes back as they read.

    Args:
        dataset_id (str):
        subset (None | str | Unset):
        after (None | str | Unset):
        limit (int | Unset):  Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DatasetRowList | Problem]
     """


    kwargs = _get_kwargs(
        dataset_id=dataset_id,
subset=subset,
after=after,
limit=limit,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    dataset_id: str,
    *,
    client: AuthenticatedClient,
    subset: None | str | Unset = UNSET,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 100,

) -> DatasetRowList | Problem | None:
    """ List Dataset Rows

     Stored rows in upload order; media as `GET /v1/media/{sha256}` URLs (an image part's
    `image_url.url`, an audio part's `input_audio.url`), which an upload or a submission
    takes back as they read.

    Args:
        dataset_id (str):
        subset (None | str | Unset):
        after (None | str | Unset):
        limit (int | Unset):  Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DatasetRowList | Problem
     """


    return sync_detailed(
        dataset_id=dataset_id,
client=client,
subset=subset,
after=after,
limit=limit,

    ).parsed

async def asyncio_detailed(
    dataset_id: str,
    *,
    client: AuthenticatedClient,
    subset: None | str | Unset = UNSET,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 100,

) -> Response[DatasetRowList | Problem]:
    """ List Dataset Rows

     Stored rows in upload order; media as `GET /v1/media/{sha256}` URLs (an image part's
    `image_url.url`, an audio part's `input_audio.url`), which an upload or a submission
    takes back as they read.

    Args:
        dataset_id (str):
        subset (None | str | Unset):
        after (None | str | Unset):
        limit (int | Unset):  Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DatasetRowList | Problem]
     """


    kwargs = _get_kwargs(
        dataset_id=dataset_id,
subset=subset,
after=after,
limit=limit,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    dataset_id: str,
    *,
    client: AuthenticatedClient,
    subset: None | str | Unset = UNSET,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 100,

) -> DatasetRowList | Problem | None:
    """ List Dataset Rows

     Stored rows in upload order; media as `GET /v1/media/{sha256}` URLs (an image part's
    `image_url.url`, an audio part's `input_audio.url`), which an upload or a submission
    takes back as they read.

    Args:
        dataset_id (str):
        subset (None | str | Unset):
        after (None | str | Unset):
        limit (int | Unset):  Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DatasetRowList | Problem
     """


    return (await asyncio_detailed(
        dataset_id=dataset_id,
client=client,
subset=subset,
after=after,
limit=limit,

    )).parsed
