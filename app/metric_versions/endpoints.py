"""GET /v1/metric_versions: the tenant's judged metric versions (issue 29)."""

from typing import Annotated

from fastapi import APIRouter, Query

from app.api.deps import SessionDep, TenantDep
from app.api.routing import LeanRoute
from app.metric_versions import agreement, service
from app.metric_versions.schemas import MetricVersion, MetricVersionAgreement, MetricVersionList
from app.problems import invalid_field, problem_responses

router = APIRouter(
    prefix="/v1/metric_versions",
    tags=["metric_versions"],
    route_class=LeanRoute,
    responses=problem_responses(400, 401, 404, 422),
)

LimitQuery = Annotated[int, Query(ge=1, le=100)]


@router.get("", response_model=MetricVersionList)
def list_metric_versions(
    session: SessionDep,
    tenant: TenantDep,
    type: Annotated[str | None, Query(min_length=1, max_length=64)] = None,  # noqa: A002
    name: Annotated[str | None, Query(min_length=1, max_length=128)] = None,
    after: Annotated[str | None, Query(max_length=40)] = None,
    limit: LimitQuery = 20,
) -> MetricVersionList:
    """The tenant's metric versions, newest first; `type` and `name` filter them."""
    rows = service.page(session, tenant.id, type, name, after, limit)
    data = [service.to_schema(row) for row in rows[:limit]]
    return MetricVersionList.of(data, len(rows) > limit)


@router.get("/{version_id}", response_model=MetricVersion)
def get_metric_version(version_id: str, session: SessionDep, tenant: TenantDep) -> MetricVersion:
    """One metric version: its definition, status, parent and when it was first seen."""
    return service.to_schema(service.get_or_404(session, tenant.id, version_id))


@router.get("/{version_id}/agreement", response_model=MetricVersionAgreement)
def get_metric_version_agreement(
    version_id: str,
    session: SessionDep,
    tenant: TenantDep,
    threshold: Annotated[
        float | None,
        Query(
            allow_inf_nan=False,
            description="Pass at this score instead of the labelled results' threshold.",
        ),
    ] = None,
) -> MetricVersionAgreement:
    """How far the version's judge agrees with people's labels: Cohen's κ, weighted κ,
    Krippendorff's α (with and without the judge), Spearman's ρ, TPR, TNR and mean bias, each
    with its 95% bootstrap interval (or a note), the confusion matrix and the disagreements,
    worst first."""
    version = service.get_or_404(session, tenant.id, version_id)
    if threshold is not None:
        threshold += 0.0  # -0 is 0: the report (and its cache's key) says 0
        low, high = agreement.scale_of(version)
        if not low <= threshold <= high:
            raise invalid_field(
                ["query", "threshold"],
                f"threshold {threshold!r} is outside the version's scale [{low:g}, {high:g}]",
                "out_of_scale",
            )
    return agreement.report(session, tenant.id, version, threshold)
