from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.online_rule_trend import OnlineRuleTrend
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    rule_id: str,
    *,
    metric: None | str | Unset = UNSET,
    bucket: None | str | Unset = UNSET,
    since: None | str | Unset = UNSET,
    until: None | str | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_metric: None | str | Unset
    if isinstance(metric, Unset):
        json_metric = UNSET
    else:
        json_metric = metric
    params["metric"] = json_metric

    json_bucket: None | str | Unset
    if isinstance(bucket, Unset):
        json_bucket = UNSET
    else:
        json_bucket = bucket
    params["bucket"] = json_bucket

    json_since: None | str | Unset
    if isinstance(since, Unset):
        json_since = UNSET
    else:
        json_since = since
    params["since"] = json_since

    json_until: None | str | Unset
    if isinstance(until, Unset):
        json_until = UNSET
    else:
        json_until = until
    params["until"] = json_until


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/online_rules/{rule_id}/trend".format(rule_id=quote(str(rule_id), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> OnlineRuleTrend | Problem | None:
    if response.status_code == 200:
        response_200 = OnlineRuleTrend.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[OnlineRuleTrend | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    rule_id: str,
    *,
    client: AuthenticatedClient,
    metric: None | str | Unset = UNSET,
    bucket: None | str | Unset = UNSET,
    since: None | str | Unset = UNSET,
    until: None | str | Unset = UNSET,

) -> Response[OnlineRuleTrend | Problem]:
    """ Get Online Rule Trend

     Each metric's mean score and pass rate per UTC hour or day, each with its 95% interval
    inside the metric's range, from the rule's hourly rollups (kept as results are stored).

    Args:
        rule_id (str):
        metric (None | str | Unset): One metric's name; none: each.
        bucket (None | str | Unset): `hour` (the default) or `day` (UTC days).
        since (None | str | Unset): ISO 8601 start (UTC if no offset), floored to its bucket;
            default 2 days (hour) or 30 days (day) before `until`.
        until (None | str | Unset): ISO 8601 end, excluded, ceiled to its bucket's end (a bucket
            is counted whole); default the current bucket's end.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[OnlineRuleTrend | Problem]
     """


    kwargs = _get_kwargs(
        rule_id=rule_id,
metric=metric,
bucket=bucket,
since=since,
until=until,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    rule_id: str,
    *,
    client: AuthenticatedClient,
    metric: None | str | Unset = UNSET,
    bucket: None | str | Unset = UNSET,
    since: None | str | Unset = UNSET,
    until: None | str | Unset = UNSET,

) -> OnlineRuleTrend | Problem | None:
    """ Get Online Rule Trend

     Each metric's mean score and pass rate per UTC hour or day, each with its 95% interval
    inside the metric's range, from the rule's hourly rollups (kept as results are stored).

    Args:
        rule_id (str):
        metric (None | str | Unset): One metric's name; none: each.
        bucket (None | str | Unset): `hour` (the default) or `day` (UTC days).
        since (None | str | Unset): ISO 8601 start (UTC if no offset), floored to its bucket;
            default 2 days (hour) or 30 days (day) before `until`.
        until (None | str | Unset): ISO 8601 end, excluded, ceiled to its bucket's end (a bucket
            is counted whole); default the current bucket's end.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        OnlineRuleTrend | Problem
     """


    return sync_detailed(
        rule_id=rule_id,
client=client,
metric=metric,
bucket=bucket,
since=since,
until=until,

    ).parsed

async def asyncio_detailed(
    rule_id: str,
    *,
    client: AuthenticatedClient,
    metric: None | str | Unset = UNSET,
    bucket: None | str | Unset = UNSET,
    since: None | str | Unset = UNSET,
    until: None | str | Unset = UNSET,

) -> Response[OnlineRuleTrend | Problem]:
    """ Get Online Rule Trend

     Each metric's mean score and pass rate per UTC hour or day, each with its 95% interval
    inside the metric's range, from the rule's hourly rollups (kept as results are stored).

    Args:
        rule_id (str):
        metric (None | str | Unset): One metric's name; none: each.
        bucket (None | str | Unset): `hour` (the default) or `day` (UTC days).
        since (None | str | Unset): ISO 8601 start (UTC if no offset), floored to its bucket;
            default 2 days (hour) or 30 days (day) before `until`.
        until (None | str | Unset): ISO 8601 end, excluded, ceiled to its bucket's end (a bucket
            is counted whole); default the current bucket's end.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[OnlineRuleTrend | Problem]
     """


    kwargs = _get_kwargs(
        rule_id=rule_id,
metric=metric,
bucket=bucket,
since=since,
until=until,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    rule_id: str,
    *,
    client: AuthenticatedClient,
    metric: None | str | Unset = UNSET,
    bucket: None | str | Unset = UNSET,
    since: None | str | Unset = UNSET,
    until: None | str | Unset = UNSET,

) -> OnlineRuleTrend | Problem | None:
    """ Get Online Rule Trend

     Each metric's mean score and pass rate per UTC hour or day, each with its 95% interval
    inside the metric's range, from the rule's hourly rollups (kept as results are stored).

    Args:
        rule_id (str):
        metric (None | str | Unset): One metric's name; none: each.
        bucket (None | str | Unset): `hour` (the default) or `day` (UTC days).
        since (None | str | Unset): ISO 8601 start (UTC if no offset), floored to its bucket;
            default 2 days (hour) or 30 days (day) before `until`.
        until (None | str | Unset): ISO 8601 end, excluded, ceiled to its bucket's end (a bucket
            is counted whole); default the current bucket's end.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        OnlineRuleTrend | Problem
     """


    return (await asyncio_detailed(
        rule_id=rule_id,
client=client,
metric=metric,
bucket=bucket,
since=since,
until=until,

    )).parsed
