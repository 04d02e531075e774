from typing import Literal

ClusteredErrorCiMethodType0 = Literal['bootstrap_bca', 'bootstrap_percentile', 'cluster_bootstrap_bca', 'cluster_bootstrap_percentile', 'cluster_wilson', 'paired_bootstrap_bca', 'paired_bootstrap_percentile', 'paired_newcombe', 'wilson']

CLUSTERED_ERROR_CI_METHOD_TYPE_0_VALUES: set[ClusteredErrorCiMethodType0] = { 'bootstrap_bca', 'bootstrap_percentile', 'cluster_bootstrap_bca', 'cluster_bootstrap_percentile', 'cluster_wilson', 'paired_bootstrap_bca', 'paired_bootstrap_percentile', 'paired_newcombe', 'wilson',  }

def check_clustered_error_ci_method_type_0(value: str) -> ClusteredErrorCiMethodType0:
    if value in CLUSTERED_ERROR_CI_METHOD_TYPE_0_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {CLUSTERED_ERROR_CI_METHOD_TYPE_0_VALUES!r}")
