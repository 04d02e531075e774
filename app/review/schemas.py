"""Review queue bodies: what feeds a queue and how items are routed; an item as a reviewer
sees it before (blind) and after labelling it."""

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from app.evaluations.schemas import TestCase
from app.labels.schemas import Label, LabelValue
from app.schemas import ListPage


class NearThreshold(BaseModel):
    model_config = ConfigDict(extra="forbid")

    width: float = Field(
        gt=0, le=1_000_000, description="Items whose |score - threshold| is at most this."
    )


class Lowest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    share: float = Field(gt=0, le=1, description="The lowest-scored share of the items.")


class Routing(BaseModel):
    """Which items are offered: each routed reason picks items, and `audit_share` adds a random
    share of the rest (seeded per item: the same item is always in or out)."""

    model_config = ConfigDict(extra="forbid")

    near_threshold: NearThreshold | None = None
    fragile: bool = Field(
        False, description="Items whose judgments straddle the threshold (`result.fragile`)."
    )
    lowest: Lowest | None = None
    audit_share: float = Field(
        0, ge=0, le=1, description="A random share of the items no routed reason picked."
    )


class ReviewQueueCreate(BaseModel):
    """A queue of one metric's judged results from evaluations and online rules' days."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "name": "helpfulness near the line",
                    "evaluation_ids": ["evn_0193c4aa5b0c1d2e3f405162"],
                    "metric": "helpfulness",
                    "routing": {"near_threshold": {"width": 0.1}, "audit_share": 0.05},
                    "reviewers_per_item": 2,
                }
            ]
        },
    )

    name: str = Field(min_length=1, max_length=256)
    evaluation_ids: list[str] = Field(
        default_factory=list, max_length=100, description="Evaluations (or runs) feeding it."
    )
    online_rule_ids: list[str] = Field(
        default_factory=list,
        max_length=100,
        description="Online rules feeding it: their days' results, new ones taken in at claim.",
    )
    metric: str = Field(min_length=1, max_length=128, description="The metric's name to review.")
    routing: Routing
    reviewers_per_item: int = Field(
        1, ge=1, le=5, description="How many different people label each item (at most)."
    )
    reservation_minutes: int = Field(
        30, ge=1, le=1440, description="How long a claim holds the item before it returns."
    )


class ReviewerProgress(BaseModel):
    actor: str = Field(description="`person:<id>` or `key:<id>`.")
    name: str | None = Field(description="The person's email or the key's name.")
    labelled: int
    reserved: int


class ReviewProgress(BaseModel):
    """Where a queue stands, over the items offered (routed or audit) taken in so far."""

    items: int = Field(description="Items offered.")
    labelled: int = Field(description="Items labelled by `reviewers_per_item` people.")
    in_progress: int = Field(description="Items reserved or labelled by fewer people.")
    remaining: int = Field(description="Items nobody has reserved or labelled yet.")
    reviewers: list[ReviewerProgress]


class ReviewQueue(BaseModel):
    object: Literal["review_queue"] = "review_queue"
    id: str
    name: str
    metric: str
    evaluation_ids: list[str]
    online_rule_ids: list[str]
    routing: Routing
    reviewers_per_item: int
    reservation_minutes: int
    created_at: datetime
    progress: ReviewProgress


class ReviewQueueList(ListPage[ReviewQueue]):
    pass


class Scale(BaseModel):
    min: float
    max: float


class ReviewItem(BaseModel):
    """An item claimed for labelling: the test case and the metric's scale, and nothing the
    judge said (blind, so the judge's verdict cannot anchor yours)."""

    object: Literal["review_item"] = "review_item"
    id: str
    queue_id: str
    metric: str
    metric_type: str
    metric_version: str
    scale: Scale = Field(description="The metric's score range: a label's `value` is in it.")
    threshold: float | None
    test_case: TestCase
    expires_at: datetime = Field(description="When the reservation lapses and the item returns.")


class ReviewLabelCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    value: LabelValue
    rationale: str | None = Field(None, max_length=10_000, description="Why, in your words.")


class JudgeVerdict(BaseModel):
    score: float | None
    passed: bool | None
    threshold: float | None
    reason: str | None


class ReviewLabelled(BaseModel):
    """Your label, and now that you have answered, what the judge said and why the item was
    routed to you."""

    object: Literal["review_item.labelled"] = "review_item.labelled"
    item_id: str
    result_id: str
    reason: str = Field(description="Why it was offered: near_threshold, fragile, lowest, audit.")
    selection: Literal["random", "routed"] = Field(
        description="How the label is stored: `random` for the audit share (a random sample, "
        "which calibrated means may use), `routed` for the others."
    )
    label: Label
    judge: JudgeVerdict


__all__ = [
    "JudgeVerdict",
    "Lowest",
    "NearThreshold",
    "ReviewItem",
    "ReviewLabelCreate",
    "ReviewLabelled",
    "ReviewProgress",
    "ReviewQueue",
    "ReviewQueueCreate",
    "ReviewQueueList",
    "ReviewerProgress",
    "Routing",
    "Scale",
]
