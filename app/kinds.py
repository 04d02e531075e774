"""Every kind of evaluation, by the value it stores in `evaluation.kind`: the one registry.

A new kind is its own folder and one line here: its strategy (`app.evaluations.kinds.Kind`)
and the router of its own API routes. The process's entry points (the API app, the worker's
jobs) call `install` at start-up; nothing registers itself by being imported.
"""

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from fastapi import APIRouter

from app.alignments import endpoints as alignments_endpoints
from app.alignments.kind import AlignmentKind
from app.alignments.service import KIND as ALIGNMENT
from app.api import withheld
from app.api.openapi import Extras
from app.evals import endpoints as evals_endpoints
from app.evals.service import KIND as EVAL_RUN
from app.evals.tasks import EvalRunKind
from app.evaluations import endpoints as evaluations_endpoints
from app.evaluations import kinds
from app.evaluations.plain import EvaluationKind
from app.online import endpoints as online_endpoints
from app.online.ingest import KIND as ONLINE
from app.online.tasks import OnlineKind
from app.runs import endpoints as runs_endpoints
from app.runs.tasks import RunKind


@dataclass(frozen=True)
class Registered:
    """A kind's strategy, the routes that create and manage it, and what its routes add to
    the OpenAPI document (request examples, links)."""

    kind: kinds.Kind
    router: APIRouter
    openapi: Extras
    # Its answers' objects and the fields of each holding scores, which a caller without
    # `read` gets emptied (app/api/withheld.py).
    withheld: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)


KINDS: Mapping[str, Registered] = {
    kinds.DEFAULT_KIND: Registered(
        EvaluationKind(), evaluations_endpoints.router, evaluations_endpoints.OPENAPI
    ),
    "run": Registered(
        RunKind(), runs_endpoints.router, runs_endpoints.OPENAPI, runs_endpoints.WITHHELD
    ),
    EVAL_RUN: Registered(
        EvalRunKind(), evals_endpoints.router, evals_endpoints.OPENAPI, evals_endpoints.WITHHELD
    ),
    ONLINE: Registered(OnlineKind(), online_endpoints.routes, online_endpoints.OPENAPI),
    ALIGNMENT: Registered(
        AlignmentKind(),
        alignments_endpoints.router,
        alignments_endpoints.OPENAPI,
        alignments_endpoints.WITHHELD,
    ),
}


def install() -> None:
    """Hand the kinds to the evaluation core (scoring, cancel, delete, events), and their
    objects' score fields to the API's withholding."""
    kinds.use({name: entry.kind for name, entry in KINDS.items()})
    withheld.use({name: each for entry in KINDS.values() for name, each in entry.withheld.items()})


def routers() -> list[APIRouter]:
    """Every kind's routes, in the registry's order."""
    return [entry.router for entry in KINDS.values()]


def openapi() -> list[Extras]:
    """What the kinds add to the OpenAPI document: each one's examples and links, and their
    names as the enums of the fields and parameters that hold a kind (`str` in the schemas,
    which the evaluation core defines without knowing the kinds)."""
    every = list(KINDS)
    listed = [name for name, entry in KINDS.items() if entry.kind.listed]
    enums = {
        "schemas/Evaluation/kind": every,
        "schemas/Comparison/kind": every,
        "list_evaluations/kind": listed,
    }
    return [Extras(enums=enums), *(entry.openapi for entry in KINDS.values())]
