"""What clients read of a metric judged more than once (`judge.samples`, `judge.panel`): each
result's judgments, and per metric how many were fragile, pass^k and the panel's agreement."""

from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, Field

from app.stats import LOW_AGREEMENT, panel_agreement


class JudgmentOut(BaseModel):
    """One judge call's verdict on the output."""

    member: int | None = Field(description="Its panel member's place in `panel`; null: no panel.")
    sample: int = Field(description="Which of the member's samples (from 0).")
    score: float | None
    passed: bool | None
    reason: str | None
    error: dict[str, str] | None = Field(description="Why this judgment failed (type, message).")


class PanelMemberOut(BaseModel):
    """A panel member's own verdict over its samples."""

    member: int
    model: str | None
    model_id: str | None = Field(description="Its registered model; null: the server's judge.")
    host: str | None
    weight: float
    score: float | None = Field(description="Its samples' aggregate.")
    passed: bool | None
    reason: str | None = Field(description="The reason of its sample nearest its score.")
    errored: int


class Stability(BaseModel):
    """Every judgment of one output, and whether they agree on the verdict."""

    samples: int = Field(description="Judge calls per member (`judge.samples`).")
    aggregate: str = Field(description="How the score was made: median, mean or majority.")
    scores: list[float | None] = Field(description="Every judgment's score, member by member.")
    scored: int
    passed: int = Field(description="Judgments that reached the threshold.")
    errored: int = Field(description="Judgments that failed (after retries): they do not vote.")
    complete: bool = Field(
        default=True, description="Every judgment asked for was made (`errored` is 0)."
    )
    decided_without_judge: bool = Field(
        default=False,
        description="No judge was asked: a rule decided the result (llm_accuracy's `rule_first`), "
        "once, whatever `samples`.",
    )
    spread: float | None = Field(description="Highest minus lowest score.")
    std: float | None = Field(description="Sample standard deviation of the scores.")
    fragile: bool | None = Field(
        description="The judgments straddle the threshold: some pass, some fail; null when no "
        "judgment was made (the result is an error)."
    )
    all_passed: bool = Field(description="Every judgment passed (what pass^k counts).")
    judgments: list[JudgmentOut]
    panel: list[PanelMemberOut] | None = Field(description="Per member; null without a panel.")


class Agreement(BaseModel):
    """How far a panel's members agree over the test cases they all scored."""

    alpha: float | None = Field(
        description="Krippendorff's alpha (interval level) of the members' scores; null below "
        "two items rated by two members, or when every score is the same."
    )
    items: int = Field(description="Test cases scored by at least two members.")
    raters: int
    low: bool | None = Field(description=f"alpha below {LOW_AGREEMENT} (Krippendorff's bar).")


class StabilitySummary(BaseModel):
    """A metric judged more than once per test case: how often its judgments disagreed."""

    samples: int
    members: int | None = Field(description="Panel members; null without a panel.")
    aggregate: str
    fragile: int = Field(description="Results whose judgments straddle the threshold.")
    incomplete: int = Field(
        default=0,
        description="Results with a verdict some of whose judgments failed (they do not "
        "vote): it rests on fewer judgments than asked for. A result none of whose judgments "
        "was made is an error, counted in the metric's `errored` alone.",
    )
    all_passed: int = Field(description="Results whose every judgment passed.")
    pass_hat_k: float | None = Field(
        description="pass^k: `all_passed` / results with a verdict (beside `pass_rate`)."
    )
    agreement: Agreement | None = Field(description="The panel's; null without a panel.")
    self_agreement: Agreement | None = Field(
        default=None,
        description="How far the judge agrees with itself when asked again: Krippendorff's "
        "alpha (interval level) with each result's samples as its raters (with a panel, each "
        "member's samples of each result; `raters` is `samples`); null with one sample. Low "
        "says one call's verdict is partly a draw.",
    )


def judge_choice(spec: dict[str, Any]) -> dict[str, Any] | None:
    """A stored spec's judge choice when it judges more than once, else None."""
    choice = spec.get("judge") or {}
    samples = choice.get("samples") or 1
    panel = choice.get("panel") or None
    if samples <= 1 and not panel:
        return None
    return {"samples": samples, "panel": panel, "aggregate": choice.get("aggregate") or "median"}


def _agreement(ratings: list[list[float | None]]) -> Agreement:
    made = panel_agreement(ratings)
    return Agreement(alpha=made.alpha, items=made.items, raters=made.raters, low=made.low)


# Per completed evaluation and metric: the panel's and the samples' agreement, read from every
# result's judgments once per process (a completed evaluation's judgments do not change).
_KEPT: OrderedDict[tuple[str, int], tuple[Agreement | None, Agreement | None]] = OrderedDict()
_KEPT_SIZE = 256


def agreements(
    choice: dict[str, Any],
    stabilities: Callable[[], list[dict[str, Any]]],
    kept_as: tuple[str, int] | None,
) -> tuple[Agreement | None, Agreement | None]:
    """The panel's agreement across members and the judge's with itself across samples, from
    the metric's results' judgments (`stabilities`, read only when not kept); `kept_as` keeps
    them for a completed evaluation's metric."""
    if kept_as is not None and (found := _KEPT.get(kept_as)) is not None:
        return found
    read = stabilities()
    panel = choice["panel"]
    made = (
        _agreement(ratings(read, len(panel))) if panel else None,
        _agreement(sample_ratings(read, choice["samples"])) if choice["samples"] > 1 else None,
    )
    if kept_as is not None:
        _KEPT[kept_as] = made
        while len(_KEPT) > _KEPT_SIZE:
            _KEPT.popitem(last=False)
    return made


def summary(
    spec: dict[str, Any],
    row: dict[str, Any],
    stabilities: Callable[[], list[dict[str, Any]]],
    kept_as: tuple[str, int] | None = None,
) -> StabilitySummary | None:
    """The metric's stability summary from its running sums and its results' judgments."""
    choice = judge_choice(spec)
    if choice is None:
        return None
    verdicts = row.get("passed", 0) + row.get("failed", 0)
    agreement, self_agreement = agreements(choice, stabilities, kept_as)
    return StabilitySummary(
        samples=choice["samples"],
        members=len(choice["panel"]) if choice["panel"] else None,
        aggregate=choice["aggregate"],
        fragile=row.get("fragile", 0),
        incomplete=row.get("incomplete", 0),
        all_passed=row.get("all_passed", 0),
        pass_hat_k=row.get("all_passed", 0) / verdicts if verdicts else None,
        agreement=agreement,
        self_agreement=self_agreement,
    )


def ratings(stabilities: list[dict[str, Any]], members: int) -> list[list[float | None]]:
    """Rows of the panel's members, columns of results: each member's score of each result."""
    rows: list[list[float | None]] = [[] for _ in range(members)]
    for stability in stabilities:
        shown = {entry["member"]: entry.get("score") for entry in stability.get("panel") or []}
        for member in range(members):
            rows[member].append(shown.get(member))
    return rows


def sample_ratings(stabilities: list[dict[str, Any]], samples: int) -> list[list[float | None]]:
    """Rows of sample numbers, columns of (result, member): each sample's score (None: it
    errored or was not made)."""
    rows: list[list[float | None]] = [[] for _ in range(samples)]
    for stability in stabilities:
        by_member: dict[Any, dict[int, float | None]] = {}
        for judgment in stability.get("judgments") or []:
            by_member.setdefault(judgment.get("member"), {})[judgment.get("sample", 0)] = (
                judgment.get("score")
            )
        for scores in by_member.values():
            for sample in range(samples):
                rows[sample].append(scores.get(sample))
    return rows
