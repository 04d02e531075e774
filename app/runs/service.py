"""Run decisions: store a checked run as an evaluation of kind `run`, one case per sample."""

from collections.abc import Sequence

from sqlalchemy.orm import Session

from app.candidates.repository import CandidateModelRepository
from app.config import Settings
from app.evaluations import admission
from app.evaluations import estimate as estimates
from app.evaluations.repository import EvaluationRepository
from app.ids import new_id
from app.metric_versions import service as metric_versions
from app.metrics import MetricTestCase, parse_spec
from app.models import Evaluation, Run, Tenant
from app.problems import invalid_request, not_found
from app.runs.checks import check, question
from app.runs.report import CLUSTER
from app.runs.repository import RunRepository
from app.runs.schemas import RunCreate
from app.telemetry import logs
from app.usage import service as usage_service
from app.usage.schemas import Estimate


def _chooser(payload: RunCreate) -> str:
    """The request field that chose a run's samples: `limit` cut them, else `subsets` named
    them, else they are the whole of `dataset_id`."""
    if payload.limit is not None:
        return "limit"
    return "subsets" if payload.subsets else "dataset_id"


def create(session: Session, tenant: Tenant, payload: RunCreate, settings: Settings) -> Evaluation:
    """Validate and store a queued run: an evaluation of kind `run`, one case per sample."""
    checked = check(session, tenant, payload, settings)
    if checked.errors:
        raise invalid_request(checked.errors)
    assert checked.dataset is not None  # no errors: the dataset was found
    dataset, subsets, selected = checked.dataset, checked.subsets, checked.selected
    clusters, predictions, metrics = checked.clusters, checked.predictions, checked.metrics
    judge, endpoint_id = checked.judge, checked.endpoint_id
    given = payload.predictions is not None
    # Last, once the submission is known to be valid: the tenant row stays locked until commit.
    admission.admit(
        session,
        tenant,
        settings,
        test_cases=(len(selected), [_chooser(payload)]),
        metrics=(len(payload.metrics or []), ["metrics"]),
    )
    evaluation = Evaluation(
        id=new_id("run"),
        kind="run",
        tenant_id=tenant.id,
        name=payload.name,
        metadata_=payload.metadata or {},
        metrics=metrics,
        # Each judged metric's version, its row stored (issue 29).
        judge=metric_versions.with_versions(
            session, tenant.id, [parse_spec(spec) for spec in metrics], judge
        ),
        webhook_endpoint_id=endpoint_id,
        use_cache=payload.cache,
        cluster_by=payload.cluster_by,
        status="queued",
        request_id=logs.request_id.get(),
        total_test_cases=len(selected),
        dispatch_attempts=1,
    )
    cases = [
        {
            "evaluation_id": evaluation.id,
            "index": index,
            "client_id": f"{row.subset}/{row.index}",
            "input": question(row.messages),
            "actual_output": predictions.get((row.subset, row.index)),
            "expected_output": row.answer or "",
            "messages": None if given else row.messages,
            "metadata_": {"subset": row.subset, "row_index": row.index, "line": row.line}
            | ({"labels": row.labels} if row.labels else {})
            | ({CLUSTER: clusters[index]} if payload.cluster_by else {}),
        }
        for index, row in enumerate(selected)
    ]
    EvaluationRepository(session, tenant.id).add(evaluation, cases)
    RunRepository(session, tenant.id).add(
        Run(
            id=evaluation.id,
            tenant_id=tenant.id,
            dataset_id=dataset.id,
            model_id=payload.model_id,
            options={
                "subsets": subsets,
                "limit": payload.limit,
                "generation": payload.generation.model_dump(exclude_none=True),
                "judge": payload.judge.model_dump(),
                "uses_model": payload.model_id is not None,
                # Report keys of the run's own metric specs, in their order.
                "metric_keys": [spec.display_name for spec in payload.metrics or []],
            },
        )
    )
    return evaluation


def estimate_cost(
    session: Session, tenant: Tenant, payload: RunCreate, settings: Settings
) -> Estimate:
    """What this run would cost: the candidate's calls (one per sample) and the judge's.

    Checked as a run request is (the same 422); nothing is stored, nothing called. The
    candidate's answers stand in as its references' length (a note says so)."""
    checked = check(session, tenant, payload, settings)
    if checked.errors:
        raise invalid_request(checked.errors)
    selected, predictions = checked.selected, checked.predictions
    given = payload.predictions is not None
    notes: list[str] = []
    conversations = [row.messages for row in selected]
    sizes = estimates.sizes_of({}, session, conversations)
    candidate = None
    if not given:
        model = CandidateModelRepository(session, tenant.id).get(payload.model_id or "")
        candidate = estimates.candidate(
            settings,
            model.model if model is not None else None,
            conversations,
            [row.answer or "" for row in selected],
            sizes,
            notes,
        )
    cases = [
        MetricTestCase(
            index=index,
            id=f"{row.subset}/{row.index}",
            input=question(row.messages),
            actual_output=predictions.get((row.subset, row.index))
            if given
            else _stand_in(row.answer or ""),
            expected_output=row.answer or "",
            metadata={"labels": row.labels} if row.labels else None,
        )
        for index, row in enumerate(selected)
    ]
    found = estimates.estimate(
        settings,
        [parse_spec(spec) for spec in checked.metrics],
        cases,
        checked.judge,
        image_sizes=sizes,
        cache=payload.cache,
        notes=notes,
        candidate=candidate,
    )
    return usage_service.within_budget(session, tenant, found)


def _stand_in(reference: str) -> str:
    """A candidate's answer before it is made: as many words as the reference, none of them its
    own (so a rule deciding on the answer, `llm_recall`, is taken to ask the judge)."""
    return " ".join(["answer"] * max(1, len(reference.split())))


def get_or_404(session: Session, tenant: Tenant, run_id: str) -> tuple[Run, Evaluation]:
    found = RunRepository(session, tenant.id).get(run_id)
    if found is None:
        raise not_found(f"No run {run_id!r}.")
    return found


def page(
    session: Session,
    tenant: Tenant,
    after: str | None,
    limit: int,
    *,
    completed_with_errors: bool | None = None,
) -> Sequence[tuple[Run, Evaluation]]:
    """The tenant's runs with their evaluations, newest first; `limit + 1` so the caller can
    tell whether more follow (`completed_with_errors`: only runs whose flag is it)."""
    return RunRepository(session, tenant.id).page(
        after, limit, completed_with_errors=completed_with_errors
    )
