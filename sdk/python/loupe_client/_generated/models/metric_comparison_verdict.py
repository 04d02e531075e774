from typing import Literal

MetricComparisonVerdict = Literal['improved', 'no_detectable_change', 'regressed', 'undecided']

METRIC_COMPARISON_VERDICT_VALUES: set[MetricComparisonVerdict] = { 'improved', 'no_detectable_change', 'regressed', 'undecided',  }

def check_metric_comparison_verdict(value: str) -> MetricComparisonVerdict:
    if value in METRIC_COMPARISON_VERDICT_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {METRIC_COMPARISON_VERDICT_VALUES!r}")
