"""Online rules: create, list, read, change, enable, disable, delete (issue 26). Changing a rule
needs the `admin` scope (a team's admins manage its rules, issue 28); reading needs `read`."""

from collections.abc import Mapping
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, Response, status

from app.api.deps import RuntimeDep, SessionDep, TenantDep, checked_with_tenant, with_tenant
from app.api.idempotent import idempotent
from app.api.openapi import Extras
from app.api.query import id_after, id_cursor
from app.api.routing import LeanRoute
from app.online import backfill, checks, reads, receiver, service, trend
from app.online.repository import OnlineRuleRepository
from app.online.schemas import (
    Backfill,
    BackfillRequest,
    OnlineResultList,
    OnlineRule,
    OnlineRuleCreate,
    OnlineRuleList,
    OnlineRuleUpdate,
)
from app.online.trend_schemas import OnlineRuleTrend
from app.problems import FieldError, checked_anyway, problem_responses
from app.tenants.scopes import ADMIN_ONLY

# When a client polling a backfill's results should look again, as an evaluation's 202 says.
POLL_AFTER_SECONDS = "2"

router = APIRouter(
    prefix="/v1/online_rules",
    tags=["online rules"],
    route_class=LeanRoute,
    responses=problem_responses(400, 401, 404, 409, 413, 415, 422),
)

LimitQuery = Annotated[int, Query(ge=1, le=100)]

OPENAPI = Extras(
    examples={
        "create_online_rule": {
            "name": "support bot answers",
            "filter": [{"attribute": "service.name", "op": "eq", "value": "support-bot"}],
            "sampling": {"rate": 0.1},
            "metrics": [{"type": "answer_relevancy", "threshold": 0.7}],
            "daily_usd": 5,
        },
        "update_online_rule": {"sampling": {"rate": 0.05}},
    }
)


@router.post(
    "", status_code=status.HTTP_201_CREATED, response_model=OnlineRule, openapi_extra=ADMIN_ONLY
)
@checked_with_tenant(checks.body_problems)
@idempotent()
def create_online_rule(
    payload: OnlineRuleCreate,
    session: SessionDep,
    tenant: TenantDep,
    runtime: RuntimeDep,
    response: Response,
) -> OnlineRule:
    """Judge the tenant's production calls (spans sent to `/v1/traces`) that match a filter."""
    rule = service.create(session, tenant, payload, runtime.settings)
    body = service.to_schema(session, tenant, rule, runtime.settings)
    session.commit()
    response.headers["Location"] = f"/v1/online_rules/{rule.id}"
    return body


@router.get("", response_model=OnlineRuleList)
def list_online_rules(
    session: SessionDep,
    tenant: TenantDep,
    runtime: RuntimeDep,
    after: Annotated[str | None, id_after("rule")] = None,
    limit: LimitQuery = 20,
) -> OnlineRuleList:
    """The tenant's online rules with their counts, newest first."""
    rows = OnlineRuleRepository(session, tenant.id).page(id_cursor(after, "rule"), limit)
    return OnlineRuleList.of(
        service.to_schemas(session, tenant, list(rows[:limit]), runtime.settings),
        len(rows) > limit,
    )


@router.get("/{rule_id}", response_model=OnlineRule)
def get_online_rule(
    rule_id: str, session: SessionDep, tenant: TenantDep, runtime: RuntimeDep
) -> OnlineRule:
    """One rule and what it did with the spans it received (`counts`)."""
    rule = service.get_or_404(session, tenant, rule_id)
    return service.to_schema(session, tenant, rule, runtime.settings)


def _update_problems(request: Request, body: Mapping[str, Any]) -> list[FieldError]:
    """`checked_with_tenant` for a change: the rule's kept metrics check its alert's metric."""
    rule_id = str(request.path_params.get("rule_id", ""))
    return with_tenant(
        request,
        lambda session, tenant, settings, _own: checks.update_body_problems(
            session, tenant, settings, body, rule_id
        ),
    )


@router.patch("/{rule_id}", response_model=OnlineRule, openapi_extra=ADMIN_ONLY)
@checked_anyway(_update_problems)
def update_online_rule(
    rule_id: str,
    payload: OnlineRuleUpdate,
    session: SessionDep,
    tenant: TenantDep,
    runtime: RuntimeDep,
) -> OnlineRule:
    """Change the fields given; calls already judged keep the metrics they were judged with."""
    rule = service.get_or_404(session, tenant, rule_id)
    service.update(session, tenant, rule, payload, runtime.settings)
    body = service.to_schema(session, tenant, rule, runtime.settings)
    session.commit()
    return body


@router.post("/{rule_id}/enable", response_model=OnlineRule, openapi_extra=ADMIN_ONLY)
def enable_online_rule(
    rule_id: str, session: SessionDep, tenant: TenantDep, runtime: RuntimeDep
) -> OnlineRule:
    """Judge matching calls again from now on."""
    return _set_enabled(session, tenant, runtime, rule_id, True)


@router.post("/{rule_id}/disable", response_model=OnlineRule, openapi_extra=ADMIN_ONLY)
def disable_online_rule(
    rule_id: str, session: SessionDep, tenant: TenantDep, runtime: RuntimeDep
) -> OnlineRule:
    """Stop judging; what was judged stays, and received calls are no longer counted."""
    return _set_enabled(session, tenant, runtime, rule_id, False)


@router.get("/{rule_id}/results", response_model=OnlineResultList)
def list_online_rule_results(
    rule_id: str,
    request: Request,
    session: SessionDep,
    tenant: TenantDep,
    after: Annotated[str | None, id_after("res")] = None,
    limit: LimitQuery = 20,
) -> OnlineResultList:
    """Every result of the rule's judged calls, newest first, each with the judged span's
    `trace_id` and `span_id`, the day it was judged on, and the call as its `test_case`
    (input, output, retrieved documents, images as `GET /v1/media/{sha256}` URLs). Each day
    is an evaluation (`evaluation_id`) readable through `/v1/evaluations`."""
    rule = service.get_or_404(session, tenant, rule_id)

    def media_url(digest: str) -> str:
        return str(request.url_for("get_media", sha256=digest))

    rows = reads.result_page(session, tenant, rule, id_cursor(after, "res"), limit, media_url)
    return OnlineResultList.of(rows[:limit], len(rows) > limit)


@router.get("/{rule_id}/trend", response_model=OnlineRuleTrend)
def get_online_rule_trend(
    rule_id: str,
    session: SessionDep,
    tenant: TenantDep,
    metric: Annotated[str | None, Query(description="One metric's name; none: each.")] = None,
    bucket: Annotated[
        str | None, Query(description="`hour` (the default) or `day` (UTC days).")
    ] = None,
    since: Annotated[
        str | None,
        Query(
            description="ISO 8601 start (UTC if no offset), floored to its bucket; default 2 "
            "days (hour) or 30 days (day) before `until`."
        ),
    ] = None,
    until: Annotated[
        str | None,
        Query(
            description="ISO 8601 end, excluded, ceiled to its bucket's end (a bucket is counted "
            "whole); default the current bucket's end."
        ),
    ] = None,
) -> OnlineRuleTrend:
    """Each metric's mean score and pass rate per UTC hour or day, each with its 95% interval
    inside the metric's range, from the rule's hourly rollups (kept as results are stored)."""
    rule = service.get_or_404(session, tenant, rule_id)
    query = trend.parse(rule, metric, bucket, since, until)
    return trend.trend(session, tenant, rule, query)


@router.post(
    "/{rule_id}/backfill",
    status_code=status.HTTP_202_ACCEPTED,
    response_model=Backfill,
    openapi_extra=ADMIN_ONLY,
)
@idempotent()
def backfill_online_rule(
    rule_id: str,
    payload: BackfillRequest,
    session: SessionDep,
    tenant: TenantDep,
    runtime: RuntimeDep,
    response: Response,
) -> Backfill:
    """Apply the rule to the calls Loupe kept (those any of the tenant's rules stored) received
    from `since` to `until`: those its filter and sampling take and it has not judged are
    appended to its evaluation of today and judged, within its and the tenant's daily budget.
    At most LOUPE_BACKFILL_MAX_CALLS (10,000) kept calls per request (`truncated`; go on with
    `after`)."""
    rule = service.get_or_404(session, tenant, rule_id)
    window = backfill.parse(payload, runtime.settings)
    body = backfill.backfill(session, runtime, tenant, rule, window)
    session.commit()
    response.headers["Location"] = f"/v1/online_rules/{rule.id}/results"
    response.headers["Retry-After"] = POLL_AFTER_SECONDS
    return body


@router.delete("/{rule_id}", status_code=status.HTTP_204_NO_CONTENT, openapi_extra=ADMIN_ONLY)
def delete_online_rule(
    rule_id: str, session: SessionDep, tenant: TenantDep, runtime: RuntimeDep
) -> Response:
    """Forget a rule, its counts and its days' evaluations (their images with them)."""
    service.delete(session, runtime, tenant, service.get_or_404(session, tenant, rule_id))
    session.commit()
    return Response(status_code=status.HTTP_204_NO_CONTENT)


def _set_enabled(
    session: SessionDep, tenant: TenantDep, runtime: RuntimeDep, rule_id: str, enabled: bool
) -> OnlineRule:
    rule = service.set_enabled(session, service.get_or_404(session, tenant, rule_id), enabled)
    body = service.to_schema(session, tenant, rule, runtime.settings)
    session.commit()
    return body


# The kind's routes, as the registry (app/kinds.py) includes them: the rules and the receiver.
routes = APIRouter()
routes.include_router(router)
routes.include_router(receiver.router)
