from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.online_rule import OnlineRule
from ...models.online_rule_update import OnlineRuleUpdate
from ...models.problem import Problem
from typing import cast



def _get_kwargs(
    rule_id: str,
    *,
    body: OnlineRuleUpdate,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/v1/online_rules/{rule_id}".format(rule_id=quote(str(rule_id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> OnlineRule | Problem | None:
    if response.status_code == 200:
        response_200 = OnlineRule.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[OnlineRule | Problem]:
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
    body: OnlineRuleUpdate,

) -> Response[OnlineRule | Problem]:
    """ Update Online Rule

     Change the fields given; calls already judged keep the metrics they were judged with.

    Args:
        rule_id (str):
        body (OnlineRuleUpdate): The fields to change; those left out keep their values. `null`
            clears a field a rule
            may go without (`judge`, `daily_usd`, `export_endpoint`, `export_headers`, `alert`); the
            others cannot be null.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[OnlineRule | Problem]
     """


    kwargs = _get_kwargs(
        rule_id=rule_id,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    rule_id: str,
    *,
    client: AuthenticatedClient,
    body: OnlineRuleUpdate,

) -> OnlineRule | Problem | None:
    """ Update Online Rule

     Change the fields given; calls already judged keep the metrics they were judged with.

    Args:
        rule_id (str):
        body (OnlineRuleUpdate): The fields to change; those left out keep their values. `null`
            clears a field a rule
            may go without (`judge`, `daily_usd`, `export_endpoint`, `export_headers`, `alert`); the
            others cannot be null.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        OnlineRule | Problem
     """


    return sync_detailed(
        rule_id=rule_id,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    rule_id: str,
    *,
    client: AuthenticatedClient,
    body: OnlineRuleUpdate,

) -> Response[OnlineRule | Problem]:
    """ Update Online Rule

     Change the fields given; calls already judged keep the metrics they were judged with.

    Args:
        rule_id (str):
        body (OnlineRuleUpdate): The fields to change; those left out keep their values. `null`
            clears a field a rule
            may go without (`judge`, `daily_usd`, `export_endpoint`, `export_headers`, `alert`); the
            others cannot be null.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[OnlineRule | Problem]
     """


    kwargs = _get_kwargs(
        rule_id=rule_id,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    rule_id: str,
    *,
    client: AuthenticatedClient,
    body: OnlineRuleUpdate,

) -> OnlineRule | Problem | None:
    """ Update Online Rule

     Change the fields given; calls already judged keep the metrics they were judged with.

    Args:
        rule_id (str):
        body (OnlineRuleUpdate): The fields to change; those left out keep their values. `null`
            clears a field a rule
            may go without (`judge`, `daily_usd`, `export_endpoint`, `export_headers`, `alert`); the
            others cannot be null.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        OnlineRule | Problem
     """


    return (await asyncio_detailed(
        rule_id=rule_id,
client=client,
body=body,

    )).parsed
