"""A kind of evaluation as a strategy: how it is scored, cancelled, deleted, shown, announced.

The evaluation core and the lifecycle service know evaluations only. Each kind implements
`Kind` in its own folder; one explicit map in `app/kinds.py` names them all by the value they
store in `evaluation.kind`, and the process's entry points hand it to `use` at start-up. The
core asks `kind_of`, never imports a kind's package.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy.orm import Session

from app.api.query import id_after
from app.config import Settings
from app.evaluations.schemas import EvalRunOrigin
from app.judges import JudgeUsage
from app.media.resolve import CaseImages
from app.metrics import MetricError, MetricTestCase
from app.models import Evaluation, TestCase
from app.webhooks.service import Envelope


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

    async def drop_pending(self) -> None:
        """Cancel the calls still answering cases (the job ended: a cancel dropped its items)."""
        ...


@dataclass(frozen=True)
class Naming:
    """What clients call an evaluation of a kind beyond its own name and metric names."""

    eval_run: EvalRunOrigin | None = None
    # Metric name -> its label (an eval run's criterion id -> the criterion's name).
    metric_labels: dict[str, str] = field(default_factory=dict)
    # What pages call it (None: its own name, else its id).
    title: str | None = None


class Kind:
    """What every kind does alike; a kind overrides what it does its own way."""

    # What people call one (the console's kind filter and comparison form).
    label: str = "evaluation"
    # Whether `GET /v1/evaluations?kind=` lists it and the evaluation routes read it (else it
    # has its own list and reads, as a run has `/v1/runs`).
    listed: bool = False
    # The prefixes of its ids, for reading a list cursor (`app/ids.py`).
    id_prefixes: tuple[str, ...] = ()
    # Whether its scored items are its test cases, named by the client's ids (a run's are
    # dataset samples, `subset/row_index`, shown on its own pages).
    items_are_test_cases: bool = True

    # How its webhook bodies are wrapped.
    event_envelope: Envelope = "loupe"
    # Whether its per-metric summaries carry clustered error bars (a run reports its clusters
    # per report row instead).
    summary_clusters: bool = False
    # Whether deleting a queued or running one cancels it first (else: 409, cancel it first).
    cancels_on_delete: bool = False
    # Whether it stays open and takes test cases as they come (app/evaluations/appending.py):
    # it completes only once `still_open` says no more will come, and no tenant cap on active
    # evaluations counts it.
    open_ended: bool = False

    def api_path(self, session: Session, evaluation: Evaluation) -> str:
        """Where clients read it (the `Location` of its submit)."""
        raise NotImplementedError

    def cancel_path(self, session: Session, evaluation: Evaluation) -> str:
        """The route that cancels it, named in the 409 a delete of a running one answers."""
        return f"{self.api_path(session, evaluation)}/cancel"

    def described(self, session: Session, evaluation: Evaluation) -> str:
        """What it is, in the 409 another kind's routes answer for it (`<id> is ...`)."""
        return (
            f"an evaluation of kind {evaluation.kind!r} ({self.label}), canceled and deleted "
            "through its own routes"
        )

    def managed_by(self, session: Session, evaluation: Evaluation) -> str:
        """The routes that cancel and delete it, in the words of a 409 naming them."""
        return (
            f"POST {self.cancel_path(session, evaluation)} cancels it, "
            f"DELETE {self.api_path(session, evaluation)} deletes it"
        )

    def console_path(self, evaluation: Evaluation) -> str:
        """Its page in the console."""
        return f"/console/evaluations/{evaluation.id}"

    def console_parent(self, evaluation: Evaluation) -> tuple[str, str] | None:
        """What its console page leads back to, (words, path), when not the evaluations list
        (an online day: its rule's page)."""
        return None

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

    def still_open(self, evaluation: Evaluation, now: datetime) -> bool:
        """Whether more test cases may still be appended (an open-ended kind's until it closes):
        every result stored does not complete it while this holds."""
        return False

    def tally(self, session: Session, evaluation_id: str, inserted: list[dict[str, Any]]) -> None:
        """Count newly stored results, in the transaction that stores them."""

    def naming(self, session: Session, evaluation: Evaluation) -> Naming:
        """Where the evaluation came from and its metrics' labels, for its API object."""
        return Naming()

    def told_apart(self, session: Session, evaluations: Sequence[Evaluation]) -> dict[str, str]:
        """A few words telling each of these evaluations (all of this kind, one tenant's) from
        another of the same name, by id (a run's model and dataset); none by default."""
        return {}

    def terminal_event(
        self, session: Session, evaluation: Evaluation, data: dict[str, Any]
    ) -> tuple[str, dict[str, Any]]:
        """The webhook event type and payload for a finished evaluation of this kind.

        `data` is the evaluation's own thin payload (ids, status, counts).
        """
        return f"{evaluation.kind or DEFAULT_KIND}.{evaluation.status}", data


_KINDS: dict[str, Kind] = {}
# What rows from before kinds were stored hold in `evaluation.kind` (the column's default).
DEFAULT_KIND = "evaluation"


def use(kinds: Mapping[str, Kind]) -> None:
    """Make these the process's kinds, by the value each stores in `evaluation.kind`."""
    _KINDS.clear()
    _KINDS.update(kinds)


def kind_of(evaluation: Evaluation) -> Kind:
    """The kind of an evaluation; KeyError for a kind this process was not given (scoring a
    run as something else would silently skip its candidate calls)."""
    return _KINDS[evaluation.kind or DEFAULT_KIND]


def by_name(name: str) -> Kind:
    """The kind stored as `name` (KeyError for one this process was not given)."""
    return _KINDS[name]


def names() -> tuple[str, ...]:
    """Every kind this process was given, by the value it stores."""
    return tuple(_KINDS)


def listed() -> tuple[str, ...]:
    """The kinds `GET /v1/evaluations?kind=` lists and the evaluation routes read."""
    return tuple(name for name, kind in _KINDS.items() if kind.listed)


def listed_kind(value: str) -> str:
    """A kind `GET /v1/evaluations` lists (its kind says `listed`; runs have `/v1/runs`)."""
    if value not in listed():
        raise ValueError(f"Input should be one of {', '.join(map(repr, listed()))}")
    return value


def listed_after(value: str | None) -> str | None:
    """A list cursor of some listed kind's ids, refused with the query's other faults (the
    `kind` asked for checks its own prefixes once read)."""
    prefixes = tuple(prefix for name in listed() for prefix in _KINDS[name].id_prefixes)
    return id_after(*prefixes).func(value)  # type: ignore[no-any-return]


def open_ended() -> tuple[str, ...]:
    """The kinds whose evaluations stay open and take test cases as they come."""
    return tuple(name for name, kind in _KINDS.items() if kind.open_ended)


def counted_by_caps() -> tuple[str, ...]:
    """The kinds a tenant's cap on active evaluations counts (open-ended ones stay active)."""
    return tuple(name for name in _KINDS if name not in open_ended())


def naming_of(session: Session, evaluation: Evaluation) -> Naming:
    """The evaluation's `Naming` by its kind (none for an unknown kind: naming is only words,
    unlike scoring)."""
    kind = _KINDS.get(evaluation.kind or DEFAULT_KIND)
    return kind.naming(session, evaluation) if kind is not None else Naming()
