"""Webhook endpoint registration and delivery history."""

from typing import Annotated

from fastapi import APIRouter, Query, Response, status

from app import audit
from app.api.deps import RuntimeDep, SessionDep, TenantDep, checked_with_tenant
from app.api.idempotent import idempotent
from app.api.query import id_after, id_cursor
from app.api.routing import LeanRoute
from app.problems import ProblemError, problem_responses
from app.webhooks.repository import WebhookRepository
from app.webhooks.schemas import (
    WebhookDelivery,
    WebhookDeliveryList,
    WebhookEndpoint,
    WebhookEndpointCreate,
    WebhookEndpointList,
    WebhookEndpointWithSecret,
)
from app.webhooks.service import (
    body_problems,
    check_endpoint_url,
    create_endpoint,
    endpoints_page,
    get_or_404,
)

router = APIRouter(
    prefix="/v1/webhook_endpoints",
    tags=["webhooks"],
    route_class=LeanRoute,
    responses=problem_responses(400, 401, 404, 409, 413, 415, 422),
)

LimitQuery = Annotated[int, Query(ge=1, le=100)]


@router.post("", status_code=status.HTTP_201_CREATED, response_model=WebhookEndpointWithSecret)
@checked_with_tenant(body_problems)
@idempotent(sealed=("secret",))
def create_webhook_endpoint(
    payload: WebhookEndpointCreate,
    session: SessionDep,
    tenant: TenantDep,
    runtime: RuntimeDep,
    response: Response,
) -> WebhookEndpointWithSecret:
    """Register a URL to receive signed evaluation events; the secret is shown only here."""
    check_endpoint_url(payload.url, runtime.settings)
    endpoint, secret = create_endpoint(session, tenant.id, payload, runtime.settings)
    session.commit()
    response.headers["Location"] = f"/v1/webhook_endpoints/{endpoint.id}"
    shown = WebhookEndpoint.model_validate(endpoint, from_attributes=True)
    return WebhookEndpointWithSecret(**shown.model_dump(), secret=secret)


@router.get("", response_model=WebhookEndpointList)
def list_webhook_endpoints(
    session: SessionDep,
    tenant: TenantDep,
    after: Annotated[str | None, id_after("we")] = None,
    limit: LimitQuery = 20,
) -> WebhookEndpointList:
    """The tenant's endpoints, newest first (secrets are never listed)."""
    rows = endpoints_page(session, tenant.id, id_cursor(after, "we"), limit)
    data = [WebhookEndpoint.model_validate(row, from_attributes=True) for row in rows[:limit]]
    return WebhookEndpointList.of(data, len(rows) > limit)


@router.get("/{endpoint_id}", response_model=WebhookEndpoint)
def get_webhook_endpoint(
    endpoint_id: str, session: SessionDep, tenant: TenantDep
) -> WebhookEndpoint:
    """An endpoint as listed (its secret was shown once, at registration)."""
    endpoint = get_or_404(session, tenant.id, endpoint_id)
    return WebhookEndpoint.model_validate(endpoint, from_attributes=True)


@router.get("/{endpoint_id}/deliveries", response_model=WebhookDeliveryList)
def list_webhook_deliveries(
    endpoint_id: str,
    session: SessionDep,
    tenant: TenantDep,
    after: Annotated[str | None, id_after("whd")] = None,
    limit: LimitQuery = 20,
) -> WebhookDeliveryList:
    """Every delivery attempt to an endpoint, newest first."""
    get_or_404(session, tenant.id, endpoint_id)
    rows = WebhookRepository(session, tenant.id).deliveries_page(
        endpoint_id, id_cursor(after, "whd"), limit
    )
    data = [
        WebhookDelivery(
            id=delivery.id,
            event_id=delivery.event_id,
            event_type=event_type,
            attempt=delivery.attempt,
            succeeded=delivery.succeeded,
            status_code=delivery.status_code,
            response_body=delivery.response_body,
            error=delivery.error,
            duration_ms=delivery.duration_ms,
            attempted_at=delivery.attempted_at,
        )
        for delivery, event_type in rows[:limit]
    ]
    return WebhookDeliveryList.of(data, len(rows) > limit)


@router.delete("/{endpoint_id}", status_code=status.HTTP_204_NO_CONTENT)
def delete_webhook_endpoint(endpoint_id: str, session: SessionDep, tenant: TenantDep) -> Response:
    """Forget an endpoint with its events and delivery history; evaluations naming it keep
    running and send nothing. An endpoint an online rule's alert goes to is kept (409 naming
    the rules): change or clear their `alert` first."""
    repo = WebhookRepository(session, tenant.id)
    endpoint = get_or_404(session, tenant.id, endpoint_id)
    rules = repo.rules_alerting(endpoint.url)
    if rules:
        named = ", ".join(f"{rule_id} ({name[:80]!r})" for rule_id, name in rules[:10])
        more = f" and {len(rules) - 10} more" if len(rules) > 10 else ""
        raise ProblemError(
            409,
            "Conflict",
            f"The alerts of online rules {named}{more} go to this endpoint; change or clear "
            "their `alert` (PATCH /v1/online_rules/{id}) before deleting it.",
            slug="webhook-endpoint-in-use",
            field=["path", "endpoint_id"],
        )
    audit.record(
        session,
        None,
        "webhook_endpoint.delete",
        "webhook_endpoint",
        endpoint.id,
        tenant_id=tenant.id,
        url=endpoint.url,
    )
    repo.delete_endpoint(endpoint.id)
    session.commit()
    return Response(status_code=status.HTTP_204_NO_CONTENT)
