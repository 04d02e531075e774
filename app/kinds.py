"""Every kind of evaluation, by the value it stores in `evaluation.kind`: the one registry.

A new kind is its own folder and one line here. The process's entry points (the API app, the
worker's jobs) call `install` at start-up; nothing registers itself by being imported.
"""

from collections.abc import Mapping

from app.evals.service import KIND as EVAL_RUN
from app.evals.tasks import EvalRunKind
from app.evaluations import kinds
from app.evaluations.plain import EvaluationKind
from app.runs.tasks import RunKind

KINDS: Mapping[str, kinds.Kind] = {
    kinds.DEFAULT_KIND: EvaluationKind(),
    "run": RunKind(),
    EVAL_RUN: EvalRunKind(),
}


def install() -> None:
    """Hand the kinds to the evaluation core (scoring, cancel, delete, events)."""
    kinds.use(KINDS)
