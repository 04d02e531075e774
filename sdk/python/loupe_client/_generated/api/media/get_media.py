from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.http_validation_error import HTTPValidationError
from ...models.problem import Problem
from ...types import File, FileTypes
from ...types import UNSET, Unset
from io import BytesIO
from typing import cast



def _get_kwargs(
    sha256: str,
    *,
    if_none_match: None | str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_none_match, Unset):
        headers["if-none-match"] = if_none_match



    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/media/{sha256}".format(sha256=quote(str(sha256), safe=""),),
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | File | HTTPValidationError | Problem | None:
    if response.status_code == 200:
        response_200 = File(
             payload = BytesIO(response.content)
        )



        return response_200

    if response.status_code == 304:
        response_304 = cast(Any, None)
        return response_304

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | File | HTTPValidationError | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    sha256: str,
    *,
    client: AuthenticatedClient,
    if_none_match: None | str | Unset = UNSET,

) -> Response[Any | File | HTTPValidationError | Problem]:
    """ Get Media

     A stored image or audio clip by SHA-256, if one of the caller's test cases or dataset
    rows references it (404 otherwise); cacheable forever, with an ETag. A key with `review`
    but not `read` loads only the media of the review items it holds or labelled.

    Args:
        sha256 (str):
        if_none_match (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | File | HTTPValidationError | Problem]
     """


    kwargs = _get_kwargs(
        sha256=sha256,
if_none_match=if_none_match,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    sha256: str,
    *,
    client: AuthenticatedClient,
    if_none_match: None | str | Unset = UNSET,

) -> Any | File | HTTPValidationError | Problem | None:
    """ Get Media

     A stored image or audio clip by SHA-256, if one of the caller's test cases or dataset
    rows references it (404 otherwise); cacheable forever, with an ETag. A key with `review`
    but not `read` loads only the media of the review items it holds or labelled.

    Args:
        sha256 (str):
        if_none_match (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | File | HTTPValidationError | Problem
     """


    return sync_detailed(
        sha256=sha256,
client=client,
if_none_match=if_none_match,

    ).parsed

async def asyncio_detailed(
    sha256: str,
    *,
    client: AuthenticatedClient,
    if_none_match: None | str | Unset = UNSET,

) -> Response[Any | File | HTTPValidationError | Problem]:
    """ Get Media

     A stored image or audio clip by SHA-256, if one of the caller's test cases or dataset
    rows references it (404 otherwise); cacheable forever, with an ETag. A key with `review`
    but not `read` loads only the media of the review items it holds or labelled.

    Args:
        sha256 (str):
        if_none_match (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | File | HTTPValidationError | Problem]
     """


    kwargs = _get_kwargs(
        sha256=sha256,
if_none_match=if_none_match,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    sha256: str,
    *,
    client: AuthenticatedClient,
    if_none_match: None | str | Unset = UNSET,

) -> Any | File | HTTPValidationError | Problem | None:
    """ Get Media

     A stored image or audio clip by SHA-256, if one of the caller's test cases or dataset
    rows references it (404 otherwise); cacheable forever, with an ETag. A key with `review`
    but not `read` loads only the media of the review items it holds or labelled.

    Args:
        sha256 (str):
        if_none_match (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | File | HTTPValidationError | Problem
     """


    return (await asyncio_detailed(
        sha256=sha256,
client=client,
if_none_match=if_none_match,

    )).parsed
