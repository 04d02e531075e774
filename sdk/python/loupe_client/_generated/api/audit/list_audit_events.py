from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.audit_event_list import AuditEventList
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast
import datetime



def _get_kwargs(
    *,
    actor: None | str | Unset = UNSET,
    action: None | str | Unset = UNSET,
    object_type: None | str | Unset = UNSET,
    object_id: None | str | Unset = UNSET,
    since: datetime.datetime | None | Unset = UNSET,
    until: datetime.datetime | None | Unset = UNSET,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 20,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_actor: None | str | Unset
    if isinstance(actor, Unset):
        json_actor = UNSET
    else:
        json_actor = actor
    params["actor"] = json_actor

    json_action: None | str | Unset
    if isinstance(action, Unset):
        json_action = UNSET
    else:
        json_action = action
    params["action"] = json_action

    json_object_type: None | str | Unset
    if isinstance(object_type, Unset):
        json_object_type = UNSET
    else:
        json_object_type = object_type
    params["object_type"] = json_object_type

    json_object_id: None | str | Unset
    if isinstance(object_id, Unset):
        json_object_id = UNSET
    else:
        json_object_id = object_id
    params["object_id"] = json_object_id

    json_since: None | str | Unset
    if isinstance(since, Unset):
        json_since = UNSET
    elif isinstance(since, datetime.datetime):
        json_since = since.isoformat()
    else:
        json_since = since
    params["since"] = json_since

    json_until: None | str | Unset
    if isinstance(until, Unset):
        json_until = UNSET
    elif isinstance(until, datetime.datetime):
        json_until = until.isoformat()
    else:
        json_until = until
    params["until"] = json_until

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
        "url": "/v1/audit_events",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> AuditEventList | Problem | None:
    if response.status_code == 200:
        response_200 = AuditEventList.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[AuditEventList | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    actor: None | str | Unset = UNSET,
    action: None | str | Unset = UNSET,
    object_type: None | str | Unset = UNSET,
    object_id: None | str | Unset = UNSET,
    since: datetime.datetime | None | Unset = UNSET,
    until: datetime.datetime | None | Unset = UNSET,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 20,

) -> Response[AuditEventList | Problem]:
    """ List Audit Events

     The tenant's audit events, newest first: every create, delete, cancel and change made
    through the API, the console and the `loupe` command, with who made it.

    Args:
        actor (None | str | Unset): e.g. `key:key_…`, `operator`.
        action (None | str | Unset): e.g. `evaluation.delete`.
        object_type (None | str | Unset): e.g. `online_rule`.
        object_id (None | str | Unset):
        since (datetime.datetime | None | Unset): ISO 8601; events at or after it (UTC if no
            offset).
        until (datetime.datetime | None | Unset): ISO 8601; events before it (UTC if no offset).
        after (None | str | Unset):
        limit (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AuditEventList | Problem]
     """


    kwargs = _get_kwargs(
        actor=actor,
action=action,
object_type=object_type,
object_id=object_id,
since=since,
until=until,
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
    actor: None | str | Unset = UNSET,
    action: None | str | Unset = UNSET,
    object_type: None | str | Unset = UNSET,
    object_id: None | str | Unset = UNSET,
    since: datetime.datetime | None | Unset = UNSET,
    until: datetime.datetime | None | Unset = UNSET,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 20,

) -> AuditEventList | Problem | None:
    """ List Audit Events

     The tenant's audit events, newest first: every create, delete, cancel and change made
    through the API, the console and the `loupe` command, with who made it.

    Args:
        actor (None | str | Unset): e.g. `key:key_…`, `operator`.
        action (None | str | Unset): e.g. `evaluation.delete`.
        object_type (None | str | Unset): e.g. `online_rule`.
        object_id (None | str | Unset):
        since (datetime.datetime | None | Unset): ISO 8601; events at or after it (UTC if no
            offset).
        until (datetime.datetime | None | Unset): ISO 8601; events before it (UTC if no offset).
        after (None | str | Unset):
        limit (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AuditEventList | Problem
     """


    return sync_detailed(
        client=client,
actor=actor,
action=action,
object_type=object_type,
object_id=object_id,
since=since,
until=until,
after=after,
limit=limit,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    actor: None | str | Unset = UNSET,
    action: None | str | Unset = UNSET,
    object_type: None | str | Unset = UNSET,
    object_id: None | str | Unset = UNSET,
    since: datetime.datetime | None | Unset = UNSET,
    until: datetime.datetime | None | Unset = UNSET,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 20,

) -> Response[AuditEventList | Problem]:
    """ List Audit Events

     The tenant's audit events, newest first: every create, delete, cancel and change made
    through the API, the console and the `loupe` command, with who made it.

    Args:
        actor (None | str | Unset): e.g. `key:key_…`, `operator`.
        action (None | str | Unset): e.g. `evaluation.delete`.
        object_type (None | str | Unset): e.g. `online_rule`.
        object_id (None | str | Unset):
        since (datetime.datetime | None | Unset): ISO 8601; events at or after it (UTC if no
            offset).
        until (datetime.datetime | None | Unset): ISO 8601; events before it (UTC if no offset).
        after (None | str | Unset):
        limit (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AuditEventList | Problem]
     """


    kwargs = _get_kwargs(
        actor=actor,
action=action,
object_type=object_type,
object_id=object_id,
since=since,
until=until,
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
    actor: None | str | Unset = UNSET,
    action: None | str | Unset = UNSET,
    object_type: None | str | Unset = UNSET,
    object_id: None | str | Unset = UNSET,
    since: datetime.datetime | None | Unset = UNSET,
    until: datetime.datetime | None | Unset = UNSET,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 20,

) -> AuditEventList | Problem | None:
    """ List Audit Events

     The tenant's audit events, newest first: every create, delete, cancel and change made
    through the API, the console and the `loupe` command, with who made it.

    Args:
        actor (None | str | Unset): e.g. `key:key_…`, `operator`.
        action (None | str | Unset): e.g. `evaluation.delete`.
        object_type (None | str | Unset): e.g. `online_rule`.
        object_id (None | str | Unset):
        since (datetime.datetime | None | Unset): ISO 8601; events at or after it (UTC if no
            offset).
        until (datetime.datetime | None | Unset): ISO 8601; events before it (UTC if no offset).
        after (None | str | Unset):
        limit (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AuditEventList | Problem
     """


    return (await asyncio_detailed(
        client=client,
actor=actor,
action=action,
object_type=object_type,
object_id=object_id,
since=since,
until=until,
after=after,
limit=limit,

    )).parsed
