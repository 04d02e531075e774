"""Everything wrong with a submission, found in one pass and answered in one 422.

A client that sent a G-Eval without `name`, an image that does not decode and a faithfulness
metric without `retrieval_context` must hear about all three at once, not one per round. So the
checks run on a `Draft`: the submission as far as it could be read, each test case and metric
on its own (None where its schema failed), and each check looks only at the parts it can.
"""

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import TypeAdapter
from sqlalchemy.orm import Session

from app.api.salvage import items, valid
from app.config import Settings
from app.evaluations import admission, case_rows, judging, planned, shapes
from app.evaluations.schemas import EvaluationCreate, JudgeConfig, MetadataKey, TestCaseCreate
from app.media import ingest as media
from app.media.own import OwnMedia
from app.metrics import MetricSpec, MetricSpecBase
from app.models import Tenant
from app.problems import MAX_FIELD_ERRORS, FieldError, field_error
from app.webhooks import service as webhook_service

_test_case = TypeAdapter(TestCaseCreate)
_metric: TypeAdapter[MetricSpecBase] = TypeAdapter(MetricSpec)
_judge = TypeAdapter(JudgeConfig | None)
_webhook_url = TypeAdapter(str | None)
_cluster_by = TypeAdapter(MetadataKey | None)


@dataclass
class Draft:
    """A submission as far as it could be read: None for a test case or metric whose schema
    failed (its own errors are the schema's to report)."""

    test_cases: list[TestCaseCreate | None]
    metrics: list[MetricSpecBase | None]
    judge: JudgeConfig | None = None
    # False when `judge` itself was refused: which judge a metric gets is then unknown.
    judge_known: bool = True
    webhook_url: str | None = None
    cluster_by: str | None = None
    # By metric index, the `judge` of a metric whose schema failed in its judge alone: the
    # metric is checked without it (its needs), and the judge's model ids are still looked up.
    refused_judges: dict[int, Any] = field(default_factory=dict)
    # An open evaluation may start with no test case (batches follow).
    open: bool = False
    # False for a batch: its metrics are the evaluation's, not the request's, so what is
    # wrong with them together with its cases is named on the cases alone.
    metrics_sent: bool = True
    # The index of the first case (a batch appended to an open evaluation starts past 0): a
    # case without an id is known by it.
    first_index: int = 0
    # By index, a case whose schema failed as far as its valid fields go, and the fields the
    # schema refused: the fields a metric needs are still checked on the others, so one
    # answer names them all.
    partial: dict[int, tuple[TestCaseCreate, frozenset[str]]] = field(default_factory=dict)

    @classmethod
    def of(cls, payload: EvaluationCreate) -> "Draft":
        return cls(
            test_cases=list(payload.test_cases),
            metrics=list(payload.metrics),
            judge=payload.judge,
            webhook_url=payload.webhook_url,
            cluster_by=payload.cluster_by,
            open=payload.open,
        )

    @classmethod
    def salvage(cls, body: Mapping[str, Any]) -> "Draft":
        """What can still be checked of a body that failed the schema."""
        judge, judge_known = valid(_judge, body.get("judge"))
        webhook_url, _ = valid(_webhook_url, body.get("webhook_url"))
        cluster_by, _ = valid(_cluster_by, body.get("cluster_by"))
        metrics: list[MetricSpecBase | None] = []
        refused_judges: dict[int, Any] = {}
        for index, raw in enumerate(items(body.get("metrics"))):
            spec, passed = valid(_metric, raw)
            if not passed and isinstance(raw, Mapping) and raw.get("judge") is not None:
                unjudged = {key: value for key, value in raw.items() if key != "judge"}
                spec, passed = valid(_metric, unjudged)
                if passed:
                    refused_judges[index] = raw["judge"]
            metrics.append(spec)
        test_cases, partial = [], {}
        for index, raw in enumerate(items(body.get("test_cases"))):
            case, passed = valid(_test_case, raw)
            test_cases.append(case)
            if not passed and isinstance(raw, Mapping):
                partial[index] = shapes.salvage_case(raw)
        return cls(
            test_cases=test_cases,
            partial=partial,
            metrics=metrics,
            judge=judge,
            judge_known=judge_known,
            webhook_url=webhook_url,
            cluster_by=cluster_by,
            refused_judges=refused_judges,
            open=body.get("open") is True,
        )


@dataclass
class Findings:
    """Field errors in the order found; the first MAX_FIELD_ERRORS kept, all counted."""

    errors: list[FieldError] = field(default_factory=list)
    total: int = 0

    def add(self, path: list[str | int], message: str, type_: str) -> None:
        self.total += 1
        if len(self.errors) < MAX_FIELD_ERRORS:
            self.errors.append(field_error(path, message, type_))

    def extend(self, errors: list[FieldError]) -> None:
        self.total += len(errors)
        self.errors.extend(errors[: max(0, MAX_FIELD_ERRORS - len(self.errors))])


@dataclass
class Checked:
    """A draft's findings, and what the checks resolved on the way (for a valid submission)."""

    findings: Findings
    endpoint_id: str | None = None
    judge: dict[str, Any] | None = None
    intake: media.Intake | None = None


def _over_caps(draft: Draft, settings: Settings, findings: Findings) -> bool:
    """The operator's caps on counts; True when one is passed (then nothing costly is done)."""
    errors = admission.size_problems(
        settings,
        test_cases=(len(draft.test_cases), ["test_cases"]),
        metrics=(len(draft.metrics), ["metrics"]),
    )
    findings.extend(errors)
    if not draft.test_cases and not draft.open:
        findings.add(
            ["test_cases"],
            "at least one test case; or `open: true` to append them in batches "
            "(POST /v1/evaluations/{id}/test_cases)",
            "too_short",
        )
    return bool(errors)


def _names_and_ids(draft: Draft, findings: Findings) -> None:
    seen: dict[str, int] = {}
    for index, spec in enumerate(draft.metrics):
        if spec is None:
            continue
        name = spec.display_name
        if name in seen:
            findings.add(
                ["metrics", index, "name"],
                f"metric name {name!r} is already used by metrics[{seen[name]}]; "
                "give each metric a distinct name",
                "duplicate_name",
            )
        seen.setdefault(name, index)
    client_ids: dict[str, int] = {}
    for index, test_case in enumerate(draft.test_cases):
        if test_case is None or test_case.id is None:
            continue
        key = str(test_case.id)
        if key in client_ids:
            findings.add(
                ["test_cases", index, "id"],
                f"id {key!r} is already used by test_cases[{client_ids[key]}]",
                "duplicate_id",
            )
        client_ids.setdefault(key, index)
    # A case without an id is known by its index: an explicit id equal to that index would make
    # two cases one (comparisons match by id), so the submission names the unnamed case.
    for index, test_case in enumerate(draft.test_cases):
        own = str(draft.first_index + index)
        taken = client_ids.get(own)
        if test_case is not None and test_case.id is None and taken is not None:
            findings.add(
                ["test_cases", index, "id"],
                f"missing, and the id a case without one gets (its index, {own!r}) "
                f"is test_cases[{taken}]'s; give this case an id, or every case or none",
                "duplicate_id",
            )


def _shapes(draft: Draft, findings: Findings) -> None:
    """Each case is one input and output or a conversation, never a mix of both (a case whose
    schema failed is checked on the fields it kept, its turns each on their own)."""
    for index, test_case in enumerate(draft.test_cases):
        refused: frozenset[str] = frozenset()
        if test_case is None:
            if index not in draft.partial:
                continue
            test_case, refused = draft.partial[index]
            if "turns" in refused:
                continue
        for path, message, type_ in shapes.problems(test_case, refused):
            findings.add(["test_cases", index, *path], message, type_)


def _readable_cases(draft: Draft, *needed: str) -> Iterator[tuple[int, TestCaseCreate]]:
    """The cases whose `needed` fields can be read: every valid case, and each case whose
    schema failed elsewhere (the schema's errors name the fields it refused)."""
    for index, test_case in enumerate(draft.test_cases):
        if test_case is not None:
            yield index, test_case
        elif index in draft.partial:
            salvaged, refused = draft.partial[index]
            if refused.isdisjoint(needed):
                yield index, salvaged


def _cases_to_fit(draft: Draft) -> Iterator[tuple[int, TestCaseCreate, frozenset[str]]]:
    """Every valid case, and each case whose schema failed but whose turns (if any) were all
    read, with the fields its schema refused: what a metric can check it cannot accept."""
    for index, test_case in enumerate(draft.test_cases):
        if test_case is not None:
            yield index, test_case, frozenset()
        elif index in draft.partial and shapes.whole_turns(draft.partial[index][0]):
            yield index, *draft.partial[index]


def _metric_needs(draft: Draft, findings: Findings) -> None:
    """Test-case fields each metric needs, and what it cannot accept in a case."""
    for m_index, spec in enumerate(draft.metrics):
        if spec is None:
            continue
        misfits = set()
        for tc_index, test_case in _readable_cases(draft, "turns"):
            misfit = shapes.fits(spec, test_case)
            if misfit is not None:
                misfits.add(tc_index)
                findings.add(
                    ["test_cases", tc_index, misfit[0]],
                    f"metric {spec.display_name!r} (metrics[{m_index}]) {misfit[1]}",
                    "wrong_shape_for_metric",
                )
        for field_name in spec.required_test_case_fields():
            for tc_index, test_case in _readable_cases(draft, field_name, "turns"):
                if tc_index in misfits:
                    continue
                value = getattr(test_case, field_name)
                if field_name == "input" and test_case.turns is None and value is None:
                    continue  # the shape check names it: input or turns
                # An empty list is a valid (empty) retrieval context; None and "" are missing.
                if value is None or value == "":
                    findings.add(
                        ["test_cases", tc_index, field_name],
                        f"metric {spec.display_name!r} (metrics[{m_index}]) needs {field_name}",
                        "missing_for_metric",
                    )
        for tc_index, test_case, refused in _cases_to_fit(draft):
            if tc_index in misfits:
                continue
            unread = {f"turns.{name}" for name in spec.turn_fields_read} & refused
            for field_name, message in spec.test_case_problems(test_case):
                if field_name in refused or (field_name == "turns" and unread):
                    continue  # the schema names it
                findings.add(
                    ["test_cases", tc_index, field_name],
                    f"metric {spec.display_name!r} (metrics[{m_index}]): {message}",
                    "unfit_for_metric",
                )


def _cluster_keys(draft: Draft, findings: Findings) -> None:
    if draft.cluster_by is None:
        return
    for index, test_case in enumerate(draft.test_cases):
        if test_case is not None and (test_case.metadata or {}).get(draft.cluster_by) is None:
            findings.add(
                ["test_cases", index, "metadata", draft.cluster_by],
                f"cluster_by {draft.cluster_by!r} needs this key on every case",
                "missing_for_cluster_by",
            )


def check(
    session: Session,
    tenant_id: str,
    draft: Draft,
    settings: Settings,
    cases: list[dict[str, Any]] | None = None,
    own: OwnMedia | None = None,
) -> Checked:
    """Every problem of a draft the schema could not see: counts past the operator's caps,
    duplicate names and ids, fields a metric needs, judges, the webhook, the windows of earlier
    turns its conversations would show the judge (`planned`), and images.

    Images are decoded (and URLs fetched) last, and not at all when a count is past its cap;
    `cases`, the stored-form test cases, get their images checked (built from the draft's
    valid cases, and what its refused cases kept, when not given). With `own`, images naming
    this server's media are read from its store as that tenant may read them.
    """
    findings = Findings()
    over_caps = _over_caps(draft, settings, findings)
    _names_and_ids(draft, findings)
    _shapes(draft, findings)
    _metric_needs(draft, findings)
    _cluster_keys(draft, findings)
    checked = Checked(findings)
    if draft.judge_known:
        # A metric whose own judge was refused has no known judge: only its model ids are
        # looked up.
        judged = [
            None if index in draft.refused_judges else spec
            for index, spec in enumerate(draft.metrics)
        ]
        checked.judge, judge_errors = judging.resolve(
            session,
            tenant_id,
            settings,
            judged,
            draft.judge,
            judge_path=["judge"],
            metric_path=["metrics"],
        )
        findings.extend(judge_errors)
    for index, raw in draft.refused_judges.items():
        findings.extend(
            judging.unknown_models(session, tenant_id, raw, ["metrics", index, "judge"])
        )
    if draft.webhook_url is not None:
        checked.endpoint_id, unregistered = webhook_service.registered(
            session, tenant_id, draft.webhook_url, ["webhook_url"]
        )
        if unregistered is not None:
            findings.extend([unregistered])
    if not over_caps:
        if cases is None:
            # A case the schema refused still has the images of the fields it kept checked.
            cases = [
                case_rows.stored_case(index, test_case)
                for index, test_case, _ in _cases_to_fit(draft)
            ]
        # Before images, which cost more than counting does: past it nothing is decoded.
        too_much = planned.window_problems(
            settings, draft.metrics, cases, metrics_sent=draft.metrics_sent
        )
        findings.extend(too_much)
        over_caps = bool(too_much)
    if not over_caps:
        assert cases is not None
        checked.intake = media.take_in(media.case_contents(cases), settings, own)
        findings.extend(checked.intake.errors)
    return checked


def body_problems(
    session: Session,
    tenant: Tenant,
    settings: Settings,
    body: Mapping[str, Any],
    own: OwnMedia | None = None,
) -> list[FieldError]:
    """The problems of a submission body that failed its schema, beyond the schema's own."""
    draft = Draft.salvage(body)
    return check(session, tenant.id, draft, settings, own=own).findings.errors
