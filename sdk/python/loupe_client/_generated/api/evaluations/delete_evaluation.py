from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.http_validation_error import HTTPValidationError
from ...models.problem import Problem
from typing import cast



def _get_kwargs(
    evaluation_id: str,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/v1/evaluations/{evaluation_id}".format(evaluation_id=quote(str(evaluation_id), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | HTTPValidationError | Problem | None:
    if response.status_code == 204:
        response_204 = cast(Any, None)
        return response_204

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | HTTPValidationError | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    evaluation_id: str,
    *,
    client: AuthenticatedClient,

) -> Response[Any | HTTPValidationError | Problem]:
    """ Delete Evaluation

     Delete a finished evaluation: its test cases, results and images no other row uses.
    A queued or running one answers 409: cancel it first. An online rule's day or an OpenAI
    eval run (read here too) answers 409 naming the routes that manage it.

    Args:
        evaluation_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | HTTPValidationError | Problem]
     """


    kwargs = _get_kwargs(
        evaluation_id=evaluation_id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    evaluation_id: str,
    *,
    client: AuthenticatedClient,

) -> Any | HTTPValidationError | Problem | None:
    """ Delete Evaluation

     Delete a finished evaluation: its test cases, results and images no other row uses.
    A queued or running one answers 409: cancel it first. An online rule's day or an OpenAI
    eval run (read here too) answers 409 naming the routes that manage it.

    Args:
        evaluation_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | HTTPValidationError | Problem
     """


    return sync_detailed(
        evaluation_id=evaluation_id,
client=client,

    ).parsed

async def asyncio_detailed(
    evaluation_id: str,
    *,
    client: AuthenticatedClient,

) -> Response[Any | HTTPValidationError | Problem]:
    """ Delete Evaluation

     Delete a finished evaluation: its test cases, results and images no other row uses.
    A queued or running one answers 409: cancel it first. An online rule's day or an OpenAI
    eval run (read here too) answers 409 naming the routes that manage it.

    Args:
        evaluation_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | HTTPValidationError | Problem]
     """


    kwargs = _get_kwargs(
        evaluation_id=evaluation_id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    evaluation_id: str,
    *,
    client: AuthenticatedClient,

) -> Any | HTTPValidationError | Problem | None:
    """ Delete Evaluation

     Delete a finished evaluation: its test cases, results and images no other row uses.
    A queued or running one answers 409: cancel it first. An online rule's day or an OpenAI
    eval run (read here too) answers 409 naming the routes that manage it.

    Args:
        evaluation_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | HTTPValidationError | Problem
     """


    return (await asyncio_detailed(
        evaluation_id=evaluation_id,
client=client,

    )).parsed
