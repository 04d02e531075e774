from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.evaluation_result_list import EvaluationResultList
from ...models.list_evaluation_results_order_type_0 import check_list_evaluation_results_order_type_0
from ...models.list_evaluation_results_order_type_0 import ListEvaluationResultsOrderType0
from ...models.list_evaluation_results_status_type_0 import check_list_evaluation_results_status_type_0
from ...models.list_evaluation_results_status_type_0 import ListEvaluationResultsStatusType0
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    evaluation_id: str,
    *,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 100,
    metric: None | str | Unset = UNSET,
    status: ListEvaluationResultsStatusType0 | None | Unset = UNSET,
    order: ListEvaluationResultsOrderType0 | None | Unset = UNSET,
    fragile: bool | None | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_after: None | str | Unset
    if isinstance(after, Unset):
        json_after = UNSET
    else:
        json_after = after
    params["after"] = json_after

    params["limit"] = limit

    json_metric: None | str | Unset
    if isinstance(metric, Unset):
        json_metric = UNSET
    else:
        json_metric = metric
    params["metric"] = json_metric

    json_status: None | str | Unset
    if isinstance(status, Unset):
        json_status = UNSET
    elif isinstance(status, str):
        json_status = status
    else:
        json_status = status
    params["status"] = json_status

    json_order: None | str | Unset
    if isinstance(order, Unset):
        json_order = UNSET
    elif isinstance(order, str):
        json_order = order
    else:
        json_order = order
    params["order"] = json_order

    json_fragile: bool | None | Unset
    if isinstance(fragile, Unset):
        json_fragile = UNSET
    else:
        json_fragile = fragile
    params["fragile"] = json_fragile


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/evaluations/{evaluation_id}/results".format(evaluation_id=quote(str(evaluation_id), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> EvaluationResultList | Problem | None:
    if response.status_code == 200:
        response_200 = EvaluationResultList.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[EvaluationResultList | Problem]:
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
    after: None | str | Unset = UNSET,
    limit: int | Unset = 100,
    metric: None | str | Unset = UNSET,
    status: ListEvaluationResultsStatusType0 | None | Unset = UNSET,
    order: ListEvaluationResultsOrderType0 | None | Unset = UNSET,
    fragile: bool | None | Unset = UNSET,

) -> Response[EvaluationResultList | Problem]:
    """ List Evaluation Results

     Stored results in (test case, metric) order, each with score, reason, error and logs.

    Args:
        evaluation_id (str):
        after (None | str | Unset):
        limit (int | Unset):  Default: 100.
        metric (None | str | Unset): Only this metric's results (its name).
        status (ListEvaluationResultsStatusType0 | None | Unset): Only passed, failed or errored
            results.
        order (ListEvaluationResultsOrderType0 | None | Unset): By score; results without one come
            last. Default: test case order.
        fragile (bool | None | Unset): true: only results judged more than once whose judgments
            straddle the threshold; false: only those whose judgments agree.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EvaluationResultList | Problem]
     """


    kwargs = _get_kwargs(
        evaluation_id=evaluation_id,
after=after,
limit=limit,
metric=metric,
status=status,
order=order,
fragile=fragile,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    evaluation_id: str,
    *,
    client: AuthenticatedClient,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 100,
    metric: None | str | Unset = UNSET,
    status: ListEvaluationResultsStatusType0 | None | Unset = UNSET,
    order: ListEvaluationResultsOrderType0 | None | Unset = UNSET,
    fragile: bool | None | Unset = UNSET,

) -> EvaluationResultList | Problem | None:
    """ List Evaluation Results

     Stored results in (test case, metric) order, each with score, reason, error and logs.

    Args:
        evaluation_id (str):
        after (None | str | Unset):
        limit (int | Unset):  Default: 100.
        metric (None | str | Unset): Only this metric's results (its name).
        status (ListEvaluationResultsStatusType0 | None | Unset): Only passed, failed or errored
            results.
        order (ListEvaluationResultsOrderType0 | None | Unset): By score; results without one come
            last. Default: test case order.
        fragile (bool | None | Unset): true: only results judged more than once whose judgments
            straddle the threshold; false: only those whose judgments agree.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EvaluationResultList | Problem
     """


    return sync_detailed(
        evaluation_id=evaluation_id,
client=client,
after=after,
limit=limit,
metric=metric,
status=status,
order=order,
fragile=fragile,

    ).parsed

async def asyncio_detailed(
    evaluation_id: str,
    *,
    client: AuthenticatedClient,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 100,
    metric: None | str | Unset = UNSET,
    status: ListEvaluationResultsStatusType0 | None | Unset = UNSET,
    order: ListEvaluationResultsOrderType0 | None | Unset = UNSET,
    fragile: bool | None | Unset = UNSET,

) -> Response[EvaluationResultList | Problem]:
    """ List Evaluation Results

     Stored results in (test case, metric) order, each with score, reason, error and logs.

    Args:
        evaluation_id (str):
        after (None | str | Unset):
        limit (int | Unset):  Default: 100.
        metric (None | str | Unset): Only this metric's results (its name).
        status (ListEvaluationResultsStatusType0 | None | Unset): Only passed, failed or errored
            results.
        order (ListEvaluationResultsOrderType0 | None | Unset): By score; results without one come
            last. Default: test case order.
        fragile (bool | None | Unset): true: only results judged more than once whose judgments
            straddle the threshold; false: only those whose judgments agree.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EvaluationResultList | Problem]
     """


    kwargs = _get_kwargs(
        evaluation_id=evaluation_id,
after=after,
limit=limit,
metric=metric,
status=status,
order=order,
fragile=fragile,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    evaluation_id: str,
    *,
    client: AuthenticatedClient,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 100,
    metric: None | str | Unset = UNSET,
    status: ListEvaluationResultsStatusType0 | None | Unset = UNSET,
    order: ListEvaluationResultsOrderType0 | None | Unset = UNSET,
    fragile: bool | None | Unset = UNSET,

) -> EvaluationResultList | Problem | None:
    """ List Evaluation Results

     Stored results in (test case, metric) order, each with score, reason, error and logs.

    Args:
        evaluation_id (str):
        after (None | str | Unset):
        limit (int | Unset):  Default: 100.
        metric (None | str | Unset): Only this metric's results (its name).
        status (ListEvaluationResultsStatusType0 | None | Unset): Only passed, failed or errored
            results.
        order (ListEvaluationResultsOrderType0 | None | Unset): By score; results without one come
            last. Default: test case order.
        fragile (bool | None | Unset): true: only results judged more than once whose judgments
            straddle the threshold; false: only those whose judgments agree.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EvaluationResultList | Problem
     """


    return (await asyncio_detailed(
        evaluation_id=evaluation_id,
client=client,
after=after,
limit=limit,
metric=metric,
status=status,
order=order,
fragile=fragile,

    )).parsed
