"""Metric versions: recorded at submit for every judged metric, read by the API."""

from collections.abc import Sequence
from typing import Any

from sqlalchemy.orm import Session

from app.db import utcnow
from app.metric_versions.repository import MetricVersionRepository
from app.metric_versions.schemas import MetricVersion as MetricVersionSchema
from app.metrics import MetricSpecBase
from app.metrics.versions import metric_version
from app.models import MetricVersion
from app.problems import bad_request, not_found


def record(
    session: Session,
    tenant_id: str,
    specs: Sequence[MetricSpecBase],
    judge: dict[str, Any] | None,
) -> dict[str, str]:
    """Per metric index (as a string), the version of each judged metric of a submission, its
    row stored unless it is already (insert-or-ignore: submissions of the same definition at
    the same moment both succeed).

    Args:
        judge: the submission's judge record (`app.evaluations.judging.resolve`), whose
            `metrics` holds each judged metric's resolved judge.
    """
    resolved = (judge or {}).get("metrics") or {}
    versions: dict[str, str] = {}
    rows: dict[str, dict[str, Any]] = {}
    for index, spec in enumerate(specs):
        version = metric_version(tenant_id, spec, resolved.get(str(index)))
        if version is None:
            continue
        versions[str(index)] = version.id
        rows.setdefault(
            version.id,
            {
                "id": version.id,
                "tenant_id": tenant_id,
                "type": version.type,
                "name": spec.display_name,
                "definition": version.definition,
                "status": "active",
                "parent_id": None,
                "created_at": utcnow(),
            },
        )
    MetricVersionRepository(session, tenant_id).add_missing(list(rows.values()))
    return versions


def with_versions(
    session: Session,
    tenant_id: str,
    specs: Sequence[MetricSpecBase],
    judge: dict[str, Any] | None,
) -> dict[str, Any] | None:
    """The judge record with `versions` (metric index -> version id) added when any metric
    is judged; the record as it was otherwise."""
    versions = record(session, tenant_id, specs, judge)
    if not versions:
        return judge
    return {**(judge or {}), "versions": versions}


def page(
    session: Session,
    tenant_id: str,
    type_: str | None,
    name: str | None,
    after: str | None,
    limit: int,
) -> Sequence[MetricVersion]:
    repository = MetricVersionRepository(session, tenant_id)
    if after and repository.get(after) is None:
        raise bad_request(
            f"after: {after[:40]!r} is not a metric version of this list",
            ["query", "after"],
            "bad_cursor",
        )
    return repository.page(type_, name, after or None, limit)


def get_or_404(
    session: Session,
    tenant_id: str,
    version_id: str,
    field: list[str | int] | None = None,
) -> MetricVersion:
    """The tenant's version, else a 404 naming `field` (default: the path's `version_id`)."""
    version = MetricVersionRepository(session, tenant_id).get(version_id)
    if version is None:
        raise not_found(f"No metric version {version_id!r}.", field=field or ["path", "version_id"])
    return version


def to_schema(version: MetricVersion) -> MetricVersionSchema:
    return MetricVersionSchema.model_validate(version, from_attributes=True)
