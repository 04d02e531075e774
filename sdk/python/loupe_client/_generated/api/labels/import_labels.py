from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.label_import import LabelImport
from ...models.problem import Problem
from ...types import File, FileTypes
from io import BytesIO
from typing import cast



def _get_kwargs(
    *,
    body: File,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/labels/import",
    }

    _kwargs["content"] = body.payload
    headers["Content-Type"] = "application/x-ndjson"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> LabelImport | Problem | None:
    if response.status_code == 200:
        response_200 = LabelImport.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[LabelImport | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: File,

) -> Response[LabelImport | Problem]:
    """ Import Labels

     Import labels, all or nothing: JSON Lines (`application/x-ndjson`, each line a POST
    /v1/labels body) or CSV (`text/csv`, header columns among result_id, evaluation_id,
    test_case_id, metric, value, rationale), at most 5000 lines; or either as a form upload's
    `file` (its part's type, else its name's extension: `.jsonl`, `.ndjson`, `.csv`). A line
    is your label, given directly, unless its `actor` names another of the team's people or
    keys: a team admin (the `admin` scope) then restores it as theirs, with its `selection` and
    `queue_id`, and anyone else is refused at that line. An export goes in as it stands (its
    other fields are ignored; an exported pass/fail label's `passed` is its value). A bad line,
    or a second line for the same item and person, stores nothing: the 422 names every bad
    line and field (`/lines/<n>/<field>`).

    Args:
        body (File):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[LabelImport | Problem]
     """


    kwargs = _get_kwargs(
        body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    body: File,

) -> LabelImport | Problem | None:
    """ Import Labels

     Import labels, all or nothing: JSON Lines (`application/x-ndjson`, each line a POST
    /v1/labels body) or CSV (`text/csv`, header columns among result_id, evaluation_id,
    test_case_id, metric, value, rationale), at most 5000 lines; or either as a form upload's
    `file` (its part's type, else its name's extension: `.jsonl`, `.ndjson`, `.csv`). A line
    is your label, given directly, unless its `actor` names another of the team's people or
    keys: a team admin (the `admin` scope) then restores it as theirs, with its `selection` and
    `queue_id`, and anyone else is refused at that line. An export goes in as it stands (its
    other fields are ignored; an exported pass/fail label's `passed` is its value). A bad line,
    or a second line for the same item and person, stores nothing: the 422 names every bad
    line and field (`/lines/<n>/<field>`).

    Args:
        body (File):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        LabelImport | Problem
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: File,

) -> Response[LabelImport | Problem]:
    """ Import Labels

     Import labels, all or nothing: JSON Lines (`application/x-ndjson`, each line a POST
    /v1/labels body) or CSV (`text/csv`, header columns among result_id, evaluation_id,
    test_case_id, metric, value, rationale), at most 5000 lines; or either as a form upload's
    `file` (its part's type, else its name's extension: `.jsonl`, `.ndjson`, `.csv`). A line
    is your label, given directly, unless its `actor` names another of the team's people or
    keys: a team admin (the `admin` scope) then restores it as theirs, with its `selection` and
    `queue_id`, and anyone else is refused at that line. An export goes in as it stands (its
    other fields are ignored; an exported pass/fail label's `passed` is its value). A bad line,
    or a second line for the same item and person, stores nothing: the 422 names every bad
    line and field (`/lines/<n>/<field>`).

    Args:
        body (File):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[LabelImport | Problem]
     """


    kwargs = _get_kwargs(
        body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    body: File,

) -> LabelImport | Problem | None:
    """ Import Labels

     Import labels, all or nothing: JSON Lines (`application/x-ndjson`, each line a POST
    /v1/labels body) or CSV (`text/csv`, header columns among result_id, evaluation_id,
    test_case_id, metric, value, rationale), at most 5000 lines; or either as a form upload's
    `file` (its part's type, else its name's extension: `.jsonl`, `.ndjson`, `.csv`). A line
    is your label, given directly, unless its `actor` names another of the team's people or
    keys: a team admin (the `admin` scope) then restores it as theirs, with its `selection` and
    `queue_id`, and anyone else is refused at that line. An export goes in as it stands (its
    other fields are ignored; an exported pass/fail label's `passed` is its value). A bad line,
    or a second line for the same item and person, stores nothing: the 422 names every bad
    line and field (`/lines/<n>/<field>`).

    Args:
        body (File):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        LabelImport | Problem
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
