"""The judge each metric of a job calls, as its evaluation recorded it at submit: an endpoint
(or why there is none), the model, and a panel's members."""

import dataclasses
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from app.config import Settings
from app.evaluations import judging
from app.judges import JudgeEndpoint, endpoint_host


@dataclass(frozen=True)
class MetricJudge:
    """The judge one metric of a job calls, as recorded at submit."""

    endpoint: JudgeEndpoint | None
    missing: str | None
    model: str | None
    model_id: str | None
    host: str | None
    weight: float = 1.0
    # A panel's judges (the first also stands as the metric's judge); empty without a panel.
    members: tuple["MetricJudge", ...] = ()
    # The metric's version recorded at submit (issue 29); None for a metric with no judge.
    version: str | None = None


def _judge_of(
    session: Session, settings: Settings, tenant_id: str, chosen: dict[str, Any]
) -> MetricJudge:
    try:
        endpoint, missing = judging.endpoint_for(session, tenant_id, settings, chosen)
    except Exception as exc:  # noqa: BLE001 - a key this process cannot decrypt, a
        # refused address: every call of the metric fails with the reason, not the job.
        endpoint, missing = None, f"the judge cannot be called: {exc}"
    return MetricJudge(
        endpoint,
        missing,
        chosen.get("model"),
        chosen.get("model_id"),
        chosen.get("host"),
        chosen.get("weight", 1.0),
    )


def metric_judges(
    session: Session, settings: Settings, evaluation: Any, specs: list[Any]
) -> dict[int, MetricJudge]:
    """Per metric index, the judge its record names (read in the job's session)."""
    record = evaluation.judge or {}
    recorded = record.get("metrics")
    versions = record.get("versions") or {}
    judges: dict[int, MetricJudge] = {}
    for index in range(len(specs)):
        if recorded is not None:
            # Metrics that are not judged (embeddings, say) use the server's endpoint.
            chosen = recorded.get(str(index)) or {"model": None, "model_id": None}
        else:
            # Stored before judges were resolved at submit: the server's judge, as then.
            chosen = {"model": record.get("model") or settings.judge_model, "model_id": None}
            if judging.operator_configured(settings):
                base_url, _ = settings.judge_endpoint_values()
                chosen["host"] = endpoint_host(base_url)
        judge = _judge_of(session, settings, evaluation.tenant_id, chosen)
        members = tuple(
            _judge_of(session, settings, evaluation.tenant_id, member)
            for member in chosen.get("panel") or ()
        )
        judges[index] = dataclasses.replace(
            judge, members=members, version=versions.get(str(index))
        )
    return judges
