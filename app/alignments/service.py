"""Alignments: propose a candidate version from labelled disagreements, judge it (never commits).

`create` splits a version's labelled items (those whose content some result of the version
still holds) into a proposal share and a held-out share, builds the candidate's guidance from
the proposal share's disagreements (people's verdicts and rationales as examples, and rubric
notes the judge model writes once from them), records the candidate as a metric version of
status `candidate`, and stores an evaluation of kind `alignment` whose held-out test cases are
judged by the current version (metric 0) and the candidate (metric 1) with the same judge.
`report.report` reads κ before and after from those results and the people's labels.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError
from sqlalchemy.orm import Session

from app import audit
from app.alignments import guidance, report
from app.alignments import split as splitting
from app.alignments.repository import AlignmentRepository
from app.alignments.schemas import AlignmentCreate
from app.api.salvage import salvage
from app.config import Settings
from app.db import utcnow
from app.evaluations import admission
from app.evaluations.repository import EvaluationRepository
from app.ids import new_id
from app.labels import service as labels_service
from app.labels.items import item_content, item_key
from app.metric_versions import service as metric_versions
from app.metric_versions.repository import MetricVersionRepository
from app.metrics import MetricSpecBase, parse_spec
from app.metrics.versions import metric_version
from app.models import Alignment, Evaluation, Label, MetricVersion, Tenant, TestCase
from app.problems import FieldError, ProblemError, field_error, invalid_request, not_found
from app.stats import LabelledItem, human_agreement
from app.telemetry import logs
from app.usage import service as usage
from app.webhooks import service as webhook_service

KIND = "alignment"
PREFIX = "aln"
CURRENT, CANDIDATE = "current", "candidate"


@dataclass(frozen=True)
class _Source:
    """What the version was judged with: a stored spec and the judge it resolved to."""

    spec: MetricSpecBase
    spec_json: dict[str, Any]
    judge: dict[str, Any] | None


def _refused(status: int, slug: str, detail: str, loc: list[str | int]) -> ProblemError:
    title = "Conflict" if status == 409 else "Unprocessable Content"
    return ProblemError(
        status, title, detail, slug=slug, errors=[field_error(loc, detail, slug.replace("-", "_"))]
    )


def _version_problems(session: Session, tenant_id: str, version_id: str) -> list[FieldError]:
    if MetricVersionRepository(session, tenant_id).get(version_id) is not None:
        return []
    message = f"no metric version {version_id!r}"
    return [field_error(["metric_version"], message, "not_found")]


def body_problems(
    session: Session, tenant: Tenant, settings: Settings, body: Mapping[str, Any]
) -> list[FieldError]:
    """What else is wrong with an alignment body the schema refused: a metric version that
    is not the tenant's (an id in a body that names nothing is the body's fault, a 422)."""
    salvaged, refused = salvage(AlignmentCreate, body)
    found = []
    if "metric_version" not in refused:
        found += _version_problems(session, tenant.id, salvaged.metric_version)
    if "webhook_url" not in refused:
        found += _webhook_problems(session, tenant.id, salvaged.webhook_url)
    return found


def _webhook_problems(session: Session, tenant_id: str, url: str | None) -> list[FieldError]:
    if url is None:
        return []
    _, unregistered = webhook_service.registered(session, tenant_id, url, ["webhook_url"])
    return [] if unregistered is None else [unregistered]


def _source(repo: AlignmentRepository, version: MetricVersion) -> _Source:
    found = repo.latest_result(version.id)
    if found is None:
        raise _refused(
            409,
            "no-results",
            f"no result of metric version {version.id} remains to read its spec and judge from",
            ["metric_version"],
        )
    result, evaluation = found
    spec_json = dict(evaluation.metrics[result.metric_index])
    try:
        spec = parse_spec(spec_json)
    except ValidationError as error:
        raise _refused(
            409,
            "spec-unreadable",
            f"the spec metric version {version.id} was judged with no longer parses: {error}",
            ["metric_version"],
        ) from error
    if "guidance" not in type(spec).model_fields:
        raise _refused(
            422,
            "guidance-unsupported",
            f"a {version.type} metric takes no guidance: only judged metrics with a prompt of "
            "Loupe's (g_eval, faithfulness, ...) can be aligned",
            ["metric_version"],
        )
    judge = ((evaluation.judge or {}).get("metrics") or {}).get(str(result.metric_index))
    return _Source(spec, spec.model_dump(mode="json", exclude_none=True), judge)


def _items(
    repo: AlignmentRepository, version_id: str, labels: Sequence[Label]
) -> tuple[dict[str, TestCase], dict[str, list[Label]], dict[str, set[str]]]:
    """The labelled items whose content some result of the version still holds: a test case
    holding it, the labels, and what it shares with other items (its images, and the
    conversations of every test case holding it: splitting.groups), by item key."""
    by_key: dict[str, list[Label]] = {}
    for label in labels:
        by_key.setdefault(label.item_key, []).append(label)
    cases: dict[str, TestCase] = {}
    marks: dict[str, set[str]] = {}
    for case in repo.judged_cases(version_id):
        key = item_key(case)
        if key not in by_key:
            continue
        if key not in cases:
            cases[key] = case
            marks[key] = splitting.blobs_of(item_content(case))
        marks[key] |= splitting.conversation_marks(case.metadata_)
    return cases, {key: by_key[key] for key in cases}, marks


def create(
    session: Session, tenant: Tenant, body: AlignmentCreate, settings: Settings
) -> Alignment:
    """Propose a candidate for `body.metric_version` and store the evaluation that judges it;
    the caller submits that evaluation (`lifecycle_service.submit`) and commits."""
    version = MetricVersionRepository(session, tenant.id).get(body.metric_version)
    problems = _version_problems(session, tenant.id, body.metric_version)
    problems += _webhook_problems(session, tenant.id, body.webhook_url)
    if version is None or problems:
        raise invalid_request(problems)
    endpoint_id = None
    if body.webhook_url is not None:
        endpoint_id, _ = webhook_service.registered(
            session, tenant.id, body.webhook_url, ["webhook_url"]
        )
    repo = AlignmentRepository(session, tenant.id)
    source = _source(repo, version)
    cases, labels, marks = _items(
        repo, version.id, labels_service.of_version(session, tenant.id, version.id)
    )
    proposal, held_out = splitting.split(marks, body.held_out_share, body.seed)
    if len(held_out) < body.min_held_out:
        raise invalid_request(
            [
                field_error(
                    ["metric_version"],
                    f"{len(cases)} labelled items of {version.id} still have their content in "
                    f"a result; {len(held_out)} would be held out and at least "
                    f"{body.min_held_out} are needed: label more items of this version",
                    "too_few_labels",
                ),
                field_error(
                    ["held_out_share"],
                    f"{body.held_out_share} of {len(cases)} items holds out {len(held_out)}",
                    "too_few_labels",
                ),
            ]
        )
    spec = source.spec
    scale = spec.score_bounds()
    threshold = spec.threshold
    proposed = human_agreement(
        [
            LabelledItem(key, labels[key][0].judge_score, report.labelled(labels[key]))
            for key in proposal
        ],
        threshold=threshold,
        scale=scale,
    )
    if not proposed.disagreements:
        raise _refused(
            409,
            "no-disagreements",
            f"the judge agrees with people on all {proposed.n} items of the proposal share: "
            "there is nothing to propose a candidate from",
            ["metric_version"],
        )
    # The notes are a judge call like any other: not made once the day's budget is spent, nor
    # for an alignment the tenant's limits refuse; checked again, locked, below. Whether the
    # candidate is the version's own depends on the notes' words: it is known after the call.
    admission.admit(
        session,
        tenant,
        settings,
        test_cases=(len(held_out), ["metric_version"]),
        metrics=(2, ["metric_version"]),
        lock=False,
    )
    notes, notes_usage, notes_model = guidance.ask_notes(
        session,
        tenant.id,
        settings,
        source.judge,
        guidance.notes_messages(spec, proposed, cases, labels),
    )
    # Refused from here on, the call was still made: its usage is counted all the same.
    with guidance.paid_for(notes_model, notes_usage):
        proposed_guidance = {"examples": guidance.examples(proposed, cases, labels), "notes": notes}
        current = parse_spec({**source.spec_json, "name": CURRENT})
        candidate = parse_spec(
            {**source.spec_json, "name": CANDIDATE, "guidance": proposed_guidance}
        )
        candidate_def = metric_version(tenant.id, candidate, source.judge)
        assert candidate_def is not None  # a metric taking guidance is judged
        if candidate_def.id == version.id:
            raise _refused(
                409,
                "same-version",
                "the proposed guidance is the version's own: nothing would change",
                ["metric_version"],
            )
        # Stored first as a candidate: recording the evaluation's versions leaves it as it is.
        MetricVersionRepository(session, tenant.id).add_missing(
            [
                {
                    "id": candidate_def.id,
                    "tenant_id": tenant.id,
                    "type": candidate_def.type,
                    "name": version.name,
                    "definition": candidate_def.definition,
                    "status": "candidate",
                    "parent_id": version.id,
                    "created_at": utcnow(),
                }
            ]
        )
        admission.admit(
            session,
            tenant,
            settings,
            test_cases=(len(held_out), ["metric_version"]),
            metrics=(2, ["metric_version"]),
        )
        specs = [current, candidate]
        record = {**(source.judge or {}), "metrics": {"0": source.judge, "1": source.judge}}
        evaluation = Evaluation(
            id=new_id(PREFIX),
            kind=KIND,
            tenant_id=tenant.id,
            name=f"alignment of {version.name}",
            metadata_={"metric_version": version.id, "candidate_version": candidate_def.id},
            metrics=[each.model_dump(mode="json", exclude_none=True) for each in specs],
            judge=metric_versions.with_versions(session, tenant.id, specs, record),
            webhook_endpoint_id=endpoint_id,
            # Both versions answer afresh: a cached answer of the current one would not be a call
            # made beside the candidate's.
            use_cache=False,
            cluster_by=None,
            status="queued",
            request_id=logs.request_id.get(),
            total_test_cases=len(held_out),
            dispatch_attempts=1,
        )
        rows = [_case_row(evaluation.id, index, cases[key]) for index, key in enumerate(held_out)]
        EvaluationRepository(session, tenant.id).add(evaluation, rows)
        alignment = Alignment(
            id=evaluation.id,
            tenant_id=tenant.id,
            metric_version=version.id,
            candidate_version=candidate_def.id,
            seed=body.seed,
            held_out_share=body.held_out_share,
            proposal_items=proposal,
            held_out_items=held_out,
            notes_usage=notes_usage.model_dump(mode="json"),
            created_at=utcnow(),
        )
        repo.add(alignment)
        # In the tenant's usage and today's budget, under the alignment's own evaluation.
        usage.count_calls(session, tenant.id, evaluation.id, notes_model, notes_usage)
    return alignment


def _case_row(evaluation_id: str, index: int, case: TestCase) -> dict[str, Any]:
    """A held-out item's stored test case, copied (images stay blob references)."""
    return {
        "evaluation_id": evaluation_id,
        "index": index,
        "client_id": case.client_id,
        "input": case.input,
        "actual_output": case.actual_output,
        "expected_output": case.expected_output,
        "context": case.context,
        "retrieval_context": case.retrieval_context,
        "messages": case.messages,
        "context_hash": case.context_hash,
        "tools_called": case.tools_called,
        "expected_tools": case.expected_tools,
        "turns": case.turns,
        "scenario": case.scenario,
        "expected_outcome": case.expected_outcome,
        "chatbot_role": case.chatbot_role,
        "user_description": case.user_description,
        "metadata_": case.metadata_,
    }


def count_paid(session: Session, tenant_id: str, refused: guidance.PaidRefusal) -> None:
    """Count a refused alignment's rubric-notes call in the tenant's usage today, under an
    alignment id of its own (none was stored): the call was made and billed."""
    usage.count_calls(session, tenant_id, new_id(PREFIX), refused.model, refused.used)


def get_or_404(session: Session, tenant_id: str, alignment_id: str) -> tuple[Alignment, Evaluation]:
    found = AlignmentRepository(session, tenant_id).with_evaluation(alignment_id)
    if found is None:
        raise not_found(f"No alignment {alignment_id!r}.")
    return found


def page(
    session: Session, tenant_id: str, metric_version: str | None, after: str | None, limit: int
) -> list[tuple[Alignment, Evaluation]]:
    repo = AlignmentRepository(session, tenant_id)
    rows = list(repo.page(metric_version, after, limit))
    evaluations = repo.evaluations([row.id for row in rows])
    return [(row, evaluations[row.id]) for row in rows if row.id in evaluations]


def decide(
    session: Session, alignment: Alignment, evaluation: Evaluation, verb: str, actor: str
) -> None:
    """Activate (`activate`) or decline (`decline`) the candidate, once: audited as
    `alignment.<verb>`. Activating needs the judging completed; either answers 409 when the
    alignment was decided already."""
    if alignment.decision is not None:
        raise _refused(
            409,
            "decided",
            f"alignment {alignment.id} was {alignment.decision} already",
            ["alignment_id"],
        )
    if verb == "activate" and evaluation.status != "completed":
        raise _refused(
            409,
            "not-completed",
            f"the held-out items are still being judged ({evaluation.status}): activate once "
            "the report is there",
            ["alignment_id"],
        )
    versions = MetricVersionRepository(session, alignment.tenant_id)
    candidate = versions.get(alignment.candidate_version)
    # A candidate another alignment of the same version proposed and activated stays active.
    if candidate is not None and (verb == "activate" or candidate.status != "active"):
        candidate.status = "active" if verb == "activate" else "declined"
    alignment.decision = "activated" if verb == "activate" else "declined"
    alignment.decided_by = actor
    alignment.decided_at = utcnow()
    kappas = {}
    shown = report.report(session, alignment, evaluation)
    if shown is not None:
        kappas = {
            "kappa_before": shown.before.cohen_kappa["value"],
            "kappa_after": shown.after.cohen_kappa["value"],
        }
    audit.record(
        session,
        None,
        f"{KIND}.{verb}",
        KIND,
        alignment.id,
        tenant_id=alignment.tenant_id,
        metric_version=alignment.metric_version,
        candidate_version=alignment.candidate_version,
        **kappas,
    )
    session.flush()
