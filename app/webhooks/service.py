"""Webhook endpoints and Standard Webhooks delivery (signed, retried, every attempt stored)."""

import asyncio
import base64
import json
import logging
import random
import secrets
import time
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any, Literal

import httpx
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from standardwebhooks import Webhook

from app import audit, crypto
from app.config import Settings
from app.db import utcnow
from app.ids import new_id
from app.jsonio import utc_text
from app.media.netguard import (
    AddressPolicy,
    BlockedAddress,
    InvalidHost,
    Purpose,
    resolve_sync,
    url_host,
)
from app.models import Tenant, WebhookDelivery, WebhookEndpoint, WebhookEvent
from app.problems import FieldError, ProblemError, field_error, not_found
from app.schemas import http_url
from app.unscoped.webhook_deliveries import UnscopedDeliveryRepository
from app.webhooks import disabling, sending
from app.webhooks.repository import WebhookRepository
from app.webhooks.schemas import WebhookEndpointCreate

logger = logging.getLogger("loupe.webhooks")


def check_endpoint_url(
    url: str, settings: Settings, field: str = "url", purpose: Purpose = "webhook"
) -> None:
    """Refuse (422 on `field`) a URL whose host is or resolves to an address the operator's
    policy for `purpose` does not allow; callers check again before use, as DNS may change."""
    try:
        target = httpx.URL(url)
        policy = AddressPolicy.for_purpose(settings, purpose)
        resolve_sync(url_host(target), sending.port_of(target), policy)
    except (BlockedAddress, InvalidHost, httpx.InvalidURL) as exc:
        raise ProblemError(
            422,
            "Invalid request",
            f"{field}: {exc}",
            slug="validation",
            errors=[field_error([field], str(exc), "url_blocked")],
        ) from exc


def url_problems(
    body: Mapping[str, Any], field: str, settings: Settings, purpose: Purpose = "webhook"
) -> list[FieldError]:
    """The policy's refusal of the URL at `field` of a body that failed its schema for another
    reason, so both come in one answer (none for a URL the schema refuses: that is its error)."""
    url = body.get(field)
    if not isinstance(url, str):
        return []
    try:
        check_endpoint_url(http_url(url), settings, field, purpose)
    except ValueError:
        return []
    except ProblemError as refused:
        return refused.errors or []
    return []


def body_problems(
    session: Session, tenant: Tenant, settings: Settings, body: Mapping[str, Any]
) -> list[FieldError]:
    """What POST /v1/webhook_endpoints checks past a failed schema: the URL's policy."""
    return url_problems(body, "url", settings)


def create_endpoint(
    session: Session, tenant_id: str, payload: WebhookEndpointCreate, settings: Settings
) -> tuple[WebhookEndpoint, str]:
    """Register an endpoint with a fresh `whsec_` secret, stored encrypted; returns the
    endpoint and the secret in clear (shown to the client once).

    A URL whose endpoint was disabled (its receiver answered 410 Gone, or failed for
    LOUPE_WEBHOOK_DISABLE_AFTER_HOURS) is turned back on with a new secret and a clean slate:
    (tenant, url) is unique, and the row keeps the URL's delivery history. A URL registered
    and enabled is a 409.
    """
    endpoint = WebhookRepository(session, tenant_id).endpoint_by_url(
        payload.url, enabled_only=False
    )
    if endpoint is not None and endpoint.enabled:
        raise _already_registered()
    secret = "whsec_" + base64.b64encode(secrets.token_bytes(32)).decode()
    encrypted = crypto.encrypt(settings, secret)
    if endpoint is not None:
        endpoint.description = payload.description
        endpoint.secret_encrypted = encrypted
        endpoint.enabled = True
        # Back on with a clean slate: its old streak of failures is not held against it.
        endpoint.failing_since = None
        endpoint.disabled_reason = None
        session.flush()
        _audit_created(session, endpoint)
        return endpoint, secret
    endpoint = WebhookEndpoint(
        id=new_id("we"),
        tenant_id=tenant_id,
        url=payload.url,
        description=payload.description,
        secret_encrypted=encrypted,
        enabled=True,
    )
    session.add(endpoint)
    try:
        session.flush()
    except IntegrityError as exc:
        # A concurrent request registered the same URL between our check and this insert.
        raise _already_registered() from exc
    _audit_created(session, endpoint)
    return endpoint, secret


def _already_registered() -> ProblemError:
    return ProblemError(
        409,
        "Conflict",
        "url: that URL is already registered.",
        slug="webhook-endpoint-exists",
        field=["url"],
    )


def _audit_created(session: Session, endpoint: WebhookEndpoint) -> None:
    # The URL, never the secret.
    audit.record(
        session,
        None,
        "webhook_endpoint.create",
        "webhook_endpoint",
        endpoint.id,
        tenant_id=endpoint.tenant_id,
        url=endpoint.url,
    )


def get_or_404(session: Session, tenant_id: str, endpoint_id: str) -> WebhookEndpoint:
    endpoint = WebhookRepository(session, tenant_id).endpoint(endpoint_id)
    if endpoint is None:
        raise not_found(f"No webhook endpoint {endpoint_id!r}.")
    return endpoint


def endpoints_page(
    session: Session, tenant_id: str, after: str | None, limit: int
) -> Sequence[WebhookEndpoint]:
    """The tenant's endpoints after `after`, newest first: `limit` and one more if there are."""
    return WebhookRepository(session, tenant_id).endpoints_page(after, limit)


def endpoint_for_url(session: Session, tenant_id: str, url: str) -> WebhookEndpoint | None:
    return WebhookRepository(session, tenant_id).endpoint_by_url(url)


def registered(
    session: Session, tenant_id: str, url: str, loc: list[str | int]
) -> tuple[str | None, FieldError | None]:
    """The id of the tenant's enabled endpoint at a create body's `webhook_url`, else the field
    error every kind's create answers for it (one type and wording, whatever the kind): a URL
    never registered (`unregistered_webhook`), or one whose endpoint was disabled
    (`disabled_webhook`, saying why and how to turn it back on)."""
    endpoint = WebhookRepository(session, tenant_id).endpoint_by_url(url, enabled_only=False)
    if endpoint is None:
        message = (
            "not a registered webhook endpoint; register it with POST /v1/webhook_endpoints first"
        )
        return None, field_error(loc, message, "unregistered_webhook")
    if not endpoint.enabled:
        # Registering the URL again is what turns an endpoint back on (create_endpoint).
        message = (
            f"webhook endpoint {endpoint.id} at this URL is disabled "
            f"({endpoint.disabled_reason or 'no reason recorded'}); register the URL again with "
            "POST /v1/webhook_endpoints to turn it back on"
        )
        return None, field_error(loc, message, "disabled_webhook")
    return endpoint.id, None


def endpoint_by_id(session: Session, endpoint_id: str) -> WebhookEndpoint | None:
    return UnscopedDeliveryRepository(session).endpoint(endpoint_id)


# How an event's body wraps its data: Loupe's own (`type`, ISO `timestamp`, `data`), or
# OpenAI's (`id`, `object: "event"`, Unix-seconds `created_at`, `type`, `data`), which the
# official SDK's `client.webhooks.unwrap()` parses (eval runs).
Envelope = Literal["loupe", "openai"]


def emit(
    session: Session,
    tenant_id: str,
    endpoint_id: str,
    event_type: str,
    data: dict[str, Any],
    envelope: Envelope = "loupe",
) -> WebhookEvent:
    """Store an event for delivery; the caller enqueues it after committing.

    Either envelope's event id is the `webhook-id` header it is signed under.
    """
    event_id = new_id("msg")
    now = utcnow()
    body: dict[str, Any] = (
        {
            "id": event_id,
            "object": "event",
            "created_at": int(now.timestamp()),
            "type": event_type,
            "data": data,
        }
        if envelope == "openai"
        else {"type": event_type, "timestamp": utc_text(now), "data": data}
    )
    payload = json.dumps(body, separators=(",", ":"))
    event = WebhookEvent(
        id=event_id,
        tenant_id=tenant_id,
        endpoint_id=endpoint_id,
        type=event_type,
        payload=payload,
        status="pending",
        attempt_count=0,
        next_attempt_at=now,
    )
    session.add(event)
    session.flush()
    return event


def claim(session: Session, event_id: str, settings: Settings) -> bool:
    """Lease a due event so exactly one delivery job attempts it."""
    now = utcnow()
    lease = now + timedelta(seconds=settings.webhook_timeout_seconds + 60)
    return UnscopedDeliveryRepository(session).claim(event_id, now, lease)


def due_event_ids(session: Session) -> list[str]:
    return UnscopedDeliveryRepository(session).due_event_ids(utcnow())


def _next_attempt(settings: Settings, attempt_count: int) -> datetime | None:
    schedule = settings.webhook_retry_schedule
    if attempt_count > len(schedule):
        return None
    delay = schedule[attempt_count - 1]
    # ±10 % jitter keeps a receiver that came back from being hit by every retry at once.
    return utcnow() + timedelta(seconds=delay * random.uniform(0.9, 1.1))


def deliver(session: Session, event_id: str, settings: Settings) -> WebhookDelivery | None:
    """Make one signed delivery attempt for a claimed event and record its outcome."""
    repo = UnscopedDeliveryRepository(session)
    event = repo.event(event_id)
    if event is None or event.status != "pending":
        return None
    endpoint = repo.endpoint(event.endpoint_id)
    attempt = event.attempt_count + 1
    status_code: int | None = None
    body: str | None = None
    error: str | None = None
    started = time.perf_counter()
    secret: str | None = None
    if endpoint is None or not endpoint.enabled:
        error = "endpoint is disabled"
    else:
        try:
            secret = crypto.decrypt(settings, endpoint.secret_encrypted)
        except crypto.SecretUnavailable:
            # Nothing valid can be signed: a failed attempt, retried (the key may come back).
            error = (
                "the webhook secret cannot be decrypted: LOUPE_SECRET_KEY differs from the one "
                "it was stored with"
            )
    if endpoint is not None and secret is not None:
        sent_at = utcnow()
        signature = Webhook(secret).sign(event.id, sent_at, event.payload)
        headers = {
            "content-type": "application/json",
            "user-agent": "Loupe-Webhooks/1",
            # Raw bytes only: the kept start of a body is then never a decompression's output.
            "accept-encoding": "identity",
            "webhook-id": event.id,
            "webhook-timestamp": str(int(sent_at.timestamp())),
            "webhook-signature": signature,
        }
        try:
            status_code, body = asyncio.run(
                sending.attempt(
                    httpx.URL(endpoint.url),
                    AddressPolicy.for_purpose(settings, "webhook"),
                    event.payload.encode(),
                    headers,
                    settings.webhook_timeout_seconds,
                )
            )
        except (BlockedAddress, InvalidHost) as exc:
            error = f"refused: {exc}"[:1024]
        except TimeoutError as exc:
            late = str(exc) or (f"no complete answer within {settings.webhook_timeout_seconds:g} s")
            error = f"TimeoutError: {late} (LOUPE_WEBHOOK_TIMEOUT_SECONDS)"
        except httpx.HTTPError as exc:
            error = f"{type(exc).__name__}: {exc}"[:1024]
    succeeded = status_code is not None and 200 <= status_code < 300
    now = utcnow()
    # An attempt made counts towards the endpoint's failing streak; one Loupe could not sign
    # (its secret key changed: the operator's fault, and every endpoint's) does not.
    stopped = (
        endpoint is not None
        and secret is not None
        and disabling.after_attempt(session, settings, endpoint, succeeded, status_code, error, now)
    )
    delivery = WebhookDelivery(
        id=new_id("whd"),
        event_id=event.id,
        endpoint_id=event.endpoint_id,
        attempt=attempt,
        succeeded=succeeded,
        status_code=status_code,
        response_body=body,
        error=error,
        duration_ms=int((time.perf_counter() - started) * 1000),
        attempted_at=now,
    )
    session.add(delivery)
    event.attempt_count = attempt
    if succeeded:
        event.status = "delivered"
        event.delivered_at = now
        event.next_attempt_at = None
    elif stopped or endpoint is None or not endpoint.enabled:
        # Disabled by this attempt (410 Gone, or failing too long) or before it: not retried.
        event.status = "failed"
        event.next_attempt_at = None
    else:
        event.next_attempt_at = _next_attempt(settings, attempt)
        if event.next_attempt_at is None:
            event.status = "failed"
            logger.warning("webhook event %s failed after %d attempts", event.id, attempt)
    session.flush()
    return delivery
