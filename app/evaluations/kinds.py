"""How a kind built on evaluations (a run, an eval run) plugs into the scoring job.

The job knows evaluations only. A kind implements `Kind` and registers it under the value it
stores in `evaluation.kind`; the job asks the registry, never imports the kind's package.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from sqlalchemy.orm import Session

from app.config import Settings
from app.evaluations.schemas import EvalRunOrigin
from app.judges import JudgeUsage
from app.media.resolve import CaseImages
from app.metrics import MetricError, MetricTestCase
from app.models import Evaluation, TestCase


class Predictor(Protocol):
    """Answers a case before it is scored (a candidate model's call), once per case."""

    async def predict(self, case: MetricTestCase) -> tuple[MetricTestCase, MetricError | None]:
        """The case as its metrics should see it, or the error that stops its scoring."""
        ...

    def logs(self, index: int) -> dict[str, Any]:
        """What answering the case cost, merged into each of its results' logs."""
        ...

    def usage(self, index: int) -> JudgeUsage | None:
        """The calls made to answer the case (None: none were made)."""
        ...

    @property
    def model_name(self) -> str | None:
        """The model those calls went to (its price is looked up by this name)."""
        ...

    def take_predictions(self) -> dict[int, Any]:
        """Answers made since the last call (case index -> actual_output), to store."""
        ...


@dataclass(frozen=True)
class Naming:
    """What clients call an evaluation of a kind beyond its own name and metric names."""

    eval_run: EvalRunOrigin | None = None
    # Metric name -> its label (an eval run's criterion id -> the criterion's name).
    metric_labels: dict[str, str] = field(default_factory=dict)


class Kind:
    """A plain evaluation; kinds override what they add."""

    # How its webhook bodies are wrapped (app.webhooks.service.Envelope).
    event_envelope: Literal["loupe", "openai"] = "loupe"

    def predictor(
        self,
        session: Session,
        settings: Settings,
        evaluation: Evaluation,
        rows: Sequence[TestCase],
        images: CaseImages,
    ) -> Predictor | None:
        """What answers the slice's cases before scoring; None when they come answered."""
        return None

    def tally(self, session: Session, evaluation_id: str, inserted: list[dict[str, Any]]) -> None:
        """Count newly stored results, in the transaction that stores them."""

    def naming(self, session: Session, evaluation: Evaluation) -> Naming:
        """Where the evaluation came from and its metrics' labels, for its API object."""
        return Naming()

    def terminal_event(
        self, session: Session, evaluation: Evaluation, data: dict[str, Any]
    ) -> tuple[str, dict[str, Any]]:
        """The webhook event type and payload for a finished evaluation of this kind.

        `data` is the evaluation's own thin payload (ids, status, counts).
        """
        return f"{evaluation.kind or 'evaluation'}.{evaluation.status}", data


_KINDS: dict[str, Kind] = {}
_PLAIN = Kind()


def register(name: str, kind: Kind) -> None:
    """Make `kind` handle evaluations stored with `kind = name`."""
    _KINDS[name] = kind


def kind_of(evaluation: Evaluation) -> Kind:
    """The registered kind of an evaluation; KeyError for a kind this process never loaded."""
    name = evaluation.kind or "evaluation"
    if name == "evaluation":
        return _PLAIN
    # Scoring a run as a plain evaluation would silently skip its candidate calls.
    return _KINDS[name]


def naming_of(session: Session, evaluation: Evaluation) -> Naming:
    """The evaluation's `Naming` by its kind (none for a kind this process never loaded:
    naming is only words, unlike scoring)."""
    kind = _KINDS.get(evaluation.kind or "evaluation", _PLAIN)
    return kind.naming(session, evaluation)
