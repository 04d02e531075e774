from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.eval_ import Eval
from ...models.eval_update import EvalUpdate
from ...models.http_validation_error import HTTPValidationError
from ...models.problem import Problem
from typing import cast



def _get_kwargs(
    eval_id: str,
    *,
    body: EvalUpdate,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/evals/{eval_id}".format(eval_id=quote(str(eval_id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Eval | HTTPValidationError | Problem | None:
    if response.status_code == 200:
        response_200 = Eval.from_dict(response.json())



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

    if response.status_code == 415:
        response_415 = Problem.from_dict(response.json())



        return response_415

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Eval | HTTPValidationError | Problem]:
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
    body: EvalUpdate,

) -> Response[Eval | HTTPValidationError | Problem]:
    """ Update Eval

     Change `name` or `metadata` (which replaces the whole map).

    Args:
        eval_id (str):
        body (EvalUpdate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Eval | HTTPValidationError | Problem]
     """


    kwargs = _get_kwargs(
        eval_id=eval_id,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    eval_id: str,
    *,
    client: AuthenticatedClient,
    body: EvalUpdate,

) -> Eval | HTTPValidationError | Problem | None:
    """ Update Eval

     Change `name` or `metadata` (which replaces the whole map).

    Args:
        eval_id (str):
        body (EvalUpdate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Eval | HTTPValidationError | Problem
     """


    return sync_detailed(
        eval_id=eval_id,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    eval_id: str,
    *,
    client: AuthenticatedClient,
    body: EvalUpdate,

) -> Response[Eval | HTTPValidationError | Problem]:
    """ Update Eval

     Change `name` or `metadata` (which replaces the whole map).

    Args:
        eval_id (str):
        body (EvalUpdate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Eval | HTTPValidationError | Problem]
     """


    kwargs = _get_kwargs(
        eval_id=eval_id,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    eval_id: str,
    *,
    client: AuthenticatedClient,
    body: EvalUpdate,

) -> Eval | HTTPValidationError | Problem | None:
    """ Update Eval

     Change `name` or `metadata` (which replaces the whole map).

    Args:
        eval_id (str):
        body (EvalUpdate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Eval | HTTPValidationError | Problem
     """


    return (await asyncio_detailed(
        eval_id=eval_id,
client=client,
body=body,

    )).parsed
