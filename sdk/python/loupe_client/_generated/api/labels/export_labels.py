from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.export_labels_format import check_export_labels_format
from ...models.export_labels_format import ExportLabelsFormat
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    format_: ExportLabelsFormat | Unset = 'jsonl',
    metric_version: None | str | Unset = UNSET,
    evaluation_id: None | str | Unset = UNSET,
    result_id: None | str | Unset = UNSET,
    actor: None | str | Unset = UNSET,
    item_key: None | str | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_format_: str | Unset = UNSET
    if not isinstance(format_, Unset):
        json_format_ = format_

    params["format"] = json_format_

    json_metric_version: None | str | Unset
    if isinstance(metric_version, Unset):
        json_metric_version = UNSET
    else:
        json_metric_version = metric_version
    params["metric_version"] = json_metric_version

    json_evaluation_id: None | str | Unset
    if isinstance(evaluation_id, Unset):
        json_evaluation_id = UNSET
    else:
        json_evaluation_id = evaluation_id
    params["evaluation_id"] = json_evaluation_id

    json_result_id: None | str | Unset
    if isinstance(result_id, Unset):
        json_result_id = UNSET
    else:
        json_result_id = result_id
    params["result_id"] = json_result_id

    json_actor: None | str | Unset
    if isinstance(actor, Unset):
        json_actor = UNSET
    else:
        json_actor = actor
    params["actor"] = json_actor

    json_item_key: None | str | Unset
    if isinstance(item_key, Unset):
        json_item_key = UNSET
    else:
        json_item_key = item_key
    params["item_key"] = json_item_key


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/labels/export",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | Problem | None:
    if response.status_code == 200:
        response_200 = response.json()
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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    format_: ExportLabelsFormat | Unset = 'jsonl',
    metric_version: None | str | Unset = UNSET,
    evaluation_id: None | str | Unset = UNSET,
    result_id: None | str | Unset = UNSET,
    actor: None | str | Unset = UNSET,
    item_key: None | str | Unset = UNSET,

) -> Response[Any | Problem]:
    """ Export Labels

     Every label of the tenant (or the filtered ones), oldest first, as JSON Lines or CSV
    (cells a spreadsheet would run as formulas start with a single quote). An export goes back
    in through POST /v1/labels/import as it stands.

    Args:
        format_ (ExportLabelsFormat | Unset):  Default: 'jsonl'.
        metric_version (None | str | Unset): Only this metric version's.
        evaluation_id (None | str | Unset): Only those given on this evaluation's results (where a
            label was given, not every evaluation whose results show it: see item_key).
        result_id (None | str | Unset): Only those given on this result (a re-run's result shows
            labels given on another: filter by metric_version and item_key for those).
        actor (None | str | Unset): Only this actor's (`person:…`, `key:…`).
        item_key (None | str | Unset): Only those of this item (a result's `labels.item_key`):
            with metric_version, the labels a result counts, whichever evaluation they were given on.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem]
     """


    kwargs = _get_kwargs(
        format_=format_,
metric_version=metric_version,
evaluation_id=evaluation_id,
result_id=result_id,
actor=actor,
item_key=item_key,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    format_: ExportLabelsFormat | Unset = 'jsonl',
    metric_version: None | str | Unset = UNSET,
    evaluation_id: None | str | Unset = UNSET,
    result_id: None | str | Unset = UNSET,
    actor: None | str | Unset = UNSET,
    item_key: None | str | Unset = UNSET,

) -> Any | Problem | None:
    """ Export Labels

     Every label of the tenant (or the filtered ones), oldest first, as JSON Lines or CSV
    (cells a spreadsheet would run as formulas start with a single quote). An export goes back
    in through POST /v1/labels/import as it stands.

    Args:
        format_ (ExportLabelsFormat | Unset):  Default: 'jsonl'.
        metric_version (None | str | Unset): Only this metric version's.
        evaluation_id (None | str | Unset): Only those given on this evaluation's results (where a
            label was given, not every evaluation whose results show it: see item_key).
        result_id (None | str | Unset): Only those given on this result (a re-run's result shows
            labels given on another: filter by metric_version and item_key for those).
        actor (None | str | Unset): Only this actor's (`person:…`, `key:…`).
        item_key (None | str | Unset): Only those of this item (a result's `labels.item_key`):
            with metric_version, the labels a result counts, whichever evaluation they were given on.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem
     """


    return sync_detailed(
        client=client,
format_=format_,
metric_version=metric_version,
evaluation_id=evaluation_id,
result_id=result_id,
actor=actor,
item_key=item_key,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    format_: ExportLabelsFormat | Unset = 'jsonl',
    metric_version: None | str | Unset = UNSET,
    evaluation_id: None | str | Unset = UNSET,
    result_id: None | str | Unset = UNSET,
    actor: None | str | Unset = UNSET,
    item_key: None | str | Unset = UNSET,

) -> Response[Any | Problem]:
    """ Export Labels

     Every label of the tenant (or the filtered ones), oldest first, as JSON Lines or CSV
    (cells a spreadsheet would run as formulas start with a single quote). An export goes back
    in through POST /v1/labels/import as it stands.

    Args:
        format_ (ExportLabelsFormat | Unset):  Default: 'jsonl'.
        metric_version (None | str | Unset): Only this metric version's.
        evaluation_id (None | str | Unset): Only those given on this evaluation's results (where a
            label was given, not every evaluation whose results show it: see item_key).
        result_id (None | str | Unset): Only those given on this result (a re-run's result shows
            labels given on another: filter by metric_version and item_key for those).
        actor (None | str | Unset): Only this actor's (`person:…`, `key:…`).
        item_key (None | str | Unset): Only those of this item (a result's `labels.item_key`):
            with metric_version, the labels a result counts, whichever evaluation they were given on.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem]
     """


    kwargs = _get_kwargs(
        format_=format_,
metric_version=metric_version,
evaluation_id=evaluation_id,
result_id=result_id,
actor=actor,
item_key=item_key,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    format_: ExportLabelsFormat | Unset = 'jsonl',
    metric_version: None | str | Unset = UNSET,
    evaluation_id: None | str | Unset = UNSET,
    result_id: None | str | Unset = UNSET,
    actor: None | str | Unset = UNSET,
    item_key: None | str | Unset = UNSET,

) -> Any | Problem | None:
    """ Export Labels

     Every label of the tenant (or the filtered ones), oldest first, as JSON Lines or CSV
    (cells a spreadsheet would run as formulas start with a single quote). An export goes back
    in through POST /v1/labels/import as it stands.

    Args:
        format_ (ExportLabelsFormat | Unset):  Default: 'jsonl'.
        metric_version (None | str | Unset): Only this metric version's.
        evaluation_id (None | str | Unset): Only those given on this evaluation's results (where a
            label was given, not every evaluation whose results show it: see item_key).
        result_id (None | str | Unset): Only those given on this result (a re-run's result shows
            labels given on another: filter by metric_version and item_key for those).
        actor (None | str | Unset): Only this actor's (`person:…`, `key:…`).
        item_key (None | str | Unset): Only those of this item (a result's `labels.item_key`):
            with metric_version, the labels a result counts, whichever evaluation they were given on.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem
     """


    return (await asyncio_detailed(
        client=client,
format_=format_,
metric_version=metric_version,
evaluation_id=evaluation_id,
result_id=result_id,
actor=actor,
item_key=item_key,

    )).parsed
