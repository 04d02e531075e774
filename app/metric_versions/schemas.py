"""Metric version bodies."""

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from app.schemas import ListPage


class MetricVersion(BaseModel):
    object: Literal["metric_version"] = "metric_version"
    id: str = Field(
        description="`mv_` and 24 hex digits of sha256(tenant id, canonical `definition`)."
    )
    type: str = Field(description="The metric's type, e.g. `g_eval`.")
    name: str = Field(description="The metric's name when the version was first seen.")
    definition: dict[str, Any] = Field(
        description="Exactly what was hashed: `type`, `options` (what the prompt and scoring "
        "read, defaults left out) and `judge` (model or panel, and samples, aggregate and "
        "temperature when judged more than once). The threshold is not part of it."
    )
    status: Literal["active", "candidate", "declined"]
    parent_id: str | None = Field(
        description="The version an alignment derived this one from; null for one a "
        "submission made."
    )
    created_at: datetime


class MetricVersionList(ListPage[MetricVersion]):
    pass
