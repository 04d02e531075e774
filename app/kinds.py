"""Every kind of evaluation, by the value it stores in `evaluation.kind`: the one registry.

A new kind is its own folder and one line here: its strategy (`app.evaluations.kinds.Kind`)
and the router of its own API routes. The process's entry points (the API app, the worker's
jobs) call `install` at start-up; nothing registers itself by being imported.
"""

from collections.abc import Mapping
from dataclasses import dataclass

from fastapi import APIRouter

from app.evals.endpoints import router as evals_router
from app.evals.service import KIND as EVAL_RUN
from app.evals.tasks import EvalRunKind
from app.evaluations import kinds
from app.evaluations.endpoints import router as evaluations_router
from app.evaluations.plain import EvaluationKind
from app.runs.endpoints import router as runs_router
from app.runs.tasks import RunKind


@dataclass(frozen=True)
class Registered:
    """A kind's strategy and the routes that create and manage it."""

    kind: kinds.Kind
    router: APIRouter


KINDS: Mapping[str, Registered] = {
    kinds.DEFAULT_KIND: Registered(EvaluationKind(), evaluations_router),
    "run": Registered(RunKind(), runs_router),
    EVAL_RUN: Registered(EvalRunKind(), evals_router),
}


def install() -> None:
    """Hand the kinds to the evaluation core (scoring, cancel, delete, events)."""
    kinds.use({name: entry.kind for name, entry in KINDS.items()})


def routers() -> list[APIRouter]:
    """Every kind's routes, in the registry's order."""
    return [entry.router for entry in KINDS.values()]


def openapi_enums() -> dict[str, list[str]]:
    """The kinds' names as the enums of the fields and parameters that hold one (they are
    `str` in the schemas, which the evaluation core defines without knowing the kinds)."""
    every = list(KINDS)
    listed = [name for name, entry in KINDS.items() if entry.kind.listed]
    return {
        "schemas/Evaluation/kind": every,
        "schemas/Comparison/kind": every,
        "list_evaluations/kind": listed,
    }
