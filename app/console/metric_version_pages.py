"""The console's page of a metric version's agreement with people (issue 29 item 4): every
statistic with its interval, the confusion matrix and the disagreements, worst first, linking to
their test cases. Reads through `app.metric_versions` as GET /v1/metric_versions/{id}/agreement
does."""

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from app.api.deps import SessionDep
from app.console._render import SignedIn, page
from app.metric_versions import agreement, service

router = APIRouter(prefix="/console", include_in_schema=False)

# Each statistic of the agreement as the page names it, in the API's field order.
STATISTICS = (
    ("cohen_kappa", "Cohen's κ (pass/fail)"),
    ("weighted_kappa", "Weighted κ (quadratic, 5 bins)"),
    ("krippendorff_alpha", "Krippendorff's α, judge and people"),
    ("krippendorff_alpha_people", "Krippendorff's α, people alone (the ceiling)"),
    ("spearman", "Spearman's ρ"),
    ("tpr", "True positive rate"),
    ("tnr", "True negative rate"),
    ("mean_bias", "Mean bias (judge − people)"),
)


@router.get("/metric_versions/{version_id}")
def metric_version_page(
    request: Request, version_id: str, session: SessionDep, signed_in: SignedIn
) -> HTMLResponse:
    version = service.get_or_404(session, signed_in.tenant.id, version_id)
    return page(
        request,
        "metric_version.html",
        signed_in,
        version=version,
        agreement=agreement.report(session, signed_in.tenant.id, version),
        statistics=STATISTICS,
    )
