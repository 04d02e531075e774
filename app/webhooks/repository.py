"""All SQL about webhook endpoints, events and delivery attempts."""

from collections.abc import Sequence

from sqlalchemy import delete, select, update

from app.models import Evaluation, OnlineRule, WebhookDelivery, WebhookEndpoint, WebhookEvent
from app.repository import TenantScopedRepository


class WebhookRepository(TenantScopedRepository[WebhookEndpoint]):
    """One tenant's webhook endpoints, and their deliveries through them."""

    model = WebhookEndpoint

    def endpoint(self, endpoint_id: str) -> WebhookEndpoint | None:
        return self.get_by_id(endpoint_id)

    def endpoint_by_url(self, url: str, *, enabled_only: bool = True) -> WebhookEndpoint | None:
        statement = self.get_base_statement().where(WebhookEndpoint.url == url)
        if enabled_only:
            statement = statement.where(WebhookEndpoint.enabled.is_(True))
        return self.session.scalars(statement).one_or_none()

    def endpoints_page(self, after: str | None, limit: int) -> Sequence[WebhookEndpoint]:
        return self.keyset_page(
            self.get_base_statement(), WebhookEndpoint.id, after or None, limit, descending=True
        )

    def rules_alerting(self, url: str) -> list[tuple[str, str]]:
        """The tenant's online rules whose alert goes to `url`: (id, name), oldest first."""
        rows = self.session.execute(
            select(OnlineRule.id, OnlineRule.name, OnlineRule.alert)
            .where(OnlineRule.tenant_id == self.tenant_id, OnlineRule.alert.is_not(None))
            .order_by(OnlineRule.id)
        )
        return [(id_, name) for id_, name, alert in rows if (alert or {}).get("webhook_url") == url]

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
