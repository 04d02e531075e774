from typing import Literal

MetricComparisonCiMethodType0 = Literal['bootstrap_bca', 'bootstrap_percentile', 'cluster_bootstrap_bca', 'cluster_bootstrap_percentile', 'cluster_wilson', 'paired_bootstrap_bca', 'paired_bootstrap_percentile', 'paired_newcombe', 'wilson']

METRIC_COMPARISON_CI_METHOD_TYPE_0_VALUES: set[MetricComparisonCiMethodType0] = { 'bootstrap_bca', 'bootstrap_percentile', 'cluster_bootstrap_bca', 'cluster_bootstrap_percentile', 'cluster_wilson', 'paired_bootstrap_bca', 'paired_bootstrap_percentile', 'paired_newcombe', 'wilson',  }

def check_metric_comparison_ci_method_type_0(value: str) -> MetricComparisonCiMethodType0:
    if value in METRIC_COMPARISON_CI_METHOD_TYPE_0_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {METRIC_COMPARISON_CI_METHOD_TYPE_0_VALUES!r}")
