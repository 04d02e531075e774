"""A candidate model answering test cases before they are scored (runs, eval runs)."""

import asyncio
import dataclasses
from typing import Any

from sqlalchemy.orm import Session

from app import crypto
from app.candidates import service
from app.candidates.repository import CandidateModelRepository
from app.config import Settings
from app.judges import (
    Generation,
    JudgeClient,
    JudgeEndpoint,
    JudgeError,
    JudgeUsage,
    cut_off_calls,
    get_client,
)
from app.metrics import MetricError, MetricTestCase, cancel_running
from app.problems import ProblemError


class Predictor:
    """Calls the run's candidate model once per sample and remembers what it said."""

    def __init__(
        self,
        endpoint: JudgeEndpoint | None,
        params: dict[str, Any],
        messages: dict[int, list[dict[str, Any]]],
        setup_error: MetricError | None = None,
        model: str | None = None,
    ) -> None:
        self.endpoint = endpoint
        self.model = model
        self.params = params
        self.messages = messages
        self.setup_error = setup_error
        self._tasks: dict[int, asyncio.Future[Generation]] = {}
        self._new: dict[int, str] = {}
        self._logs: dict[int, dict[str, Any]] = {}
        self._usage: dict[int, JudgeUsage] = {}

    @property
    def model_name(self) -> str | None:
        """The model the candidate calls go to (what its price is looked up by)."""
        if self.model:
            return self.model
        return self.endpoint.default_model if self.endpoint is not None else None

    async def predict(self, case: MetricTestCase) -> tuple[MetricTestCase, MetricError | None]:
        """The case with the candidate's answer as actual_output, or the error that stopped it."""
        if case.actual_output is not None:
            return case, None
        if self.setup_error is not None or self.endpoint is None:
            return case, self.setup_error
        task = self._tasks.get(case.index)
        if task is None:
            task = asyncio.ensure_future(self._generate(case.index, get_client(self.endpoint)))
            self._tasks[case.index] = task
            task.add_done_callback(lambda done, index=case.index: self._record(index, done))
        try:
            generation = await asyncio.shield(task)
        except JudgeError as error:
            return case, MetricError(type=error.type, message=error.message)
        return self.answered(case, generation), None

    async def _generate(self, index: int, client: JudgeClient) -> Generation:
        """The sample's answer; a call cut off when the job ended (`drop_pending`) is still
        the sample's usage: sent, never answered (a failed call, its tokens unknown)."""
        messages = self.messages.get(index, [])
        with cut_off_calls() as cut:
            try:
                return await client.generate(messages, model=self.model, params=self.params)
            except asyncio.CancelledError:
                if cut:
                    usage = self._usage[index] = JudgeUsage()
                    for spent in cut:
                        usage.add(spent)
                    self._logs[index] = {
                        "candidate": {
                            "error": "canceled",
                            "calls": usage.calls,
                            "failed_calls": usage.failed_calls,
                        }
                    }
                raise

    def answered(self, case: MetricTestCase, generation: Generation) -> MetricTestCase:
        """The case as its metrics see it once the model answered."""
        return dataclasses.replace(case, actual_output=generation.content)

    def _record(self, index: int, done: "asyncio.Future[Generation]") -> None:
        if done.cancelled():
            return
        error = done.exception()
        if isinstance(error, JudgeError):
            usage = self._usage[index] = error.usage
            self._logs[index] = {
                "candidate": {
                    "error": error.type,
                    "calls": usage.calls,
                    "failed_calls": usage.failed_calls,
                }
            }
            return
        if error is not None:
            return
        generation = done.result()
        self._usage[index] = generation.usage
        self._new[index] = generation.content
        self._logs[index] = {
            "candidate": {
                "calls": generation.usage.calls,
                "prompt_tokens": generation.usage.prompt_tokens,
                "completion_tokens": generation.usage.completion_tokens,
                "cached_tokens": generation.usage.cached_prompt_tokens,
                "finish_reason": generation.finish_reason,
            }
        }

    def logs(self, index: int) -> dict[str, Any]:
        """What the candidate call for a sample cost, for its results' logs."""
        return self._logs.get(index, {})

    def usage(self, index: int) -> JudgeUsage | None:
        """The candidate calls made for a sample (None: none were made)."""
        return self._usage.get(index)

    def take_predictions(self) -> dict[int, str]:
        """Predictions made since the last call, to store with the next write."""
        new, self._new = self._new, {}
        return new

    async def drop_pending(self) -> None:
        """Cancel the candidate calls still running: their job ended (a cancel dropped the items
        waiting for them), and a call left running would go on past its timeouts, billed."""
        await cancel_running(self._tasks.values())


def endpoint_or_error(
    session: Session, settings: Settings, tenant_id: str, model_id: str | None
) -> tuple[JudgeEndpoint | None, MetricError | None]:
    """The tenant's registered model's endpoint, or why its cases cannot be answered."""
    model = CandidateModelRepository(session, tenant_id).get(model_id) if model_id else None
    if model is None:
        return None, MetricError("candidate_missing", "the model was deleted before it ran")
    try:
        return service.endpoint(model, settings), None
    except crypto.SecretUnavailable as exc:
        return None, MetricError("candidate_secret", str(exc))
    except ProblemError as exc:
        return None, MetricError(
            "candidate_blocked", exc.detail or "the model's base_url is not allowed"
        )
