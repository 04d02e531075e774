"""Webhook endpoint and delivery bodies."""

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from app.schemas import ListPage, http_url


class WebhookEndpointCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    url: str = Field(min_length=1, max_length=2048)
    description: str | None = Field(default=None, max_length=512)

    @field_validator("url")
    @classmethod
    def _http_url(cls, url: str) -> str:
        return http_url(url)


class WebhookEndpoint(BaseModel):
    object: Literal["webhook_endpoint"] = "webhook_endpoint"
    id: str
    url: str
    description: str | None
    enabled: bool
    failing_since: datetime | None = Field(
        description="The first failed attempt since the last successful one: every attempt since "
        "has failed (null once one succeeds). Failing for `LOUPE_WEBHOOK_DISABLE_AFTER_HOURS` "
        "(120 by default) disables the endpoint."
    )
    disabled_reason: str | None = Field(
        description="Why the endpoint was disabled (`enabled: false`): its receiver answered 410 "
        "Gone, or it failed continuously for too long; null while enabled. Registering its URL "
        "again turns it back on."
    )
    created_at: datetime


class WebhookEndpointWithSecret(WebhookEndpoint):
    secret: str = Field(description="`whsec_…`; shown only when the endpoint is created.")


class WebhookDelivery(BaseModel):
    object: Literal["webhook_delivery"] = "webhook_delivery"
    id: str
    event_id: str
    event_type: str
    attempt: int
    succeeded: bool
    status_code: int | None
    response_body: str | None
    error: str | None
    duration_ms: int
    attempted_at: datetime


class WebhookEndpointList(ListPage[WebhookEndpoint]):
    pass


class WebhookDeliveryList(ListPage[WebhookDelivery]):
    pass
