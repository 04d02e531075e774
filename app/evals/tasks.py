"""What eval-run jobs add to evaluation jobs: a `completions` run samples the model first.

The sampled reply becomes the row's `sample` namespace (`output_text`, `output_json`,
`choices`), which the graders template from.
"""

import dataclasses
from collections.abc import Sequence
from typing import Any

from sqlalchemy.orm import Session

from app.candidates.predictor import Predictor, endpoint_or_error
from app.config import Settings
from app.evals import report
from app.evals.data_source import generation_params
from app.evals.labels import run_labels
from app.evals.repository import EvalRunRepository
from app.evaluations import kinds
from app.evaluations.schemas import EvalRunOrigin
from app.judges import Generation
from app.media.resolve import CaseImages
from app.metrics import MetricError, MetricTestCase, build_sample
from app.models import Evaluation, TestCase

# Evaluation status -> the event OpenAI's webhooks send for a run in it.
_EVENTS = {"completed": "succeeded", "failed": "failed", "canceled": "canceled"}


def sample_of(text: str, model: str, finish_reason: str | None) -> dict[str, Any]:
    """The `sample` namespace for a reply known only by its text (sampled by an earlier job)."""
    message = {"role": "assistant", "content": text}
    choice = {"index": 0, "message": message, "finish_reason": finish_reason or "stop"}
    return build_sample(completion={"model": model, "choices": [choice]})


class Sampler(Predictor):
    """Asks the run's model once per row and hands graders the reply as `sample`."""

    async def predict(self, case: MetricTestCase) -> tuple[MetricTestCase, MetricError | None]:
        metadata = case.metadata or {}
        if metadata.get("error"):
            # The row's input_messages did not render (a missing template variable).
            failed = metadata["error"]
            return case, MetricError(failed["code"], failed["message"])
        if isinstance(case.actual_output, str):
            # Sampled by an earlier job (stored with its results): graded, not asked again.
            sample = sample_of(case.actual_output, self.model or "", None)
            return dataclasses.replace(case, metadata={**metadata, "sample": sample}), None
        return await super().predict(case)

    def answered(self, case: MetricTestCase, generation: Generation) -> MetricTestCase:
        if generation.choice is not None:
            model = generation.model or self.model or ""
            sample = build_sample(completion={"model": model, "choices": [generation.choice]})
        else:
            sample = sample_of(generation.content, self.model or "", generation.finish_reason)
        return dataclasses.replace(
            case,
            actual_output=generation.content,
            metadata={**(case.metadata or {}), "sample": sample},
        )


class EvalRunKind(kinds.Kind):
    """An OpenAI Evals run: rows sampled first for `completions`; its own webhook events, in
    OpenAI's envelope so the SDK's `client.webhooks.unwrap()` reads them."""

    label = "OpenAI eval run"
    # Read and listed beside evaluations (`?kind=eval_run`), cancelled and deleted via /v1/evals.
    listed = True
    id_prefixes = ("evalrun",)
    event_envelope = "openai"
    # OpenAI deletes a running run outright.
    cancels_on_delete = True

    def api_path(self, session: Session, evaluation: Evaluation) -> str:
        run = EvalRunRepository(session, evaluation.tenant_id).run(evaluation.id)
        return f"/v1/evals/{run.eval_id if run else '-'}/runs/{evaluation.id}"

    def predictor(
        self,
        session: Session,
        settings: Settings,
        evaluation: Evaluation,
        rows: Sequence[TestCase],
        images: CaseImages,
    ) -> Sampler | None:
        run = EvalRunRepository(session, evaluation.tenant_id).run(evaluation.id)
        if run is None or run.model is None:
            return None  # jsonl: every row brought its own sample
        messages = {row.index: images.messages(row.messages) for row in rows if row.messages}
        params = generation_params(run.data_source)
        endpoint, error = endpoint_or_error(session, settings, evaluation.tenant_id, run.model_id)
        return Sampler(endpoint, params, messages, error, model=run.model)

    def naming(self, session: Session, evaluation: Evaluation) -> kinds.Naming:
        labels = run_labels(session, evaluation.tenant_id, [evaluation.id]).get(evaluation.id)
        if labels is None:
            return kinds.Naming()
        origin = EvalRunOrigin(
            eval_id=labels.eval_id, eval_name=labels.eval_name, run_name=evaluation.name
        )
        title = f"{labels.eval_name or labels.eval_id} · {evaluation.name or evaluation.id}"
        return kinds.Naming(eval_run=origin, metric_labels=labels.criteria, title=title)

    def terminal_event(
        self, session: Session, evaluation: Evaluation, data: dict[str, Any]
    ) -> tuple[str, dict[str, Any]]:
        run = EvalRunRepository(session, evaluation.tenant_id).run(evaluation.id)
        # Counted as the run reports them: rows, not row x criterion results.
        counts = report.Grades.of(session, evaluation).counts().model_dump()
        error = evaluation.error
        return f"eval.run.{_EVENTS.get(evaluation.status, evaluation.status)}", {
            **data,
            "object": "eval.run",
            "eval_id": run.eval_id if run else None,
            "result_counts": counts,
            # As the run object has them: Unix seconds, and `code` rather than `type`.
            "completed_at": int(evaluation.completed_at.timestamp())
            if evaluation.completed_at
            else None,
            "error": {"code": error.get("type", "error"), "message": error.get("message", "")}
            if error
            else None,
        }
