"""Audit event bodies."""

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from app.schemas import ListPage


class AuditEvent(BaseModel):
    object: Literal["audit_event"] = "audit_event"
    id: str
    actor: str = Field(
        description="Who acted: `key:<key id>`, `person:<person id>`, `operator` (the `loupe` "
        "command) or `system` (jobs, the ticker)."
    )
    action: str = Field(description="`<object type>.<verb>`, e.g. `evaluation.delete`.")
    object_type: str
    object_id: str
    at: datetime
    details: dict[str, Any] = Field(description="What else the change was about; no secret.")


class AuditEventList(ListPage[AuditEvent]):
    pass
