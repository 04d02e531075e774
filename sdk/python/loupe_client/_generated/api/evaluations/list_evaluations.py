from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.evaluation_list import EvaluationList
from ...models.list_evaluations_kind import check_list_evaluations_kind
from ...models.list_evaluations_kind import ListEvaluationsKind
from ...models.list_evaluations_status_type_0 import check_list_evaluations_status_type_0
from ...models.list_evaluations_status_type_0 import ListEvaluationsStatusType0
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 20,
    status: ListEvaluationsStatusType0 | None | Unset = UNSET,
    name: None | str | Unset = UNSET,
    kind: ListEvaluationsKind | Unset = 'evaluation',
    completed_with_errors: bool | None | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_after: None | str | Unset
    if isinstance(after, Unset):
        json_after = UNSET
    else:
        json_after = after
    params["after"] = json_after

    params["limit"] = limit

    json_status: None | str | Unset
    if isinstance(status, Unset):
        json_status = UNSET
    elif isinstance(status, str):
        json_status = status
    else:
        json_status = status
    params["status"] = json_status

    json_name: None | str | Unset
    if isinstance(name, Unset):
        json_name = UNSET
    else:
        json_name = name
    params["name"] = json_name

    json_kind: str | Unset = UNSET
    if not isinstance(kind, Unset):
        json_kind = kind

    params["kind"] = json_kind

    json_completed_with_errors: bool | None | Unset
    if isinstance(completed_with_errors, Unset):
        json_completed_with_errors = UNSET
    else:
        json_completed_with_errors = completed_with_errors
    params["completed_with_errors"] = json_completed_with_errors


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/evaluations",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> EvaluationList | Problem | None:
    if response.status_code == 200:
        response_200 = EvaluationList.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[EvaluationList | Problem]:
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
    status: ListEvaluationsStatusType0 | None | Unset = UNSET,
    name: None | str | Unset = UNSET,
    kind: ListEvaluationsKind | Unset = 'evaluation',
    completed_with_errors: bool | None | Unset = UNSET,

) -> Response[EvaluationList | Problem]:
    """ List Evaluations

     The tenant's evaluations (or, with `kind=eval_run`, OpenAI eval runs; `kind=online`,
    online rules' days), newest first.

    Args:
        after (None | str | Unset):
        limit (int | Unset):  Default: 20.
        status (ListEvaluationsStatusType0 | None | Unset): Only this status.
        name (None | str | Unset): Only names containing this (any case).
        kind (ListEvaluationsKind | Unset): `evaluation` (the default): evaluations submitted
            here. `eval_run`: OpenAI Evals runs (`/v1/evals/{eval_id}/runs`). `online`: online rules'
            days (`/v1/online_rules`), each a rule's judged calls of one UTC day. The last two are
            never listed unless asked for; cancel and delete them through their own routes. Default:
            'evaluation'.
        completed_with_errors (bool | None | Unset): `true`: only those that completed with
            errored results (`completed_with_errors`); `false`: only the others.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EvaluationList | Problem]
     """


    kwargs = _get_kwargs(
        after=after,
limit=limit,
status=status,
name=name,
kind=kind,
completed_with_errors=completed_with_errors,

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
    status: ListEvaluationsStatusType0 | None | Unset = UNSET,
    name: None | str | Unset = UNSET,
    kind: ListEvaluationsKind | Unset = 'evaluation',
    completed_with_errors: bool | None | Unset = UNSET,

) -> EvaluationList | Problem | None:
    """ List Evaluations

     The tenant's evaluations (or, with `kind=eval_run`, OpenAI eval runs; `kind=online`,
    online rules' days), newest first.

    Args:
        after (None | str | Unset):
        limit (int | Unset):  Default: 20.
        status (ListEvaluationsStatusType0 | None | Unset): Only this status.
        name (None | str | Unset): Only names containing this (any case).
        kind (ListEvaluationsKind | Unset): `evaluation` (the default): evaluations submitted
            here. `eval_run`: OpenAI Evals runs (`/v1/evals/{eval_id}/runs`). `online`: online rules'
            days (`/v1/online_rules`), each a rule's judged calls of one UTC day. The last two are
            never listed unless asked for; cancel and delete them through their own routes. Default:
            'evaluation'.
        completed_with_errors (bool | None | Unset): `true`: only those that completed with
            errored results (`completed_with_errors`); `false`: only the others.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EvaluationList | Problem
     """


    return sync_detailed(
        client=client,
after=after,
limit=limit,
status=status,
name=name,
kind=kind,
completed_with_errors=completed_with_errors,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 20,
    status: ListEvaluationsStatusType0 | None | Unset = UNSET,
    name: None | str | Unset = UNSET,
    kind: ListEvaluationsKind | Unset = 'evaluation',
    completed_with_errors: bool | None | Unset = UNSET,

) -> Response[EvaluationList | Problem]:
    """ List Evaluations

     The tenant's evaluations (or, with `kind=eval_run`, OpenAI eval runs; `kind=online`,
    online rules' days), newest first.

    Args:
        after (None | str | Unset):
        limit (int | Unset):  Default: 20.
        status (ListEvaluationsStatusType0 | None | Unset): Only this status.
        name (None | str | Unset): Only names containing this (any case).
        kind (ListEvaluationsKind | Unset): `evaluation` (the default): evaluations submitted
            here. `eval_run`: OpenAI Evals runs (`/v1/evals/{eval_id}/runs`). `online`: online rules'
            days (`/v1/online_rules`), each a rule's judged calls of one UTC day. The last two are
            never listed unless asked for; cancel and delete them through their own routes. Default:
            'evaluation'.
        completed_with_errors (bool | None | Unset): `true`: only those that completed with
            errored results (`completed_with_errors`); `false`: only the others.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EvaluationList | Problem]
     """


    kwargs = _get_kwargs(
        after=after,
limit=limit,
status=status,
name=name,
kind=kind,
completed_with_errors=completed_with_errors,

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
    status: ListEvaluationsStatusType0 | None | Unset = UNSET,
    name: None | str | Unset = UNSET,
    kind: ListEvaluationsKind | Unset = 'evaluation',
    completed_with_errors: bool | None | Unset = UNSET,

) -> EvaluationList | Problem | None:
    """ List Evaluations

     The tenant's evaluations (or, with `kind=eval_run`, OpenAI eval runs; `kind=online`,
    online rules' days), newest first.

    Args:
        after (None | str | Unset):
        limit (int | Unset):  Default: 20.
        status (ListEvaluationsStatusType0 | None | Unset): Only this status.
        name (None | str | Unset): Only names containing this (any case).
        kind (ListEvaluationsKind | Unset): `evaluation` (the default): evaluations submitted
            here. `eval_run`: OpenAI Evals runs (`/v1/evals/{eval_id}/runs`). `online`: online rules'
            days (`/v1/online_rules`), each a rule's judged calls of one UTC day. The last two are
            never listed unless asked for; cancel and delete them through their own routes. Default:
            'evaluation'.
        completed_with_errors (bool | None | Unset): `true`: only those that completed with
            errored results (`completed_with_errors`); `false`: only the others.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EvaluationList | Problem
     """


    return (await asyncio_detailed(
        client=client,
after=after,
limit=limit,
status=status,
name=name,
kind=kind,
completed_with_errors=completed_with_errors,

    )).parsed
