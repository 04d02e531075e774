"""The words and lists of a judge's agreement with people: why a statistic is undefined or
its interval collapsed, the disagreements worst first, the notes on mixed labels."""

import numpy as np

from app.stats._human_types import SCALE_STATISTICS, Disagreement, Statistic, _Items

_UNDEFINED = {
    "cohen_kappa": "one class only: judge and people give the same single verdict to every "
    "item, so κ is undefined (no chance agreement to correct)",
    "weighted_kappa": "one bin only: judge and people put every item in the same score bin, "
    "so weighted κ is undefined",
    "krippendorff_alpha": "no variation: every paired rating is the same, so α is undefined",
    "krippendorff_alpha_people": "no item has two people's labels that could differ (α over "
    "people alone needs items labelled by at least two of them, with some variation)",
    "spearman": "all ties: the judge's scores or the people's values are constant, so ρ is "
    "undefined",
    "tpr": "no item the people pass: the true positive rate is undefined",
    "tnr": "no item the people fail: the true negative rate is undefined",
    "mean_bias": "undefined",
}


def _collapsed(name: str, data: _Items, value: float) -> str:
    """Why every resample gives the same value: one side never varies on the items it reads."""
    judge, people = data.judge_pass, data.people_pass
    if name == "cohen_kappa":
        for who, verdicts in (("judge", judge), ("people", people)):
            if verdicts.all() or not verdicts.any():
                did = "passed" if verdicts.all() else "failed"
                other = "the people say" if who == "judge" else "the judge says"
                return f"the {who} {did} every item: κ is 0 whatever {other}"
    if name in ("tpr", "tnr"):
        side = people if name == "tpr" else ~people
        seen = judge[side]
        verdict = "passed" if name == "tpr" else "failed"
        if seen.size and (seen.all() or not seen.any()):
            did = "passed" if seen.all() else "failed"
            return (
                f"the judge {did} every item the people {verdict} ({seen.size}): no resample "
                "can find one it judged otherwise, so the interval is a point, not certainty"
            )
    if name == "mean_bias" and value == 0:
        return (
            "the judge and the people give every item the same value: no resample can move "
            "the mean, so the interval is a point, not certainty"
        )
    if name == "mean_bias":
        return (
            f"the judge and the people differ by {value:g} on every item: no resample can "
            "move the mean, so the interval is a point, not certainty"
        )
    if name == "cohen_kappa" and (judge == people).all():
        return (
            "the judge and the people give every item the same verdict: no resample can find "
            "a disagreement, so the interval is a point, not certainty"
        )
    return (
        f"every resample gives {value:g} (judge and people stand in the same relation on "
        "every item), so the interval is a point, not certainty"
    )


def _disagreements(data: _Items, limit: int) -> tuple[Disagreement, ...]:
    if data.kind == "score":
        gap = np.abs(data.score - data.people)
        differ = (data.judge_pass != data.people_pass) | (data.judge_bin != data.people_bin)
    else:
        gap = np.abs(data.judge_pass.astype(float) - data.people)
        differ = data.judge_pass != data.people_pass
    order = sorted(np.flatnonzero(differ), key=lambda i: (-gap[i], data.keys[i]))[:limit]
    return tuple(
        Disagreement(
            key=data.keys[i],
            score=float(data.score[i]),
            people=float(data.people[i]),
            gap=float(gap[i]),
            judge_passed=bool(data.judge_pass[i]),
            people_passed=bool(data.people_pass[i]),
        )
        for i in order
    )


def _merge_disagreements(
    on_scale: _Items, pass_fail: _Items, scale: tuple[float, float], limit: int
) -> tuple[Disagreement, ...]:
    """The items with score labels (gap on the scale) and those with only pass/fail labels
    (gap in share passing), worst first by gap as a share of the scale's width."""
    width = scale[1] - scale[0]
    found = [(d.gap / width, d) for d in _disagreements(on_scale, limit)]
    found += [(d.gap, d) for d in _disagreements(pass_fail, limit)]
    found.sort(key=lambda pair: (-pair[0], pair[1].key))
    return tuple(d for _, d in found[:limit])


def _mixed_note(name: str, statistic: Statistic, n: int, on_scale: int, scores: int) -> str:
    if name in SCALE_STATISTICS:
        said = (
            f"from the {on_scale} of {n} items with labels on the scale, reading those labels "
            "only (pass/fail labels left out)"
        )
    else:
        said = (
            f"from all {n} items, the {scores} labels on the scale counting as pass/fail at "
            "the threshold"
        )
    return "; ".join(part for part in (said, statistic.note) if part)
