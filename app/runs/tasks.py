"""What run jobs add to evaluation jobs: the candidate model answers each sample first."""

import asyncio
import dataclasses
from collections.abc import Sequence
from typing import Any

from sqlalchemy.orm import Session

from app import crypto
from app.candidates import service as candidates
from app.config import Settings
from app.evaluations import kinds
from app.judges import Generation, JudgeEndpoint, JudgeError, get_client
from app.media.resolve import CaseImages
from app.metrics import MetricError, MetricTestCase
from app.models import CandidateModel, Evaluation, Run, TestCase
from app.problems import ProblemError
from app.runs import repository, service


class Predictor:
    """Calls the run's candidate model once per sample and remembers what it said."""

    def __init__(
        self,
        endpoint: JudgeEndpoint | None,
        params: dict[str, Any],
        messages: dict[int, list[dict[str, Any]]],
        setup_error: MetricError | None = None,
    ) -> None:
        self.endpoint = endpoint
        self.params = params
        self.messages = messages
        self.setup_error = setup_error
        self._tasks: dict[int, asyncio.Future[Generation]] = {}
        self._new: dict[int, str] = {}
        self._logs: dict[int, dict[str, Any]] = {}

    async def predict(self, case: MetricTestCase) -> tuple[MetricTestCase, MetricError | None]:
        """The case with the candidate's answer as actual_output, or the error that stopped it."""
        if case.actual_output is not None:
            return case, None
        if self.setup_error is not None or self.endpoint is None:
            return case, self.setup_error
        task = self._tasks.get(case.index)
        if task is None:
            client = get_client(self.endpoint)
            task = asyncio.ensure_future(
                client.generate(self.messages.get(case.index, []), params=self.params)
            )
            self._tasks[case.index] = task
            task.add_done_callback(lambda done, index=case.index: self._record(index, done))
        try:
            generation = await asyncio.shield(task)
        except JudgeError as error:
            return case, MetricError(type=error.type, message=error.message)
        return dataclasses.replace(case, actual_output=generation.content), None

    def _record(self, index: int, done: "asyncio.Future[Generation]") -> None:
        if done.cancelled():
            return
        error = done.exception()
        if isinstance(error, JudgeError):
            usage = error.usage
            self._logs[index] = {"candidate": {"error": error.type, "calls": usage.calls}}
            return
        if error is not None:
            return
        generation = done.result()
        self._new[index] = generation.content
        self._logs[index] = {
            "candidate": {
                "calls": generation.usage.calls,
                "prompt_tokens": generation.usage.prompt_tokens,
                "completion_tokens": generation.usage.completion_tokens,
                "finish_reason": generation.finish_reason,
            }
        }

    def logs(self, index: int) -> dict[str, Any]:
        """What the candidate call for a sample cost, for its results' logs."""
        return self._logs.get(index, {})

    def take_predictions(self) -> dict[int, str]:
        """Predictions made since the last call, to store with the next write."""
        new, self._new = self._new, {}
        return new


def predictor_for(
    session: Session,
    settings: Settings,
    evaluation_id: str,
    rows: Sequence[TestCase],
    images: CaseImages,
) -> Predictor | None:
    """The predictor for a run's slice; None when the run scores given predictions."""
    run = session.get(Run, evaluation_id)
    if run is None or not run.options.get("uses_model"):
        return None
    messages = {row.index: images.messages(row.messages) for row in rows if row.messages}
    params = dict(run.options.get("generation") or {})
    model = session.get(CandidateModel, run.model_id) if run.model_id else None
    if model is None:
        error = MetricError("candidate_missing", "the run's model was deleted before it ran")
        return Predictor(None, params, messages, error)
    try:
        endpoint = candidates.endpoint(model, settings)
    except crypto.SecretUnavailable as exc:
        return Predictor(None, params, messages, MetricError("candidate_secret", str(exc)))
    except ProblemError as exc:
        message = exc.detail or "the model's base_url is not allowed"
        return Predictor(None, params, messages, MetricError("candidate_blocked", message))
    return Predictor(endpoint, params, messages)


def tally(session: Session, evaluation_id: str, inserted: list[dict[str, Any]]) -> None:
    """Add newly stored results to the run's report sums, in the transaction that stores them."""
    repository.add_scores(session, evaluation_id, service.score_sums(inserted))


class RunKind(kinds.Kind):
    """A run: the candidate answers each sample first; its report sums move with results."""

    def predictor(
        self,
        session: Session,
        settings: Settings,
        evaluation: Evaluation,
        rows: Sequence[TestCase],
        images: CaseImages,
    ) -> Predictor | None:
        return predictor_for(session, settings, evaluation.id, rows, images)

    def tally(self, session: Session, evaluation_id: str, inserted: list[dict[str, Any]]) -> None:
        tally(session, evaluation_id, inserted)


kinds.register("run", RunKind())
