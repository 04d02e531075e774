"""Reading a tenant's audit trail through the API."""

from typing import Any

import httpx
from sqlalchemy import select

from app.models import ApiKey
from app.tenants.service import hash_key
from tests.fixtures.api import Api


def key_actor(api: Api, key: str) -> str:
    """The actor the audit trail names for requests made with `key`."""
    with api.served.runtime.session() as session:
        key_id = session.scalar(select(ApiKey.id).where(ApiKey.key_hash == hash_key(key)))
    return f"key:{key_id}"


def events(client: httpx.Client, **filters: Any) -> list[dict[str, Any]]:
    """Every audit event the filters select, newest first (all pages)."""
    found: list[dict[str, Any]] = []
    params = {**filters, "limit": 100}
    while True:
        response = client.get("/v1/audit_events", params=params)
        assert response.status_code == 200, response.text
        page = response.json()
        found.extend(page["data"])
        if not page["has_more"]:
            return found
        params["after"] = page["last_id"]


def actions(client: httpx.Client, **filters: Any) -> list[tuple[str, str, str]]:
    """(action, object_type, object_id) of each event, oldest first."""
    return [
        (e["action"], e["object_type"], e["object_id"]) for e in reversed(events(client, **filters))
    ]
