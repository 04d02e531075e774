from typing import Literal

ReportRowCiMethodType0 = Literal['bootstrap_bca', 'bootstrap_percentile', 'cluster_bootstrap_bca', 'cluster_bootstrap_percentile', 'cluster_wilson', 'paired_bootstrap_bca', 'paired_bootstrap_percentile', 'paired_newcombe', 'wilson']

REPORT_ROW_CI_METHOD_TYPE_0_VALUES: set[ReportRowCiMethodType0] = { 'bootstrap_bca', 'bootstrap_percentile', 'cluster_bootstrap_bca', 'cluster_bootstrap_percentile', 'cluster_wilson', 'paired_bootstrap_bca', 'paired_bootstrap_percentile', 'paired_newcombe', 'wilson',  }

def check_report_row_ci_method_type_0(value: str) -> ReportRowCiMethodType0:
    if value in REPORT_ROW_CI_METHOD_TYPE_0_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {REPORT_ROW_CI_METHOD_TYPE_0_VALUES!r}")
