"""All SQL about webhook endpoints, events and delivery attempts."""

from collections.abc import Sequence

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from app.models import Evaluation, WebhookDelivery, WebhookEndpoint, WebhookEvent


class WebhookRepository:
    """Tenant-scoped reads and writes."""

    def __init__(self, session: Session, tenant_id: str) -> None:
        self.session = session
        self.tenant_id = tenant_id

    def _endpoints(self):  # type: ignore[no-untyped-def]
        return select(WebhookEndpoint).where(WebhookEndpoint.tenant_id == self.tenant_id)

    def endpoint(self, endpoint_id: str) -> WebhookEndpoint | None:
        return self.session.scalars(
            self._endpoints().where(WebhookEndpoint.id == endpoint_id)
        ).one_or_none()

    def endpoint_by_url(self, url: str, *, enabled_only: bool = True) -> WebhookEndpoint | None:
        statement = self._endpoints().where(WebhookEndpoint.url == url)
        if enabled_only:
            statement = statement.where(WebhookEndpoint.enabled.is_(True))
        return self.session.scalars(statement).one_or_none()

    def endpoints_page(self, after: str | None, limit: int) -> Sequence[WebhookEndpoint]:
        statement = self._endpoints().order_by(WebhookEndpoint.id.desc()).limit(limit + 1)
        if after:
            statement = statement.where(WebhookEndpoint.id < after)
        return self.session.scalars(statement).all()

    def delete_endpoint(self, endpoint_id: str) -> None:
        """Remove one of the tenant's endpoints, its events and deliveries; evaluations that
        named it keep their other data and name none."""
        owned = select(WebhookEndpoint.id).where(
            WebhookEndpoint.id == endpoint_id, WebhookEndpoint.tenant_id == self.tenant_id
        )
        self.session.execute(
            update(Evaluation)
            .where(Evaluation.webhook_endpoint_id.in_(owned))
            .values(webhook_endpoint_id=None)
        )
        self.session.execute(delete(WebhookDelivery).where(WebhookDelivery.endpoint_id.in_(owned)))
        self.session.execute(delete(WebhookEvent).where(WebhookEvent.endpoint_id.in_(owned)))
        self.session.execute(delete(WebhookEndpoint).where(WebhookEndpoint.id.in_(owned)))

    def deliveries_page(
        self, endpoint_id: str, after: str | None, limit: int
    ) -> Sequence[tuple[WebhookDelivery, str]]:
        statement = (
            select(WebhookDelivery, WebhookEvent.type)
            .join(WebhookEvent, WebhookEvent.id == WebhookDelivery.event_id)
            .where(
                WebhookDelivery.endpoint_id == endpoint_id,
                WebhookEvent.tenant_id == self.tenant_id,
            )
            .order_by(WebhookDelivery.id.desc())
            .limit(limit + 1)
        )
        if after:
            statement = statement.where(WebhookDelivery.id < after)
        return [(row[0], row[1]) for row in self.session.execute(statement)]
