"""Alignment bodies."""

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.evaluations.schemas import EvaluationStatus
from app.schemas import ListPage
from app.usage.schemas import UsageTotals

DEFAULT_HELD_OUT_SHARE = 0.5
# Fewer held-out items than this and κ before and after would say nothing.
MIN_HELD_OUT = 10


class AlignmentCreate(BaseModel):
    """Which metric version to align, and how to split its labelled items."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"metric_version": "mv_5b0c1d2e3f4051627384a5b6"}]},
    )

    metric_version: str = Field(
        min_length=1, max_length=40, description="The judged metric version to align."
    )
    held_out_share: float = Field(
        DEFAULT_HELD_OUT_SHARE,
        gt=0,
        lt=1,
        description="The share of labelled items held out to judge the candidate and the "
        "current version on; the rest propose the candidate.",
    )
    seed: int = Field(0, ge=0, le=2**31 - 1, description="Seeds the split.")
    min_held_out: int = Field(
        MIN_HELD_OUT,
        ge=MIN_HELD_OUT,
        le=100_000,
        description="Refuse (422) when fewer labelled items would be held out.",
    )
    webhook_url: str | None = Field(
        default=None,
        description="A registered webhook endpoint's URL; gets the terminal event "
        "(`alignment.completed`, `alignment.failed` or `alignment.canceled`), as an "
        "evaluation's or a run's does.",
    )


class AlignmentSide(BaseModel):
    """Agreement of one version's verdicts on the held-out items with people's labels."""

    metric_version: str
    n: int = Field(description="Held-out items this version scored (errored ones left out).")
    cohen_kappa: dict[str, Any] = Field(
        description="Cohen's κ of pass/fail (scikit-learn): `{value, ci95, note}`."
    )
    weighted_kappa: dict[str, Any] = Field(
        description="Quadratic weighted κ on ordinal bins, for labels on the metric's scale; "
        "a note for pass/fail labels."
    )


class HeldOutItem(BaseModel):
    """One held-out item: people's labels and both versions' scores."""

    item_key: str
    test_case_id: str
    labels: dict[str, bool | float] = Field(description="Who labelled it -> their value.")
    current: float | None = Field(description="The current version's score (null: errored).")
    candidate: float | None = Field(description="The candidate's score (null: errored).")


class AlignmentReport(BaseModel):
    """κ before (the current version) and after (the candidate) on the held-out items."""

    threshold: float
    scale: tuple[float, float]
    label_kind: str
    before: AlignmentSide
    after: AlignmentSide
    improved: bool | None = Field(
        description="Whether the candidate's κ is the higher estimate (null: either is "
        "undefined); not a test: `kappa_difference` is."
    )
    kappa_difference: dict[str, Any] = Field(
        default_factory=lambda: {"value": None, "ci95": None, "note": None},
        description="κ after − κ before over the same items, `{value, ci95, note}`: a 95% "
        "paired percentile bootstrap over the items (both κ from each resample; 2,000, "
        "seeded), null below 10 items. An interval above 0 says the candidate agrees with the "
        "people better beyond what the choice of items explains; the two sides' own intervals "
        "overlapping or not says little, as they share their items.",
    )
    items: list[HeldOutItem]


class AlignmentSplit(BaseModel):
    """How the labelled items were split (grouped: items sharing an image stay together)."""

    seed: int
    held_out_share: float
    proposal: list[str] = Field(description="Item keys that proposed the candidate.")
    held_out: list[str] = Field(description="Item keys judged by both versions.")


class Alignment(BaseModel):
    object: Literal["alignment"] = "alignment"
    id: str
    status: EvaluationStatus = Field(
        description="Of the judging of the held-out items (an evaluation of its own)."
    )
    metric_version: str = Field(description="The version aligned: the candidate's parent.")
    candidate_version: str = Field(description="The version proposed (status `candidate`).")
    candidate_metric: dict[str, Any] = Field(
        description="The metric spec of the candidate, guidance included: what a client "
        "submits to use it once activated (Loupe rewrites no client's metrics)."
    )
    guidance: dict[str, Any] = Field(
        description="What the candidate adds to the prompt: `examples` and `notes`."
    )
    active_version: str = Field(
        description="The version this alignment leaves active for the metric: the candidate "
        "once activated, else the parent."
    )
    decision: Literal["activated", "declined"] | None
    decided_by: str | None
    decided_at: datetime | None
    webhook_url: str | None = Field(description="Where its terminal event is sent.")
    split: AlignmentSplit
    report: AlignmentReport | None = Field(description="Once the judging has completed.")
    usage: UsageTotals = Field(
        description="The judge's calls on the held-out items (both versions) and the one "
        "call that wrote the notes, with their cost."
    )
    notes_usage: UsageTotals = Field(description="The call that wrote the notes alone.")
    created_at: datetime


class AlignmentList(ListPage[Alignment]):
    pass
